import { getEventListeners } from 'node:events';
import { LlmAgent } from '../agents/llm-agent';
import { Param } from '../decorators/param.decorator';
import { Event } from '../events/event';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { Session } from '../sessions/session';
import { SessionService } from '../sessions/session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { Tool } from '../tools/tool';
import { ToolContext } from '../tools/tool-context';
import { Toolset } from '../tools/toolset';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';
import { SessionTurns } from './session-turns';

@Toolset()
class CounterTools {
  @Tool({ description: 'Adds one to the user counter.' })
  increment(ctx: ToolContext) {
    const next = ((ctx.state.get('user:count') as number | undefined) ?? 0) + 1;
    ctx.state.set('user:count', next);
    return { count: next };
  }

  @Tool({ description: 'Waits on an abort listener.' })
  listen(@Param('label') label: string, ctx: ToolContext) {
    ctx.signal.addEventListener('abort', () => undefined);
    return { label };
  }
}

/** Each turn: the model calls `increment` once, then answers. */
const countingScript = (turns: number) => Array.from({ length: turns }, () => [{ calls: [{ id: '', name: 'increment', args: {} }] }, 'counted']).flat();

async function drain(iterable: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

function counterRunner(sessionService: SessionService, turns: number) {
  return new Runner({ appName: 'app', agent: new LlmAgent({ name: 'counter', model: new ScriptedModel(countingScript(turns)), tools: [CounterTools] }), sessionService });
}

/** Each invocation's events are contiguous in the stored history (no interleaving). */
function invocationsAreContiguous(session: Session): boolean {
  const seen = new Set<string>();
  let current: string | undefined;
  for (const event of session.events) {
    if (event.invocationId === current) continue;
    if (seen.has(event.invocationId)) return false;
    seen.add(event.invocationId);
    current = event.invocationId;
  }
  return true;
}

describe('one invocation per session', () => {
  it('20 concurrent runs on one session take turns: the history is never interleaved and the counter is exact', async () => {
    const sessionService = new InMemorySessionService();
    await sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's', state: { 'user:count': 1 } });
    const runner = counterRunner(sessionService, 20);

    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user(`run ${i}`) }))));

    expect(results.every((events) => events.at(-1)!.text() === 'counted')).toBe(true);
    const session = (await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
    expect(session.state['user:count']).toBe(21);
    expect(invocationsAreContiguous(session)).toBe(true);
    // Arrival order: run i's message is the i-th user message.
    expect(session.events.filter((e) => e.author === 'user').map((e) => e.text())).toEqual(Array.from({ length: 20 }, (_, i) => `run ${i}`));
    expect(session.events.map((e) => (e.author === 'user' ? 'U' : e.functionCalls().length ? 'M' : e.functionResponses().length ? 'R' : 'A')).join('')).toBe('UMRA'.repeat(20));
  });

  it('runs on different sessions do not wait for each other, and an idle session leaves no queue entry', async () => {
    const turns = new SessionTurns();
    const releaseA = await turns.acquire('app', 'u', 'a');
    const releaseB = await turns.acquire('app', 'u', 'b'); // not blocked by a
    expect(turns.busySessions).toBe(2);
    releaseA!.release();
    releaseB!.release();
    await Promise.resolve();
    await Promise.resolve();
    expect(turns.busySessions).toBe(0);
  });

  it('sessions under one id of other users or apps are other sessions: their turns neither wait for nor release each other, in any order', async () => {
    const turns = new SessionTurns();
    const keys: Array<[string, string]> = [['app', 'u1'], ['app', 'u2'], ['other', 'u1'], ['app', 'u3']];
    for (const order of [[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]]) {
      const releases = keys.map(([app, user]) => turns.tryAcquire(app, user, 's'));
      expect(releases.every((release) => release !== undefined)).toBe(true);
      const held = new Set([0, 1, 2, 3]);
      for (const i of order) {
        releases[i]!.release();
        held.delete(i);
        // Exactly the sessions still held are busy: each release freed its own session, and no other.
        keys.forEach(([app, user], k) => {
          const again = turns.tryAcquire(app, user, 's');
          expect(again === undefined).toBe(held.has(k));
          again?.release();
        });
        expect(turns.busySessions).toBe(held.size);
      }
    }
    // A run waiting on one of them is woken by that session's release only.
    const first = turns.tryAcquire('app', 'u1', 's')!;
    const other = turns.tryAcquire('app', 'u2', 's')!;
    let woken = false;
    const waiting = turns.acquire('app', 'u1', 's').then((release) => {
      woken = true;
      return release;
    });
    other.release();
    await Promise.resolve();
    expect(woken).toBe(false);
    first.release();
    (await waiting)!.release();
    expect(turns.busySessions).toBe(0);
  });

  it('a run aborted while it waits for its turn ends with RUN_ABORTED and does not hold up the runs behind it', async () => {
    const turns = new SessionTurns();
    const first = await turns.acquire('app', 'u', 's');
    const controller = new AbortController();
    const second = turns.acquire('app', 'u', 's', controller.signal);
    const third = turns.acquire('app', 'u', 's');
    controller.abort();
    expect(await second).toBeUndefined();
    let thirdGotIt = false;
    void third.then(() => (thirdGotIt = true));
    await Promise.resolve();
    expect(thirdGotIt).toBe(false); // still behind the first run
    first!.release();
    expect(await third).toBeDefined();
  });

  it('a turn released twice is released once: the second call neither frees nor hands on the turn the next run holds', async () => {
    const turns = new SessionTurns();
    const first = turns.tryAcquire('app', 'u', 's')!;
    const second = turns.acquire('app', 'u', 's');
    const third = turns.acquire('app', 'u', 's');
    let thirdGotIt = false;
    void third.then(() => (thirdGotIt = true));
    first.release();
    const held = (await second)!;
    first.release(); // again: the turn is the second run's now
    await Promise.resolve();
    await Promise.resolve();
    expect(thirdGotIt).toBe(false);
    expect(turns.tryAcquire('app', 'u', 's')).toBeUndefined();
    held.release();
    const last = (await third)!;
    held.release(); // again: the third run keeps its turn
    expect(turns.busySessions).toBe(1);
    last.release();
    last.release();
    expect(turns.busySessions).toBe(0);
    expect(turns.tryAcquire('app', 'u', 's')).toBeDefined();
  });

  it('two runners on one store (two processes): the later run waits for the session (default) or is refused with SESSION_BUSY, and never stores half a run', async () => {
    const sessionService = new InMemorySessionService();
    await sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    // Runner A's model waits inside its call until the test lets it answer.
    let releaseModel!: () => void;
    const modelMayAnswer = new Promise<void>((resolve) => (releaseModel = resolve));
    let modelStarted!: () => void;
    const modelIsWaiting = new Promise<void>((resolve) => (modelStarted = resolve));
    const slowModel = new ScriptedModel(async () => {
      modelStarted();
      await modelMayAnswer;
      return 'from A';
    });
    const a = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: slowModel }), sessionService });
    const b = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(['from B']) }), sessionService });
    const impatient = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(['never']) }), sessionService, sessionClaim: { onBusy: 'fail' } });

    const runA = drain(a.run({ userId: 'u', sessionId: 's', newMessage: user('A') }));
    await modelIsWaiting;
    const refused = await drain(impatient.run({ userId: 'u', sessionId: 's', newMessage: user('C') }));
    const runB = drain(b.run({ userId: 'u', sessionId: 's', newMessage: user('B') }));
    releaseModel();
    const [eventsA, eventsB] = await Promise.all([runA, runB]);

    expect(refused.map((e) => e.errorCode)).toEqual(['SESSION_BUSY']);
    expect(eventsA.at(-1)!.text()).toBe('from A');
    expect(eventsB.at(-1)!.text()).toBe('from B');
    const stored = (await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!;
    expect(stored.events.map((e) => e.text())).toEqual(['A', 'from A', 'B', 'from B']);
  });
});

describe('session creation', () => {
  it('two first messages to a new session both run, on one session', async () => {
    const sessionService = new InMemorySessionService();
    const runners = [counterRunner(sessionService, 1), counterRunner(sessionService, 1)]; // two processes, one store
    const results = await Promise.all(runners.map((runner, i) => drain(runner.run({ userId: 'u', sessionId: 'new', newMessage: user(`first ${i}`) }))));
    expect(results.map((events) => events[0].errorCode)).not.toContain('SESSION_EXISTS');
    expect(results.flat().some((e) => e.errorCode === 'SESSION_EXISTS')).toBe(false);
    expect((await sessionService.listSessions({ appName: 'app', userId: 'u' })).map((s) => s.id)).toEqual(['new']);
  });
});

describe('runner.run never throws', () => {
  class BrokenStore extends InMemorySessionService {
    constructor(private readonly broken: 'getSession' | 'createSession' | 'appendEvent') {
      super();
    }
    override async getSession(...args: Parameters<InMemorySessionService['getSession']>) {
      if (this.broken === 'getSession') throw new Error('database down');
      return super.getSession(...args);
    }
    // The claim's load (ClaimSessionRequest.load) reads the session too: it fails with getSession.
    override async claimSession(...args: Parameters<InMemorySessionService['claimSession']>) {
      if (this.broken === 'getSession' && args[0].load) throw new Error('database down');
      return super.claimSession(...args);
    }
    override async createSession(...args: Parameters<InMemorySessionService['createSession']>) {
      if (this.broken === 'createSession') throw new Error('database down');
      return super.createSession(...args);
    }
    override async appendEvent(...args: Parameters<InMemorySessionService['appendEvent']>) {
      if (this.broken === 'appendEvent') throw new Error('database down');
      return super.appendEvent(...args);
    }
  }

  it.each(['getSession', 'createSession', 'appendEvent'] as const)('a store whose %s fails gives an INTERNAL_ERROR event', async (broken) => {
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(['hi']) }), sessionService: new BrokenStore(broken) });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('hello') }));
    expect(events.map((e) => [e.author, e.errorCode])).toEqual([['bot', 'INTERNAL_ERROR']]);
    expect(events[0].errorMessage).toContain('database down');
  });

  it('odd messages, including ones that look like confirmation answers, are error events', async () => {
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(['hi']) }) });
    const odd: unknown[] = [
      null,
      { role: 'user', parts: null },
      { role: 'user', parts: [null] },
      { role: 'user', parts: [{ functionResponse: null }] },
      { role: 'user', parts: [{ functionResponse: { id: 'x', name: 'toolsmith_request_confirmation', response: null } }] },
      { role: 'user', parts: [{ functionResponse: { id: 7, name: 'toolsmith_request_confirmation' } }] },
    ];
    for (const newMessage of odd) {
      const events = await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: newMessage as never }));
      expect(events).toHaveLength(1);
      expect(events[0].errorCode).toMatch(/^[A-Z_]+$/);
    }
  });
});

describe('abort signals', () => {
  it('each invocation has its own signal: listeners tools add do not pile up across runs', async () => {
    const script = Array.from({ length: 50 }, (_, i) => [{ calls: [{ id: `c${i}`, name: 'listen', args: { label: String(i) } }] }, 'ok']).flat();
    const signals: AbortSignal[] = [];
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(script), tools: [CounterTools] }),
      plugins: [{ name: 'signals', beforeTool: ({ context }) => void signals.push(context.signal) }],
    });
    for (let i = 0; i < 50; i++) await drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user(`run ${i}`) }));
    expect(new Set(signals).size).toBe(50);
    expect(Math.max(...signals.map((signal) => getEventListeners(signal, 'abort').length))).toBe(1);
  });

  it("the caller's signal still aborts a running tool, and its listener is removed when the run ends", async () => {
    let toolStarted!: () => void;
    const started = new Promise<void>((resolve) => (toolStarted = resolve));
    let sawAbort = false;
    @Toolset()
    class SlowTools {
      @Tool({ description: 'Waits until aborted.' })
      wait(ctx: ToolContext) {
        toolStarted();
        return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ aborted: (sawAbort = true) })));
      }
    }
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel([{ calls: [{ id: 'w', name: 'wait', args: {} }] }]), tools: [SlowTools] }) });
    const controller = new AbortController();
    const run = drain(runner.run({ userId: 'u', sessionId: 's', newMessage: user('go'), signal: controller.signal }));
    await started;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    const events = await run;
    expect(sawAbort).toBe(true);
    expect(events.at(-1)!.errorCode).toBe('RUN_ABORTED');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);

    const quiet = new AbortController();
    await drain(new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model: new ScriptedModel(['hi']) }) }).run({ userId: 'u', sessionId: 's', newMessage: user('x'), signal: quiet.signal }));
    expect(getEventListeners(quiet.signal, 'abort')).toHaveLength(0);
  });
});
