import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { Content, EventData } from '@toolsmith/core';
import { confirmationRequests, Event } from '@toolsmith/core';
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

  constructor(url: string, schema: string) {
    this.child = fork(join(__dirname, '__fixtures__', 'session-worker.ts'), [url, schema], {
      execArgv: ['-r', join(__dirname, '__fixtures__', 'register-source.js')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let ready!: () => void;
    let inside!: () => void;
    this.ready = new Promise((resolve) => (ready = resolve));
    this.insideTool = new Promise((resolve) => (inside = resolve));
    this.child.on('message', (message: RunReply | { ready: true } | { insideTool: true }) => {
      if ('ready' in message) ready();
      else if ('insideTool' in message) inside();
      else this.pending.get(message.id)?.(message);
    });
  }

  run(command: { scenario: 'confirm' | 'count' | 'charge'; sessionId: string; message?: Content; runs?: number }): Promise<RunReply> {
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
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.exit()));
  await store.close();
  await dropSchema(server.url, schema);
  await server.stop();
});

const stored = async (sessionId: string) => (await store.getSession({ appName: 'shop', userId: 'u', sessionId }))!;

it('(a) two processes answer the same confirmation at the same moment: the tool runs exactly once', async () => {
  const paused = await a.run({ scenario: 'confirm', sessionId: 'confirm', message: user('refund 250') });
  const [request] = confirmationRequests(Event.fromJSON(paused.results[0].at(-1)!));
  const answer: Content = { role: 'user', parts: [{ functionResponse: { id: request.call.id, name: request.call.name, response: { confirmed: true } } }] };

  const [fromA, fromB] = await Promise.all([a.run({ scenario: 'confirm', sessionId: 'confirm', message: answer }), b.run({ scenario: 'confirm', sessionId: 'confirm', message: answer })]);

  expect(fromA.toolRuns + fromB.toolRuns).toBe(1);
  expect([lastOutcome(fromA.results[0]), lastOutcome(fromB.results[0])].sort()).toEqual(['FUNCTION_RESPONSE_NOT_PENDING', 'Refunded 250.']);
  const session = await stored('confirm');
  const refundResponses = session.events.flatMap((e) => e.functionResponses()).filter((r) => r.id === 'call-1');
  expect(refundResponses).toEqual([{ id: 'call-1', name: 'refund', response: { refunded: 250 } }]);
  expect(session.events.filter((e) => e.author === 'user' && e.functionResponses().length > 0)).toHaveLength(1);
}, 30_000);

it('(b) 2 processes x 10 concurrent runs on one session: no forked or interleaved history, every call answered exactly once', async () => {
  await store.createSession({ appName: 'shop', userId: 'u', sessionId: 'count', state: { 'user:count': 0 } });

  const replies = await Promise.all([a.run({ scenario: 'count', sessionId: 'count', runs: 10 }), b.run({ scenario: 'count', sessionId: 'count', runs: 10 })]);

  const outcomes = replies.flatMap((reply) => reply.results.map(lastOutcome));
  expect(outcomes).toHaveLength(20);
  // Runs of one process queue behind each other; across processes the later writer is refused.
  expect(outcomes.filter((o) => o !== 'counted' && o !== 'STALE_SESSION')).toEqual([]);
  expect(outcomes).toContain('counted');
  const session = await stored('count');
  const sequence: string[] = [];
  for (const event of session.events) if (sequence.at(-1) !== event.invocationId) sequence.push(event.invocationId);
  expect(new Set(sequence).size).toBe(sequence.length); // each invocation's events are contiguous
  const calls = session.events.flatMap((e) => e.functionCalls().map((c) => c.id));
  const answers = session.events.flatMap((e) => e.functionResponses().map((r) => r.id));
  expect([...answers].sort()).toEqual([...calls].sort()); // every stored call answered exactly once
  expect(new Set(calls).size).toBe(calls.length);
  const counted = session.events.flatMap((e) => e.functionResponses()).filter((r) => !r.isError).length;
  expect(session.state['user:count']).toBe(counted); // the counter matches the stored results, never a lost or doubled update
  expect(session.lastSequence).toBe(session.events.length);
  // Every successful run is in the history: user message, call, result, answer.
  const succeeded = outcomes.filter((o) => o === 'counted').length;
  expect(session.events.filter((e) => e.text() === 'counted')).toHaveLength(succeeded);
}, 30_000);

it('(c) a process killed (SIGKILL) inside a tool call: after a restart the call is reported as TOOL_INTERRUPTED, not re-run, nothing else lost', async () => {
  void doomed.run({ scenario: 'charge', sessionId: 'charge', message: user('charge my card') });
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
}, 30_000);
