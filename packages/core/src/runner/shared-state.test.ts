import { LlmAgent } from '../agents/llm-agent';
import { Event } from '../events/event';
import { functionTool } from '../function-tool/function-tool';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { collect } from '../testing/collect';
import { ScriptedModel } from '../testing/scripted-model';
import { Runner } from './runner';

const user = (text: string) => ({ role: 'user' as const, parts: [{ text }] });

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('Runner: state updates applied in the append', () => {
  it('answers only the call whose compare-and-set lost with STATE_CONFLICT, stores the other calls of the step, and the run goes on', async () => {
    const sessionService = new InMemorySessionService();
    const bookedRead = deferred();
    const otherStored = deferred();
    const book = functionTool({
      name: 'book',
      description: 'Books the seat.',
      execute: async (_args, ctx) => {
        if (!ctx.state.compareAndSet('app:seat', undefined, 'me')) return { taken: true };
        ctx.state.set('user:tried', true);
        bookedRead.resolve();
        await otherStored.promise;
        return { booked: true };
      },
    });
    const count = functionTool({ name: 'count', description: 'Counts.', execute: (_args, ctx) => ({ n: ctx.state.increment('app:n') }) });
    const model = new ScriptedModel([{ calls: [{ id: 'b', name: 'book', args: {} }, { id: 'c', name: 'count', args: {} }] }, 'told the user']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'clerk', model, tools: [book, count] }), sessionService });

    const run = collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user('book') }));
    await bookedRead.promise;
    // Another session of another user takes the seat before this step is stored.
    const other = await sessionService.createSession({ appName: 'app', userId: 'v', sessionId: 'other' });
    await sessionService.appendEvent(other, Event.create({ invocationId: 'x', author: 'agent', actions: { stateDelta: { 'app:seat': 'them' }, artifactDelta: {} } }));
    otherStored.resolve();
    const events = await run;

    expect(events.at(-1)!.text()).toBe('told the user');
    const responses = events.flatMap((e) => e.functionResponses());
    expect(responses.map((r) => [r.id, r.isError ?? false])).toEqual([['b', true], ['c', false]]);
    expect(responses[0].response).toEqual({
      error: {
        code: 'STATE_CONFLICT',
        message: 'State key "app:seat" was changed by another writer: expected no value, the store holds "them". Nothing of this update was stored; read the key again and decide anew.',
        details: { key: 'app:seat', expected: null, actual: 'them' },
      },
    });
    const stored = (await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
    expect(stored.state).toEqual({ 'app:seat': 'them', 'app:n': 1 }); // nothing of the losing call (not user:tried), the other call's increment
    const step = stored.events.find((e) => e.functionResponses().length > 0)!;
    expect([step.actions.stateDelta, step.actions.stateOps]).toEqual([{ 'app:n': 1 }, { 'app:n': { op: 'increment', by: 1 } }]);
    // The model saw the error as the call's answer.
    expect(model.requests.at(-1)!.contents.at(-1)!.parts[0].functionResponse).toMatchObject({ id: 'b', isError: true });
  });

  it('ends the run with STATE_CONFLICT when a callback\'s compare-and-set lost, storing nothing of that step', async () => {
    const sessionService = new InMemorySessionService();
    const other = await sessionService.createSession({ appName: 'app', userId: 'v', sessionId: 'other' });
    const agent = new LlmAgent({
      name: 'bot',
      model: new ScriptedModel(['never stored']),
      callbacks: {
        beforeModel: async ({ context }) => {
          context.state.compareAndSet('app:lock', undefined, 'bot');
          await sessionService.appendEvent(other, Event.create({ invocationId: 'x', author: 'agent', actions: { stateDelta: { 'app:lock': 'other' }, artifactDelta: {} } }));
          return undefined;
        },
      },
    });
    const events = await collect(new Runner({ appName: 'app', agent, sessionService }).run({ userId: 'u', sessionId: 's', newMessage: user('hi') }));

    expect(events.map((e) => e.errorCode ?? e.text())).toEqual(['STATE_CONFLICT']);
    const stored = (await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
    expect(stored.events.map((e) => e.text())).toEqual(['hi']);
    expect(stored.state).toEqual({ 'app:lock': 'other' });
  });
});
