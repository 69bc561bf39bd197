import { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events/event';
import { ScriptedModel } from '../testing/scripted-model';
import { functionTool } from '../function-tool/function-tool';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function drain(iterable: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

/** A tool whose calls each wait for the test to release them; records starts, cancellations and ends. */
function gatedTool(name: string, log: string[], gates: Map<string, ReturnType<typeof deferred>>, options: { sequential?: boolean; timeoutMs?: number } = {}) {
  return functionTool<{ id: string }>({
    name,
    description: 'Waits for its gate.',
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    ...options,
    execute: async ({ id }, ctx) => {
      log.push(`start ${id}`);
      ctx.signal.addEventListener('abort', () => log.push(`cancelled ${id}`));
      const gate = deferred();
      gates.set(id, gate);
      await gate.promise;
      log.push(`end ${id}`);
      return { id };
    },
  });
}

/** Resolves once `condition()` holds, checking after each microtask turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('parallel function calls', () => {
  it('by default all calls of a response start together (16 calls, one wave)', async () => {
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const calls = Array.from({ length: 16 }, (_, i) => ({ id: `c${i}`, name: 'wait', args: { id: String(i) } }));
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls }, 'done']), tools: [gatedTool('wait', log, gates)] }) });

    const run = drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
    await until(() => gates.size === 16); // every call started before any was released
    expect(log.filter((entry) => entry.startsWith('end'))).toEqual([]);
    for (const gate of gates.values()) gate.resolve();
    const events = await run;
    expect(events.flatMap((e) => e.functionResponses()).map((r) => r.id)).toEqual(calls.map((c) => c.id)); // merged in call order
  });

  it("a sequential tool's calls run one after another in call order, while other tools' calls run alongside", async () => {
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const ledger = gatedTool('ledger', log, gates, { sequential: true });
    const other = gatedTool('other', log, gates);
    const model = new ScriptedModel([
      {
        calls: [
          { id: 'l1', name: 'ledger', args: { id: 'L1' } },
          { id: 'o1', name: 'other', args: { id: 'O1' } },
          { id: 'l2', name: 'ledger', args: { id: 'L2' } },
          { id: 'l3', name: 'ledger', args: { id: 'L3' } },
        ],
      },
      'done',
    ]);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model, tools: [ledger, other] }) });

    const run = drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
    await until(() => gates.has('L1') && gates.has('O1'));
    expect(log).toEqual(['start L1', 'start O1']); // L2 waits for L1; O1 did not wait
    gates.get('O1')!.resolve();
    await until(() => log.includes('end O1'));
    expect(gates.has('L2')).toBe(false);
    gates.get('L1')!.resolve();
    await until(() => gates.has('L2'));
    gates.get('L2')!.resolve();
    await until(() => gates.has('L3'));
    gates.get('L3')!.resolve();
    const events = await run;
    expect(log.filter((e) => e.includes('L'))).toEqual(['start L1', 'end L1', 'start L2', 'end L2', 'start L3', 'end L3']);
    expect(events.at(-1)!.text()).toBe('done');
  });

  it('a cap still applies when given, without deadlocking sequential calls', async () => {
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const ledger = gatedTool('ledger', log, gates, { sequential: true });
    const calls = ['A', 'B', 'C'].map((id) => ({ id, name: 'ledger', args: { id } }));
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls }, 'done']), tools: [ledger] }), maxConcurrentToolCalls: 2 });
    const run = drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go') }));
    for (const id of ['A', 'B', 'C']) {
      await until(() => gates.has(id));
      gates.get(id)!.resolve();
    }
    expect((await run).at(-1)!.text()).toBe('done');
    expect(log).toEqual(['start A', 'end A', 'start B', 'end B', 'start C', 'end C']);
  });
});

/** The codes of the function responses of `events`, in order (`ok` for a result). */
function responseCodes(events: readonly Event[]): string[] {
  return events.flatMap((e) => e.functionResponses()).map((r) => ((r.response.error as { code?: string } | undefined)?.code ?? 'ok'));
}

/** Lets every pending callback run: the microtasks and a few turns of the event loop. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('a sequential tool when the run ends mid-call', () => {
  const payCalls = ['A', 'B', 'C'].map((id) => ({ id, name: 'pay', args: { id } }));

  for (const [label, runnerOptions] of [['uncapped', {}], ['capped at 2', { maxConcurrentToolCalls: 2 }]] as const) {
    it(`an abort answers every call at once and starts none of the queued calls, even once the running one ends (${label})`, async () => {
      const log: string[] = [];
      const gates = new Map<string, ReturnType<typeof deferred>>();
      const sessionService = new InMemorySessionService();
      const pay = gatedTool('pay', log, gates, { sequential: true });
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls: payCalls }, 'done']), tools: [pay] }), sessionService, ...runnerOptions });
      const controller = new AbortController();
      const run = drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('pay three'), signal: controller.signal }));
      await until(() => gates.has('A'));
      controller.abort();
      const events = await run; // while A still runs
      expect(responseCodes(events)).toEqual(['RUN_ABORTED', 'RUN_ABORTED', 'RUN_ABORTED']);
      expect(events.at(-1)!.errorCode).toBe('RUN_ABORTED');
      await settle();
      expect(log).toEqual(['start A', 'cancelled A']);
      gates.get('A')!.resolve();
      await until(() => log.includes('end A'));
      await settle();
      expect(log).toEqual(['start A', 'cancelled A', 'end A']); // B and C never start
      const stored = await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
      expect(responseCodes(stored!.events)).toEqual(['RUN_ABORTED', 'RUN_ABORTED', 'RUN_ABORTED']);
    });
  }

  it('break out of the run after the abort: the queued calls never start, nor run in the next run of the session', async () => {
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const pay = gatedTool('pay', log, gates, { sequential: true });
    const model = new ScriptedModel([{ calls: payCalls }, 'next turn']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model, tools: [pay] }) });
    const controller = new AbortController();
    const seen: Event[] = [];
    const iterating = (async () => {
      for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: user('pay three'), signal: controller.signal })) {
        seen.push(event);
        if (event.functionResponses().length > 0) break; // mid-call: A still runs
      }
    })();
    await until(() => gates.has('A'));
    controller.abort();
    await iterating;
    expect(responseCodes(seen)).toEqual(['RUN_ABORTED', 'RUN_ABORTED', 'RUN_ABORTED']);
    // The turn passed on: the next run of the session goes ahead while A still runs.
    const next = await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('again') }));
    expect(next.at(-1)!.text()).toBe('next turn');
    gates.get('A')!.resolve();
    await until(() => log.includes('end A'));
    await settle();
    expect(log).toEqual(['start A', 'cancelled A', 'end A']);
  });

  it('return() while a call runs waits for the step (overlapping calls are answered in order): the calls still run one after another', async () => {
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const pay = gatedTool('pay', log, gates, { sequential: true });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls: payCalls }, 'done']), tools: [pay] }) });
    const iterator = runner.run({ userId: 'u', sessionId: 's', newMessage: user('pay three') });
    expect((await iterator.next()).value!.functionCalls()).toHaveLength(3); // the model's calls: none started yet
    expect(log).toEqual([]);
    const first = iterator.next(); // runs the calls
    await until(() => gates.has('A'));
    const returned = iterator.return();
    for (const id of ['A', 'B', 'C']) {
      await until(() => gates.has(id));
      expect(log.at(-1)).toBe(`start ${id}`); // the one before it had ended
      gates.get(id)!.resolve();
    }
    expect((await first).done).toBe(false);
    expect(await returned).toEqual({ value: undefined, done: true });
    expect(log).toEqual(['start A', 'end A', 'start B', 'end B', 'start C', 'end C']);
  });

  it('a call that timed out but still runs holds the next call of its tool until it ends', async () => {
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const pay = gatedTool('pay', log, gates, { sequential: true, timeoutMs: 1 });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls: payCalls.slice(0, 2) }, 'done']), tools: [pay] }) });
    const run = drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('pay two') }));
    await until(() => log.includes('cancelled A')); // timed out: answered TOOL_TIMEOUT, still running
    await settle();
    expect(log).toEqual(['start A', 'cancelled A']);
    gates.get('A')!.resolve();
    await until(() => gates.has('B'));
    gates.get('B')!.resolve(); // B may time out too: what matters is that it started after A ended
    const events = await run;
    expect(log.slice(0, 4)).toEqual(['start A', 'cancelled A', 'end A', 'start B']);
    expect(responseCodes(events)[0]).toBe('TOOL_TIMEOUT');
  });
});

describe("a sequential tool's calls across responses, runs and sessions", () => {
  it('a call of the next response waits for a timed-out call whose tool still runs', async () => {
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const pay = gatedTool('pay', log, gates, { sequential: true, timeoutMs: 1 });
    const model = new ScriptedModel([{ calls: [{ id: 'A', name: 'pay', args: { id: 'A' } }] }, { calls: [{ id: 'B', name: 'pay', args: { id: 'B' } }] }, 'done']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model, tools: [pay] }) });
    const run = drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('pay twice') }));
    await until(() => model.requests.length === 2); // A was answered TOOL_TIMEOUT and the model called again
    await settle();
    expect(log).toEqual(['start A', 'cancelled A']); // B waits: A's tool still runs
    gates.get('A')!.resolve();
    await until(() => gates.has('B'));
    gates.get('B')!.resolve();
    const events = await run;
    expect(log.slice(0, 4)).toEqual(['start A', 'cancelled A', 'end A', 'start B']);
    expect(responseCodes(events)[0]).toBe('TOOL_TIMEOUT');
    expect(events.at(-1)!.text()).toBe('done');
  });

  it("a call of the session's next run waits for an aborted call whose tool still runs; aborted while waiting, it never starts", async () => {
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const pay = gatedTool('pay', log, gates, { sequential: true });
    const call = (id: string) => ({ calls: [{ id, name: 'pay', args: { id } }] });
    const model = new ScriptedModel([call('A'), call('B'), call('C'), 'done']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model, tools: [pay] }) });
    const first = new AbortController();
    const aborted = drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('pay A'), signal: first.signal }));
    await until(() => gates.has('A'));
    first.abort();
    expect(responseCodes(await aborted)).toEqual(['RUN_ABORTED']); // while A still runs

    // The next run's B waits for A; its run aborts, so B never starts.
    const second = new AbortController();
    const waiting = drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('pay B'), signal: second.signal }));
    await until(() => model.requests.length === 2);
    await settle();
    second.abort();
    expect(responseCodes(await waiting)).toEqual(['RUN_ABORTED']);

    // The run after it: C waits for A too, and starts once A's tool has ended.
    const next = drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('pay C') }));
    await until(() => model.requests.length === 3);
    await settle();
    expect(log).toEqual(['start A', 'cancelled A']);
    gates.get('A')!.resolve();
    await until(() => gates.has('C'));
    gates.get('C')!.resolve();
    expect((await next).at(-1)!.text()).toBe('done');
    expect(log).toEqual(['start A', 'cancelled A', 'end A', 'start C', 'end C']); // B never started
  });

  it("two sessions' calls of one sequential tool never wait for each other", async () => {
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const pay = gatedTool('pay', log, gates, { sequential: true });
    const call = (id: string) => ({ calls: [{ id, name: 'pay', args: { id } }] });
    const model = new ScriptedModel([call('A'), call('B'), 'done', 'done']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model, tools: [pay] }) });
    const one = drain(runner.run({ userId: 'u', sessionId: 's1', newMessage: user('pay A') }));
    await until(() => gates.has('A'));
    const two = drain(runner.run({ userId: 'u', sessionId: 's2', newMessage: user('pay B') }));
    await until(() => gates.has('B')); // started while A still runs
    expect(log).toEqual(['start A', 'start B']);
    gates.get('B')!.resolve();
    expect((await two).at(-1)!.text()).toBe('done');
    gates.get('A')!.resolve();
    expect((await one).at(-1)!.text()).toBe('done');
  });
});

describe('per-turn cost is flat in the tool set', () => {
  it('every turn and session offers the very same declaration objects (built once per tool)', async () => {
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const tools = Array.from({ length: 50 }, (_, i) => gatedTool(`tool_${i}`, log, gates));
    const model = new ScriptedModel(['one', 'two', 'three']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model, tools }) });
    for (const sessionId of ['a', 'a', 'b']) await drain(runner.run({ userId: 'u', sessionId, newMessage: user('hi') }));
    const [first, second, third] = model.requests.map((request) => request.tools);
    expect(first).toHaveLength(50);
    for (let i = 0; i < 50; i++) {
      expect(second[i]).toBe(first[i]);
      expect(third[i]).toBe(first[i]);
    }
  });
});
