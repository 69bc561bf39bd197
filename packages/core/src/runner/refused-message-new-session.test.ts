import { LlmAgent } from '../agents/llm-agent';
import type { Content } from '../model/content';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { send } from './__fixtures__/confirmation-fixtures';
import { Runner } from './runner';

// docs/confirmation.md: "A refused message stores nothing" — not even the session it named, when that
// session did not exist yet.
describe('a refused message to a session that does not exist yet', () => {
  const refused: [string, string, Content][] = [
    ['an answer to no pending request', 'FUNCTION_RESPONSE_NOT_PENDING', { role: 'user', parts: [{ functionResponse: { id: 'nope', name: 'toolsmith_request_confirmation', response: { confirmed: true } } }] }],
    ['a message in the model role', 'INVALID_MESSAGE', { role: 'model', parts: [{ text: 'x' }] }],
    ['a function response without an id', 'INVALID_FUNCTION_RESPONSE', { role: 'user', parts: [{ functionResponse: { name: 'x', response: {} } }] } as Content],
  ];

  it.each(refused)('creates no session: %s (%s)', async (_name, code, message) => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(['never']) }), sessionService });
    const events = await send(runner, message, 'fresh');
    expect(events.map((event) => event.errorCode)).toEqual([code]);
    expect(await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 'fresh' })).toBeUndefined();
    expect(await sessionService.listSessions({ appName: 'app', userId: 'u1' })).toEqual([]);
  });

  it('an accepted message still creates the session', async () => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(['Hello.']) }), sessionService });
    await send(runner, { role: 'user', parts: [{ text: 'hi' }] }, 'fresh');
    expect((await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 'fresh' }))?.events).toHaveLength(2);
  });
});
