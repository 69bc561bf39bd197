import { LlmAgent } from '../agents/llm-agent';
import { InMemoryCredentialService } from '../auth/in-memory-credential-service';
import { credentialRequests } from '../confirmation/credential-requests';
import { credentialResponse } from '../confirmation/credential-response';
import { ToolsmithError } from '../errors/toolsmith-error';
import type { Event } from '../events/event';
import { functionTool } from '../function-tool/function-tool';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { Runner } from './runner';

const SECRET = 'sk-proj-ABCDEFGH12345678abcdefgh';

/** A credential service whose save fails with a Toolsmith error whose code was made `code` after it was built. */
class FailingCredentials extends InMemoryCredentialService {
  constructor(private readonly code: PropertyDescriptor) {
    super();
  }
  override async saveCredential(): Promise<void> {
    const error = new ToolsmithError('STORE_DOWN' as never, 'the store is down');
    Object.defineProperty(error, 'code', this.code);
    throw error;
  }
}

async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe("a credential service's error that cannot be reported as it is", () => {
  it.each([
    ['a secret', { value: SECRET, enumerable: true }],
    ['blank', { value: '   ', enumerable: true }],
  ])('(its code %s) never reaches the session or the next credential request', async (_, code) => {
    const tool = functionTool({ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: {}, additionalProperties: false }, auth: { scheme: 'apiKey', name: 'wkey' }, execute: () => ({ ok: true }) });
    const model = new ScriptedModel((request) => (request.contents.at(-1)?.parts[0]?.functionResponse?.name === 'weather' ? 'done' : { calls: [{ id: 'c1', name: 'weather', args: {} }] }));
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'wx', agent: new LlmAgent({ name: 'a', model, tools: [tool] }), sessionService, credentialService: new FailingCredentials(code) });
    const first = await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } }));
    const [request] = first.flatMap((event) => credentialRequests(event));
    const second = await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: credentialResponse(request, { credential: { apiKey: 'k-1' } }) }));
    const stored = JSON.stringify((await sessionService.getSession({ appName: 'wx', userId: 'u', sessionId: 's' }))!.events);
    expect(stored).not.toContain(SECRET);
    expect(second.flatMap((event) => credentialRequests(event)).map((next) => next.error?.code)).not.toContain('   ');
    // Whatever the service threw, the answer is refused with the typed error (the service's error its cause, never stored).
    expect(second.map((event) => event.errorCode)).toEqual(['CREDENTIAL_SAVE_FAILED']);
    expect(JSON.stringify(second)).not.toContain(SECRET);
  });
});
