import { LlmAgent } from '../agents/llm-agent';
import { AgentTool } from '../agent-tool/agent-tool';
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

  it('ends the run with STATE_CONFLICT when a callback\'s compare-and-set lost, storing nothing of that step (only the error event the run ends on)', async () => {
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
    expect(stored.events.map((e) => e.errorCode ?? e.text())).toEqual(['hi', 'STATE_CONFLICT']);
    expect(stored.state).toEqual({ 'app:lock': 'other' });
  });

  describe('the calls of one step apply in the order the model made them', () => {
    const setup = (calls: Array<{ name: string; args?: Record<string, unknown> }>, tools: ReturnType<typeof functionTool>[]) => {
      const sessionService = new InMemorySessionService();
      const model = new ScriptedModel([{ calls: calls.map((c, i) => ({ id: `c${i}`, name: c.name, args: c.args ?? {} })) }, 'done']);
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model, tools }), sessionService });
      const stored = async () => (await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
      return { runner, sessionService, stored };
    };
    const cas = functionTool({
      name: 'cas',
      description: 'Claims the seat.',
      parameters: { type: 'object', properties: { who: { type: 'string' }, expected: {} }, required: ['who'] },
      execute: (args: { who: string; expected?: unknown }, ctx) => ({ ok: ctx.state.compareAndSet('app:seat', args.expected, args.who) }),
    });
    const inc = functionTool({ name: 'inc', description: 'Counts.', execute: (_args, ctx) => ({ n: ctx.state.increment('app:n') }) });
    const responsesOf = (events: Event[]) => events.flatMap((e) => e.functionResponses()).map((r) => (r.isError ? (r.response.error as { code: string }).code : r.response));

    it('two compare-and-sets of one key from the same value: the first call wins, the second gets STATE_CONFLICT', async () => {
      const { runner, stored } = setup([{ name: 'cas', args: { who: 'X' } }, { name: 'cas', args: { who: 'Y' } }], [cas]);
      const events = await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user('book') }));
      expect(responsesOf(events)).toEqual([{ ok: true }, 'STATE_CONFLICT']);
      expect((await stored()).state).toEqual({ 'app:seat': 'X' });
    });

    it('every call of a step reads the state from before the step: a compare-and-set expecting another call\'s write refuses in the tool', async () => {
      const { runner, stored } = setup([{ name: 'cas', args: { who: 'X' } }, { name: 'cas', args: { who: 'Y', expected: 'X' } }], [cas]);
      const events = await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user('book') }));
      expect(responsesOf(events)).toEqual([{ ok: true }, { ok: false }]); // the second call read nothing: its own check refused
      expect((await stored()).state).toEqual({ 'app:seat': 'X' });
    });

    it('a compare-and-set after an increment of its key in the step loses; the increment is stored', async () => {
      const casN = functionTool({ name: 'casN', description: 'Sets n.', execute: (_args, ctx) => ({ ok: ctx.state.compareAndSet('app:n', undefined, 100) }) });
      const { runner, stored } = setup([{ name: 'inc' }, { name: 'casN' }], [inc, casN]);
      const events = await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
      expect(responsesOf(events)).toEqual([{ n: 1 }, 'STATE_CONFLICT']);
      expect((await stored()).state).toEqual({ 'app:n': 1 });
    });

    it('an increment layered on a compare-and-set that then loses at the append is stored alone', async () => {
      const read = deferred();
      const otherStored = deferred();
      const casN = functionTool({
        name: 'casN',
        description: 'Sets n from 5.',
        execute: async (_args, ctx) => {
          const ok = ctx.state.compareAndSet('app:n', 5, 100);
          read.resolve();
          await otherStored.promise;
          return { ok };
        },
      });
      const { runner, sessionService, stored } = setup([{ name: 'casN' }, { name: 'inc' }], [casN, inc]);
      const seed = await sessionService.createSession({ appName: 'app', userId: 'v', sessionId: 'seed' });
      await sessionService.appendEvent(seed, Event.create({ invocationId: 'x', author: 'agent', actions: { stateDelta: { 'app:n': 5 }, artifactDelta: {} } }));
      const run = collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
      await read.promise;
      await sessionService.appendEvent(seed, Event.create({ invocationId: 'y', author: 'agent', actions: { stateDelta: { 'app:n': 7 }, artifactDelta: {} } }));
      otherStored.resolve();
      expect(responsesOf(await run)).toEqual(['STATE_CONFLICT', { n: 6 }]);
      expect((await stored()).state).toEqual({ 'app:n': 8 }); // 7 stored by the other session, plus this step's increment
    });

    it('an increment past the largest finite number fails the call with INVALID_STATE_VALUE; nothing is stored', async () => {
      const big = functionTool({ name: 'big', description: 'Adds a lot.', execute: (_args, ctx) => ({ n: ctx.state.increment('app:n', Number.MAX_VALUE) }) });
      const { runner, sessionService, stored } = setup([{ name: 'big' }, { name: 'big' }], [big]);
      const seed = await sessionService.createSession({ appName: 'app', userId: 'v', sessionId: 'seed' });
      await sessionService.appendEvent(seed, Event.create({ invocationId: 'x', author: 'agent', actions: { stateDelta: { 'app:n': Number.MAX_VALUE }, artifactDelta: {} } }));
      const events = await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
      expect(responsesOf(events)).toEqual(['INVALID_STATE_VALUE', 'INVALID_STATE_VALUE']);
      expect((await stored()).state).toEqual({ 'app:n': Number.MAX_VALUE });
    });
  });

  it("an AgentTool's inner increments and compare-and-sets stay atomic updates in the caller's step", async () => {
    const sessionService = new InMemorySessionService();
    const read = deferred();
    const otherStored = deferred();
    const count = functionTool({
      name: 'count',
      description: 'Counts and books.',
      execute: async (_args, ctx) => {
        const n = ctx.state.increment('app:n');
        const booked = ctx.state.compareAndSet('app:seat', undefined, 'me');
        read.resolve();
        await otherStored.promise;
        return { n, booked };
      },
    });
    const helper = new LlmAgent({ name: 'helper', description: 'Counts.', model: new ScriptedModel([{ calls: [{ id: 'i', name: 'count', args: {} }] }, 'counted']), tools: [count] });
    const model = new ScriptedModel([{ calls: [{ id: 'h', name: 'helper', args: { request: 'count' } }] }, 'done']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [new AgentTool({ agent: helper })] }), sessionService });
    const other = await sessionService.createSession({ appName: 'app', userId: 'v', sessionId: 'other' });

    const run = collect(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
    await read.promise;
    // Another session counts too, before the caller's step is stored.
    await sessionService.appendEvent(other, Event.create({ invocationId: 'x', author: 'agent', actions: { stateDelta: { 'app:n': 1 }, artifactDelta: {}, stateOps: { 'app:n': { op: 'increment', by: 1 } } } }));
    otherStored.resolve();
    await run;

    const stored = (await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
    expect(stored.state).toEqual({ 'app:n': 2, 'app:seat': 'me' }); // both counts kept; the seat was free
    const step = stored.events.find((e) => e.functionResponses().some((r) => r.id === 'h'))!;
    expect(step.actions.stateOps).toEqual({ 'app:n': { op: 'increment', by: 1 }, 'app:seat': { op: 'compareAndSet', expected: null } });
  });
});
