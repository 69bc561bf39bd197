import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { Content, EventData, SessionClaimPolicy } from '@toolsmith/core';
import { confirmationRequests, confirmationResponse, Event, type Session } from '@toolsmith/core';
import { PostgresSessionService } from './postgres-session-service';
import type { TestPostgres } from './__fixtures__/test-postgres';
import { dropSchema, startTestPostgres, uniqueSchema } from './__fixtures__/test-postgres';

// Real OS processes (each its own pool of connections) running runners on one real PostgreSQL server.

interface RunReply {
  id: number;
  results: EventData[][];
  toolRuns: number;
}

/** One child process running `__fixtures__/session-worker.ts`. */
class Worker {
  readonly child: ChildProcess;
  private nextId = 0;
  private readonly pending = new Map<number, (reply: RunReply) => void>();
  readonly ready: Promise<void>;
  /** Resolves when the child says it is inside a tool (the charge scenario). */
  readonly insideTool: Promise<void>;
  /** How many times the child said it is inside a tool; `onInside` hears each. */
  insideCount = 0;
  onInside?: () => void;

  constructor(url: string, schema: string) {
    this.child = fork(join(__dirname, '__fixtures__', 'session-worker.ts'), [url, schema], {
      execArgv: ['-r', join(__dirname, '__fixtures__', 'register-esbuild.js')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let ready!: () => void;
    let inside!: () => void;
    this.ready = new Promise((resolve) => (ready = resolve));
    this.insideTool = new Promise((resolve) => (inside = resolve));
    this.child.on('message', (message: RunReply | { ready: true } | { insideTool: true }) => {
      if ('ready' in message) ready();
      else if ('insideTool' in message) {
        this.insideCount++;
        inside();
        this.onInside?.();
      }
      else this.pending.get(message.id)?.(message);
    });
  }

  /** Lets every booking tool waiting in the worker return. */
  releaseBookings(): void {
    this.child.send('release-bookings');
  }

  /** Lets the worker's slow tool return. */
  finishSlowTool(): void {
    this.child.send('finish');
  }

  run(command: { scenario: 'confirm' | 'count' | 'charge' | 'slow' | 'tally' | 'book'; sessionId: string; message?: Content; runs?: number; sessionClaim?: SessionClaimPolicy }): Promise<RunReply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.send({ id, ...command });
    });
  }

  exit(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.send('exit');
    });
  }
}

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const lastOutcome = (events: EventData[]) => events.at(-1)!.errorCode ?? Event.fromJSON(events.at(-1)!).text();

let server: TestPostgres;
const schema = uniqueSchema('multi');
let store: PostgresSessionService;
const workers: Worker[] = [];
// Three processes for the whole file (each costs a Node + ts-node start): a and b race in (a) and
// (b); `doomed` is killed in (c), and a, which never touched that session, is the restarted process.
let a: Worker;
let b: Worker;
let doomed: Worker;

beforeAll(async () => {
  server = await startTestPostgres();
  store = new PostgresSessionService({ connectionString: server.url, schema });
  await store.migrate();
  workers.push((a = new Worker(server.url, schema)), (b = new Worker(server.url, schema)), (doomed = new Worker(server.url, schema)));
  await Promise.all(workers.map((worker) => worker.ready));
}, 180_000); // three Node + ts-node starts and a server start, on a busy machine

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.exit()));
  await store.close();
  await dropSchema(server.url, schema);
  await server.stop();
});

const stored = async (sessionId: string) => (await store.getSession({ appName: 'shop', userId: 'u', sessionId }))!;

/** Every stored invocation whole: its events contiguous, and a counting run's four events all there. */
function expectWholeRuns(session: Session): void {
  const order: string[] = [];
  for (const event of session.events) if (order.at(-1) !== event.invocationId) order.push(event.invocationId);
  expect(new Set(order).size).toBe(order.length); // each invocation's events are contiguous
  for (const id of order) {
    const events = session.events.filter((e) => e.invocationId === id);
    expect(events.map((e) => e.author)).toEqual(['user', 'counter', 'counter', 'counter']); // message, call, result, answer: zero partial runs
    expect(events.at(-1)!.text()).toBe('counted');
  }
  const calls = session.events.flatMap((e) => e.functionCalls().map((c) => c.id));
  const answers = session.events.flatMap((e) => e.functionResponses().map((r) => r.id));
  expect([...answers].sort()).toEqual([...calls].sort()); // every stored call answered exactly once
  expect(session.lastSequence).toBe(session.events.length);
}

it('(a) two processes approve the same request at the same moment, 10 rounds: the tool runs once, the approving run returns its result, the refusal stores nothing', async () => {
  for (let round = 0; round < 10; round++) {
    const sessionId = `confirm-${round}`;
    const paused = await a.run({ scenario: 'confirm', sessionId, message: user('refund 250') });
    const [request] = confirmationRequests(Event.fromJSON(paused.results[0].at(-1)!));
    const answer: Content = { role: 'user', parts: [{ functionResponse: { id: request.call.id, name: request.call.name, response: { confirmed: true } } }] };

    const [fromA, fromB] = await Promise.all([a.run({ scenario: 'confirm', sessionId, message: answer }), b.run({ scenario: 'confirm', sessionId, message: answer })]);

    expect(fromA.toolRuns + fromB.toolRuns).toBe(1);
    expect([lastOutcome(fromA.results[0]), lastOutcome(fromB.results[0])].sort()).toEqual(['FUNCTION_RESPONSE_NOT_PENDING', 'Refunded 250.']);
    const session = await stored(sessionId);
    const refundResponses = session.events.flatMap((e) => e.functionResponses()).filter((r) => r.id === 'call-1');
    expect(refundResponses).toEqual([{ id: 'call-1', name: 'refund', response: { refunded: 250 } }]);
    expect(session.events.filter((e) => e.author === 'user' && e.functionResponses().length > 0)).toHaveLength(1);
    expect(session.events.filter((e) => e.errorCode)).toEqual([]);
    expect(session.events.at(-1)!.text()).toBe('Refunded 250.');
  }
}, 120_000);

it('(a) two processes answer the same request with different edits at the same moment, 3 rounds: the tool runs once with the winner\'s arguments, the other answer is refused and stores nothing', async () => {
  for (let round = 0; round < 3; round++) {
    const sessionId = `edit-${round}`;
    const paused = await a.run({ scenario: 'confirm', sessionId, message: user('refund 250') });
    const [request] = confirmationRequests(Event.fromJSON(paused.results[0].at(-1)!));
    const edit = (amount: number) => confirmationResponse(request, { decision: 'edit', args: { amount } });

    const [fromA, fromB] = await Promise.all([a.run({ scenario: 'confirm', sessionId, message: edit(100) }), b.run({ scenario: 'confirm', sessionId, message: edit(120) })]);

    expect(fromA.toolRuns + fromB.toolRuns).toBe(1);
    expect([lastOutcome(fromA.results[0]), lastOutcome(fromB.results[0])].sort()).toEqual(['FUNCTION_RESPONSE_NOT_PENDING', 'Refunded 250.']);
    const amount = fromA.toolRuns === 1 ? 100 : 120;
    const session = await stored(sessionId);
    const refundResponses = session.events.flatMap((e) => e.functionResponses()).filter((r) => r.id === 'call-1');
    expect(refundResponses).toEqual([
      { id: 'call-1', name: 'refund', response: { result: { refunded: amount }, argumentsEditedByUser: { amount } }, confirmation: { decision: 'edit', by: 'user', args: { amount } } },
    ]);
    expect(session.events.filter((e) => e.author === 'user' && e.functionResponses().length > 0)).toHaveLength(1);
    expect(session.events.filter((e) => e.errorCode)).toEqual([]);
  }
}, 60_000);

it('(b) 2 processes x 10 concurrent runs on one session, waiting for the session (default): every run completes, one at a time', async () => {
  await store.createSession({ appName: 'shop', userId: 'u', sessionId: 'count', state: { 'user:count': 0 } });

  const replies = await Promise.all([a.run({ scenario: 'count', sessionId: 'count', runs: 10 }), b.run({ scenario: 'count', sessionId: 'count', runs: 10 })]);

  const outcomes = replies.flatMap((reply) => reply.results.map(lastOutcome));
  expect(outcomes).toEqual(Array.from({ length: 20 }, () => 'counted'));
  const session = await stored('count');
  expectWholeRuns(session);
  expect(session.events.filter((e) => e.text() === 'counted')).toHaveLength(20);
  expect(session.state['user:count']).toBe(20); // no lost or doubled update
}, 60_000);

it('(b) 2 processes x 10 concurrent runs on one session, failing when busy: every run completes or is refused with SESSION_BUSY having stored nothing', async () => {
  await store.createSession({ appName: 'shop', userId: 'u', sessionId: 'count-fail', state: { 'user:count': 0 } });
  const sessionClaim = { onBusy: 'fail' } as const;

  const replies = await Promise.all([a.run({ scenario: 'count', sessionId: 'count-fail', runs: 10, sessionClaim }), b.run({ scenario: 'count', sessionId: 'count-fail', runs: 10, sessionClaim })]);

  const results = replies.flatMap((reply) => reply.results);
  const outcomes = results.map(lastOutcome);
  expect(outcomes.filter((o) => o !== 'counted' && o !== 'SESSION_BUSY')).toEqual([]);
  expect(outcomes).toContain('counted');
  const session = await stored('count-fail');
  expectWholeRuns(session);
  const storedInvocations = new Set(session.events.map((e) => e.invocationId));
  for (const events of results) {
    if (lastOutcome(events) === 'SESSION_BUSY') {
      expect(events).toHaveLength(1);
      expect(storedInvocations.has(events[0].invocationId)).toBe(false); // refused before it stored anything
    } else {
      expect(storedInvocations.has(events[0].invocationId)).toBe(true);
    }
  }
  const succeeded = outcomes.filter((o) => o === 'counted').length;
  expect(session.events.filter((e) => e.text() === 'counted')).toHaveLength(succeeded);
  expect(session.state['user:count']).toBe(succeeded);
}, 60_000);

it('(c) a process killed (SIGKILL) inside a tool call: once its claim lapsed the next run proceeds, reports the call as TOOL_INTERRUPTED, not re-run, nothing else lost', async () => {
  // A short lease keeps the test quick: the next run waits for it to lapse.
  void doomed.run({ scenario: 'charge', sessionId: 'charge', message: user('charge my card'), sessionClaim: { leaseMs: 1_000 } });
  await doomed.insideTool;
  const exited = new Promise((resolve) => doomed.child.once('exit', resolve));
  doomed.child.kill('SIGKILL');
  await exited;

  const before = await stored('charge');
  expect(before.events.map((e) => e.author)).toEqual(['user', 'cashier']); // the call is stored, its result never was

  const reply = await a.run({ scenario: 'charge', sessionId: 'charge', message: user('did it work?') });

  expect(reply.toolRuns).toBe(0);
  const [interrupted] = reply.results[0];
  expect(interrupted.author).toBe('cashier');
  expect(interrupted.content!.parts).toEqual([
    { functionResponse: expect.objectContaining({ id: 'charge-1', name: 'charge', isError: true, response: { error: expect.objectContaining({ code: 'TOOL_INTERRUPTED' }) } }) },
  ]);
  const after = await stored('charge');
  expect(after.events.map((e) => [e.author, e.text() || e.functionCalls().map((c) => c.id).join() || e.functionResponses().map((r) => r.response.error ? 'interrupted' : 'ok').join()])).toEqual([
    ['user', 'charge my card'],
    ['cashier', 'charge-1'],
    ['cashier', 'interrupted'],
    ['user', 'did it work?'],
    ['cashier', 'The charge may not have gone through; I did not retry it.'],
  ]);
}, 60_000);

it('(d) a slow but living holder keeps renewing its claim past its first lease: the other process waits, and nothing is reported interrupted', async () => {
  const sessionClaim = { leaseMs: 1_000 }; // the shortest a runner takes
  let slowReply: RunReply | undefined;
  const slowRun = a.run({ scenario: 'slow', sessionId: 'slow', message: user('take your time'), sessionClaim }).then((reply) => (slowReply = reply));
  await a.insideTool;
  const claim = async () => (await store.database.query<{ fence: string; expires_at: string; now: string }>({
    text: `SELECT fence, expires_at, (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now FROM "${schema}".session_claims WHERE app_name = 'shop' AND user_id = 'u' AND session_id = 'slow'`,
  }))[0];
  const first = await claim();
  const waiting = b.run({ scenario: 'slow', sessionId: 'slow', message: user('are you done?'), sessionClaim });

  // Barrier on the database's clock: read the claim until its first expiry has passed.
  let current = await claim();
  while (Number(current.now) <= Number(first.expires_at) + 600) current = await claim();
  expect(current.fence).toBe(first.fence); // still the slow holder's claim: renewed, not lapsed, not taken
  expect(Number(current.expires_at)).toBeGreaterThan(Number(first.expires_at));
  expect(slowReply).toBeUndefined();

  a.finishSlowTool();
  expect(lastOutcome((await slowRun).results[0])).toBe('Done, slowly.');
  const after = await waiting;
  expect(lastOutcome(after.results[0])).toBe('Done, slowly.');
  expect(after.toolRuns).toBe(0);
  const session = await stored('slow');
  expect(session.events.flatMap((e) => e.functionResponses())).toEqual([{ id: 'slow-1', name: 'slow', response: { done: true } }]); // never TOOL_INTERRUPTED
  expect(session.events.map((e) => e.text() || e.functionCalls().map((c) => c.id).join() || 'result')).toEqual([
    'take your time', 'slow-1', 'result', 'Done, slowly.', 'are you done?', 'Done, slowly.',
  ]);
}, 60_000);

it('(e) 2 processes x 16 runs at once, each on its own session of one user, increment app: and user: counters inside the append: none of the 32 increments is lost', async () => {
  const replies = await Promise.all([a.run({ scenario: 'tally', sessionId: 'tally', runs: 16 }), b.run({ scenario: 'tally', sessionId: 'tally', runs: 16 })]);

  expect(replies.flatMap((reply) => reply.results.map(lastOutcome))).toEqual(Array.from({ length: 32 }, () => 'tallied'));
  const sessions = await store.listSessions({ appName: 'shop', userId: 'u' });
  const tallies = sessions.filter((s) => s.id.startsWith('tally-'));
  expect(tallies).toHaveLength(32);
  expect(tallies.map((s) => [s.state['app:tally'], s.state['user:tally']])).toEqual(Array.from({ length: 32 }, () => [32, 32]));
  // Each stored step holds the value the store reached: 1 … 32, each once.
  const reached = (await Promise.all(tallies.map((s) => stored(s.id)))).flatMap((s) => s.events.flatMap((e) => (e.actions.stateOps ? [e.actions.stateDelta['app:tally']] : [])));
  expect([...reached].sort((x, y) => (x as number) - (y as number))).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
}, 60_000);

it('(f) 2 processes x 5 runs, each on its own session, book one seat with a compare-and-set after all read it free: exactly one wins, the 9 others answer STATE_CONFLICT and store nothing of their booking', async () => {
  const inside = () => a.insideCount + b.insideCount;
  const start = inside();
  const allInside = new Promise<void>((resolve) => {
    a.onInside = b.onInside = () => {
      if (inside() - start === 10) resolve();
    };
  });
  const replies = Promise.all([a.run({ scenario: 'book', sessionId: 'book', runs: 5 }), b.run({ scenario: 'book', sessionId: 'book', runs: 5 })]);
  await allInside; // every booking tool has read the seat as free
  a.onInside = b.onInside = undefined;
  a.releaseBookings();
  b.releaseBookings();
  const results = (await replies).flatMap((reply) => reply.results);

  expect(results.map(lastOutcome)).toEqual(Array.from({ length: 10 }, () => 'booking done'));
  const responses = results.map((events) => events.flatMap((e) => Event.fromJSON(e).functionResponses())[0]);
  const won = responses.filter((r) => !r.isError);
  expect(won.map((r) => r.response)).toEqual([{ booked: true }]);
  expect(responses.filter((r) => r.isError).map((r) => (r.response.error as { code: string }).code)).toEqual(Array.from({ length: 9 }, () => 'STATE_CONFLICT'));
  const winnerSession = results[responses.indexOf(won[0])][0];
  const any = await store.listSessions({ appName: 'shop', userId: 'u' });
  const booking = any.filter((s) => s.id.startsWith('book-'));
  expect(booking).toHaveLength(10);
  const seat = booking[0].state['app:seat'];
  expect(booking.every((s) => s.state['app:seat'] === seat)).toBe(true);
  const winner = await stored(seat as string);
  expect(winner.events.some((e) => e.invocationId === winnerSession.invocationId)).toBe(true);
}, 60_000);
