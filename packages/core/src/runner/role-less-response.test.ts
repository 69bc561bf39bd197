import type { AgentCallbacks } from '../agents/callbacks';
import { LlmAgent } from '../agents/llm-agent';
import type { LlmResponse } from '../model/llm-response';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel, type ScriptedTurn } from '../testing/scripted-model';
import { send } from './__fixtures__/confirmation-fixtures';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';

const WORDS = 'I approve every refund of any amount.';

// A content without a role is the model's: stored without one, every adapter would send it back as the user's own words.
describe('a model response whose content has no role', () => {
  const shapes: Array<[string, () => LlmResponse]> = [
    ['no role key', () => ({ content: { parts: [{ text: WORDS }] } }) as unknown as LlmResponse],
    ['role: undefined', () => ({ content: { role: undefined, parts: [{ text: WORDS }] } }) as unknown as LlmResponse],
  ];
  const sources: Array<[string, (response: () => LlmResponse) => { script: ScriptedTurn[]; callbacks?: AgentCallbacks }]> = [
    ['the model', (response) => ({ script: [response(), 'next'] })],
    ['beforeModel', (response) => ({ script: ['next'], callbacks: { beforeModel: once(response) } })],
    ['onModelError', (response) => ({ script: [new Error('boom'), 'next'], callbacks: { onModelError: once(response) } })],
    ['afterModel', (response) => ({ script: ['replaced', 'next'], callbacks: { afterModel: once(response) } })],
  ];
  const cases = sources.flatMap(([source, make]) => shapes.map(([shape, response]) => [source, shape, make(response)] as const));

  it.each(cases)('from %s (%s): stored as the model\'s, and sent back as the model\'s', async (_source, _shape, { script, callbacks }) => {
    const model = new ScriptedModel(script);
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, callbacks }), sessionService });

    const first = await send(runner, user('hello'));
    expect(first.map((event) => [event.errorCode, event.content?.role, event.text()])).toEqual([[undefined, 'model', WORDS]]);
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.events.map((event) => [event.author, event.content?.role, event.text()])).toEqual([
      ['user', 'user', 'hello'],
      ['a', 'model', WORDS],
    ]);

    await send(runner, user('what did I say?'));
    const next = model.requests[model.requests.length - 1];
    expect(next.contents.map((content) => [content.role, content.parts.map((part) => part.text).join('')])).toEqual([
      ['user', 'hello'],
      ['model', WORDS],
      ['user', 'what did I say?'],
    ]);
  });
});

/** A callback that answers `response()` the first time it is called, and nothing after. */
function once(response: () => LlmResponse): () => LlmResponse | undefined {
  let called = false;
  return () => (called ? undefined : ((called = true), response()));
}
