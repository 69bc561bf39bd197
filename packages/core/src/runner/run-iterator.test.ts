import { LlmAgent } from '../agents/llm-agent';
import type { InvocationContext } from '../agents/invocation-context';
import type { Event } from '../events/event';
import type { LlmResponse } from '../model/llm-response';
import type { Model } from '../model/model';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import type { Session } from '../sessions/session';
import { ScriptedModel } from '../testing/scripted-model';
import { FnTool, user } from './__fixtures__/test-tools';
import { Runner } from './runner';

const KEY = { appName: 'app', userId: 'u1', sessionId: 's1' };

/** A runner whose model calls `note` (which logs `tool ran`) and then answers `done`, for every run. */
function noteRunner(log: string[]) {
  const sessionService = new InMemorySessionService();
  const model = new ScriptedModel((request) => (request.contents.at(-1)!.parts[0]?.functionResponse ? 'done' : { calls: [{ id: 'c1', name: 'note', args: {} }] }));
  const note = new FnTool('note', () => {
    log.push('tool ran');
    return { ok: true };
  });
  return { runner: new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [note] }), sessionService }), sessionService };
}

const run = (runner: Runner, text: string) => runner.run({ userId: 'u1', sessionId: 's1', newMessage: user(text) });

async function texts(events: AsyncIterable<Event>): Promise<string[]> {
  const out: string[] = [];
  for await (const event of events) out.push(describe_(event));
  return out;
}

/** An event in a word: its text, its calls' names, or its function responses' names. */
function describe_(event: Event): string {
  if (event.errorCode) return `error ${event.errorCode}`;
  const calls = event.functionCalls().map((c) => `call ${c.name}`);
  const responses = event.functionResponses().map((r) => {
    const error = (r.response as { error?: { code?: string } }).error;
    return error?.code ? `response ${r.name} ${error.code}` : `response ${r.name}`;
  });
  return [...calls, ...responses].join(', ') || event.text();
}

describe('the run as an async iterator', () => {
  it('overlapping next() calls are answered in order, each with the event a sequential run would give, then done', async () => {
    const { runner } = noteRunner([]);
    const sequential = await texts(run(runner, 'first'));

    const events = run(runner, 'second');
    const results = await Promise.all(Array.from({ length: sequential.length + 2 }, () => events.next()));

    expect(results.map((r) => (r.done ? 'done' : describe_(r.value)))).toEqual([...sequential, 'done', 'done']);
    expect(sequential).toEqual(['call note', 'response note', 'done']);
  });

  it('a return() that overlaps a pending next() waits for it, then ends the run: the tool never runs', async () => {
    const log: string[] = [];
    const { runner, sessionService } = noteRunner(log);
    const events = run(runner, 'hi');

    const settled: string[] = [];
    const first = events.next().then((r) => settled.push(`next: ${r.done ? 'done' : describe_(r.value)}`));
    const returned = events.return().then((r) => settled.push(`return: ${r.done ? 'done' : 'value'}`));
    await Promise.all([first, returned]);

    expect(settled).toEqual(['next: call note', 'return: done']);
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect(log).toEqual([]);
    const stored = (await sessionService.getSession(KEY))!.events;
    expect(stored.map(describe_)).toEqual(['hi', 'call note']);
  });

  it('break in for await passes the turn (and the claim) to the run waiting for it', async () => {
    const log: string[] = [];
    const { runner, sessionService } = noteRunner(log);
    let second: AsyncGenerator<Event, void, undefined> | undefined;
    let secondFirst: Promise<IteratorResult<Event, void>> | undefined;
    for await (const event of run(runner, 'first')) {
      log.push(`first run: ${describe_(event)}`);
      // The second run waits for the session's turn, which the first run holds until it is left.
      second = run(runner, 'second');
      secondFirst = second.next().then((r) => {
        log.push('second run started');
        return r;
      });
      await Promise.resolve();
      log.push('breaking');
      break;
    }
    expect(describe_((await secondFirst!).value as Event)).toBe('response note TOOL_INTERRUPTED');
    const rest = await texts(second!);

    expect(log).toEqual(['first run: call note', 'breaking', 'second run started', 'tool ran']);
    const stored = (await sessionService.getSession(KEY))!.events;
    // The call the first run left unanswered is reported interrupted before the second message.
    expect(stored.map(describe_)).toEqual(['first', 'call note', 'response note TOOL_INTERRUPTED', 'second', 'call note', 'response note', 'done']);
    expect(rest).toEqual(['call note', 'response note', 'done']);
  });

  it('throw() mid-run ends the run on an INTERNAL_ERROR event for the error, then releases the turn', async () => {
    const log: string[] = [];
    const { runner, sessionService } = noteRunner(log);
    const events = run(runner, 'hi');
    await events.next();

    const thrown = await events.throw(new Error('the caller gave up'));

    expect(thrown.done).toBe(false);
    expect(thrown.value).toMatchObject({ errorCode: 'INTERNAL_ERROR', author: 'root' });
    expect((thrown.value as Event).errorMessage).toContain('the caller gave up');
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect(log).toEqual([]);
    // The turn is free: the next run goes ahead, after the stored half of this one (its call reported interrupted).
    expect(await texts(run(runner, 'again'))).toEqual(['response note TOOL_INTERRUPTED', 'call note', 'response note', 'done']);
    expect((await sessionService.getSession(KEY))!.events.slice(0, 2).map(describe_)).toEqual(['hi', 'call note']);
  });

  it('throw() mid-run passes the turn and the claim on at once: a caller that drops the run after it holds up no one', async () => {
    const { runner, sessionService } = noteRunner([]);
    const events = run(runner, 'hi');
    await events.next();
    await events.throw(new Error('the caller gave up')); // and never calls next() again

    // Another process's claim is granted (the run released its own), and the next run here goes ahead.
    const outcome = await sessionService.claimSession({ ...KEY, holder: 'other', leaseMs: 60_000 });
    expect(outcome.claimed).toBe(true);
    if (outcome.claimed) await sessionService.releaseClaim(KEY, outcome.claim.fence);
    expect(await texts(run(runner, 'again'))).toEqual(['response note TOOL_INTERRUPTED', 'call note', 'response note', 'done']);
  });

  it('throw() after the error event, or after the end, rejects with the error; the turn is released either way', async () => {
    const { runner } = noteRunner([]);
    const events = run(runner, 'hi');
    await events.next();
    await events.throw(new Error('first'));
    await expect(events.throw(new Error('second'))).rejects.toThrow('second');
    await expect(events.throw(new Error('third'))).rejects.toThrow('third');
    expect(await texts(run(runner, 'again'))).toEqual(['response note TOOL_INTERRUPTED', 'call note', 'response note', 'done']);
  });

  it('return() or throw() before the first next() ends the run without starting it: nothing is stored, no session made', async () => {
    const log: string[] = [];
    const { runner, sessionService } = noteRunner(log);

    expect(await run(runner, 'never').return()).toEqual({ value: undefined, done: true });
    await expect(run(runner, 'never').throw(new Error('not started'))).rejects.toThrow('not started');

    expect(await sessionService.getSession(KEY)).toBeUndefined();
    expect(await texts(run(runner, 'hi'))).toEqual(['call note', 'response note', 'done']);
  });

  it('return(value) resolves { value, done: true }, as a generator does: before the first next(), mid-run and after the end', async () => {
    const { runner } = noteRunner([]);
    const value = 'left' as unknown as void;
    expect(await run(runner, 'never').return(value)).toEqual({ value: 'left', done: true });
    const events = run(runner, 'hi');
    await events.next();
    expect(await events.return(Promise.resolve(value))).toEqual({ value: 'left', done: true });
    expect(await events.return(value)).toEqual({ value: 'left', done: true });
  });

  it('return() while streaming closes the model call it reads from', async () => {
    const log: string[] = [];
    const model: Model = {
      provider: 'test',
      modelName: 'streamer',
      async *generate(): AsyncGenerator<LlmResponse> {
        try {
          yield { content: { role: 'model', parts: [{ text: 'Hel' }] }, partial: true };
          yield { content: { role: 'model', parts: [{ text: 'lo' }] }, partial: true };
          yield { content: { role: 'model', parts: [{ text: 'Hello' }] }, turnComplete: true };
        } finally {
          log.push('model closed');
        }
      },
    };
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model }) });
    const events = runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('hi'), streaming: true });
    expect((await events.next()).value).toMatchObject({ partial: true });
    log.push('returning');

    await events.return();

    expect(log).toEqual(['returning', 'model closed']);
  });

  it("an LlmAgent subclass that overrides runAsync is run through it; one that does not runs the model's loop", async () => {
    const log: string[] = [];
    class Logged extends LlmAgent {
      override async *runAsync(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
        log.push('override');
        yield* super.runAsync(context);
      }
    }
    class Plain extends LlmAgent {}
    const answer = (name: string) => new ScriptedModel([`hello from ${name}`]);
    const overridden = new Runner({ appName: 'app', agent: new Logged({ name: 'logged', model: answer('logged') }) });
    const plain = new Runner({ appName: 'app', agent: new Plain({ name: 'plain', model: answer('plain') }) });

    expect(await texts(run(overridden, 'hi'))).toEqual(['hello from logged']);
    expect(await texts(run(plain, 'hi'))).toEqual(['hello from plain']);
    expect(log).toEqual(['override']);
  });
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** `noteRunner`'s agent over `sessionService`. */
function noteRunnerOn(sessionService: InMemorySessionService, log: string[]) {
  const { runner } = noteRunner(log);
  return new Runner({ appName: 'app', agent: runner.agent, sessionService });
}

// The run goes on synchronously while nothing waits, and in a continuation of what it waits for (the
// agent's next batch, an async store): these paths behave as the synchronous one does.
describe('the run as an async iterator, over a store that waits or throws', () => {
  /** Appends that wait a step (an async store): the run waits for each before it hands the event out. */
  class WaitingStore extends InMemorySessionService {
    override async appendEvent(session: Session, event: Event): Promise<Event> {
      await Promise.resolve();
      return super.appendEvent(session, event);
    }
  }

  it('overlapping next() calls over an async store are answered in order, each event stored once before it is handed out', async () => {
    const sequentialStore = new WaitingStore();
    const sequential = await texts(run(noteRunnerOn(sequentialStore, []), 'hi'));
    const sessionService = new WaitingStore();
    const events = run(noteRunnerOn(sessionService, []), 'hi');

    const results = await Promise.all(Array.from({ length: sequential.length + 2 }, () => events.next()));

    expect(results.map((r) => (r.done ? 'done' : describe_(r.value)))).toEqual([...sequential, 'done', 'done']);
    const stored = (await sessionService.getSession(KEY))!.events;
    expect(stored.map(describe_)).toEqual(['hi', ...sequential]);
    expect(stored.slice(1).map((event) => event.id)).toEqual(results.filter((r) => !r.done).map((r) => (r.value as Event).id));
  });

  it('a return() while the run waits for an async store: the event is stored and handed out, then the run ends and passes the turn on', async () => {
    const log: string[] = [];
    const gate = deferred();
    const waiting = deferred();
    class GatedStore extends InMemorySessionService {
      appends = 0;
      override async appendEvent(session: Session, event: Event): Promise<Event> {
        // The model's call (the run's second append) waits for the gate.
        if (++this.appends === 2) {
          log.push('append waits');
          waiting.resolve();
          await gate.promise;
        }
        return super.appendEvent(session, event);
      }
    }
    const sessionService = new GatedStore();
    const runner = noteRunnerOn(sessionService, log);
    const events = run(runner, 'hi');

    const first = events.next().then((r) => log.push(`next: ${r.done ? 'done' : describe_(r.value)}`));
    const returned = events.return().then((r) => log.push(`return: ${r.done ? 'done' : 'value'}`));
    await waiting.promise;
    log.push('gate opens');
    gate.resolve();
    await Promise.all([first, returned]);

    expect(log).toEqual(['append waits', 'gate opens', 'next: call note', 'return: done']);
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect((await sessionService.getSession(KEY))!.events.map(describe_)).toEqual(['hi', 'call note']);
    // The turn is free: the next run goes ahead (the call the first run left is reported interrupted).
    expect(await texts(run(runner, 'again'))).toEqual(['response note TOOL_INTERRUPTED', 'call note', 'response note', 'done']);
  });

  describe.each(['throws', 'rejects'] as const)('a store whose append %s', (failure) => {
    /** Fails the `failing`th append: by throwing at once (a store that breaks its contract), or by rejecting. */
    function failingStore(failing: number) {
      return new (class extends InMemorySessionService {
        appends = 0;
        override appendEvent(session: Session, event: Event): Promise<Event> {
          if (++this.appends !== failing) return super.appendEvent(session, event);
          if (failure === 'throws') throw new Error('the store is down');
          return Promise.reject(new Error('the store is down'));
        }
      })();
    }

    it("on the user's message: the run yields one INTERNAL_ERROR, stores nothing, never throws and passes the turn on", async () => {
      const log: string[] = [];
      const sessionService = failingStore(1);
      const runner = noteRunnerOn(sessionService, log);

      const events = await texts(run(runner, 'hi'));

      expect(events).toEqual(['error INTERNAL_ERROR']);
      expect(log).toEqual([]);
      expect((await sessionService.getSession(KEY))!.events).toEqual([]);
      expect(await texts(run(runner, 'again'))).toEqual(['call note', 'response note', 'done']);
    });

    it("on the model's event: the run yields one INTERNAL_ERROR (stored after the message), never throws and passes the turn on", async () => {
      const log: string[] = [];
      const sessionService = failingStore(2);
      const runner = noteRunnerOn(sessionService, log);

      const events = await texts(run(runner, 'hi'));

      expect(events).toEqual(['error INTERNAL_ERROR']);
      expect(log).toEqual([]);
      expect((await sessionService.getSession(KEY))!.events.map(describe_)).toEqual(['hi', 'error INTERNAL_ERROR']);
      expect(await texts(run(runner, 'again'))).toEqual(['call note', 'response note', 'done']);
    });
  });

  // A native async generator answers overlapping next(), return() and throw() calls in the order they were made.
  const sequences = [
    ['next', 'throw', 'next', 'return', 'next'],
    ['next', 'next', 'return', 'throw', 'next'],
    ['return', 'next', 'throw', 'next'],
    ['throw', 'next', 'return'],
    ['next', 'next', 'next', 'next', 'next', 'next'],
    ['next', 'return', 'return', 'throw'],
  ];
  for (const store of ['a synchronous', 'an async'] as const) {
    for (const ops of sequences) {
      it(`overlapping ${ops.join(', ')} over ${store} store are answered in the order they were made`, async () => {
        const sessionService = store === 'an async' ? new WaitingStore() : new InMemorySessionService();
        const model = new ScriptedModel((request) => (request.contents.at(-1)!.parts[0]?.functionResponse ? 'done' : { calls: [{ id: 'c1', name: 'note', args: {} }] }));
        const note = new FnTool('note', async () => {
          await Promise.resolve();
          return { ok: true };
        });
        const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [note] }), sessionService });
        const events = run(runner, 'hi');

        const answered: number[] = [];
        await Promise.all(
          ops.map((op, index) =>
            (op === 'next' ? events.next() : op === 'return' ? events.return() : events.throw(new Error('thrown in'))).then(
              () => answered.push(index),
              () => answered.push(index),
            ),
          ),
        );

        expect(answered).toEqual(ops.map((_, index) => index));
      });
    }
  }
});
