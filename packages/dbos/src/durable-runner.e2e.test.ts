import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Content, Event, Session } from '@toolsmith/core';
import { LlmAgent, REQUEST_CONFIRMATION, Runner, confirmationRequests } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { PostgresSessionService } from '@toolsmith/postgres';
import { Client } from 'pg';
// The real test server of @toolsmith/postgres's own tests (a fixture, in no published entry point), not a copy of it.
// eslint-disable-next-line toolsmith/no-cross-package-relative -- test fixture shared with packages/postgres; not public API
import { type TestPostgres, dropSchema, startTestPostgres, uniqueSchema } from '../../postgres/src/__fixtures__/test-postgres';
import type { DurableRunResult } from './durable-runner';
import type { WorkerCommand, WorkerReport } from './__fixtures__/durable-worker';

// Workers are real OS processes (DBOS launched in each, one executor id each) on one real PostgreSQL
// server. A worker is killed (SIGKILL) at a barrier it reports (inside a model call or a tool call),
// started again with the same executor id, and DBOS recovers its runs there.

const modelCalls = new Map<string, number>();
const toolRuns = new Map<string, string[]>();
/** The executor ids of the workers each tool call ran on. */
const ranOn = new Map<string, string[]>();
/** Barriers a worker is killed at (by name); every other barrier is released at once, but those in `holdAt`. */
const killAt = new Set<string>();
/** Barriers held until the test releases them: name → resolves with the release function once reached. */
const holdAt = new Map<string, (release: () => void) => void>();

class Worker {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  private nextId = 0;
  private readonly replies = new Map<number, (reply: WorkerReport) => void>();
  private killed?: () => void;
  /** Resolves when this worker was killed at one of the barriers in `killAt`. */
  readonly killedAtBarrier = new Promise<void>((resolve) => (this.killed = resolve));

  constructor(readonly executorId: string) {
    this.child = fork(join(__dirname, '__fixtures__', 'durable-worker.ts'), [server.url, schema, dbosSchema, executorId, artifactDir], {
      execArgv: ['-r', join(__dirname, '__fixtures__', 'register-esbuild.js')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    let ready!: () => void;
    this.ready = new Promise((resolve) => (ready = resolve));
    this.child.on('message', (report: WorkerReport) => {
      if ('ready' in report) ready();
      else if ('modelCall' in report) modelCalls.set(report.modelCall, (modelCalls.get(report.modelCall) ?? 0) + 1);
      else if ('toolRun' in report) {
        toolRuns.set(report.toolRun, [...(toolRuns.get(report.toolRun) ?? []), report.key]);
        ranOn.set(report.toolRun, [...(ranOn.get(report.toolRun) ?? []), executorId]);
      }
      else if ('barrier' in report) {
        if (killAt.delete(report.barrier)) {
          this.child.kill('SIGKILL');
          void this.exited.then(() => this.killed!());
        } else if (holdAt.has(report.barrier)) {
          holdAt.get(report.barrier)!(() => this.send({ release: report.release }));
          holdAt.delete(report.barrier);
        } else this.send({ release: report.release });
      } else this.replies.get(report.id)?.(report);
    });
  }

  private send(command: WorkerCommand): void {
    this.child.send(command);
  }

  private request(command: Record<string, unknown>): Promise<WorkerReport> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.replies.set(id, resolve);
      this.send({ id, ...command } as WorkerCommand);
    });
  }

  /** Starts a run of message `name` (its text, or `newMessage`) in `sessionId`; resolves to its workflow id once started. */
  async start(sessionId: string, name: string, newMessage: Content = { role: 'user', parts: [{ text: name }] }): Promise<string> {
    const reply = await this.request({ start: { userId: 'u', sessionId, messageId: name, newMessage } });
    return (reply as { workflowId: string }).workflowId;
  }

  /** Puts a run of message `name` on run queue `queue`; resolves to its workflow id. */
  async enqueue(sessionId: string, name: string, queue = 'runs'): Promise<string> {
    const reply = await this.request({ queue, enqueue: { userId: 'u', sessionId, messageId: name, newMessage: { role: 'user', parts: [{ text: name }] } } });
    return (reply as { workflowId: string }).workflowId;
  }

  /** The workflow's DBOS status (`ENQUEUED`, `PENDING`, `SUCCESS`, …). */
  async status(workflowId: string): Promise<string | undefined> {
    return ((await this.request({ status: workflowId })) as { status?: string }).status;
  }

  /** Takes over the runs of dead worker `executorId` (waits until it is dead); resolves to their workflow ids. */
  async takeOver(executorId: string): Promise<string[]> {
    return ((await this.request({ takeOver: executorId })) as { taken: string[] }).taken;
  }

  /** Takes over the runs of every dead worker; resolves to their workflow ids. */
  async takeOverDead(): Promise<string[]> {
    return ((await this.request({ takeOverDead: true })) as { taken: string[] }).taken;
  }

  /** The call ids the paused run of workflow `workflowId` waits for, once it published them (its DBOS event). */
  async waiting(workflowId: string): Promise<string[] | null> {
    return ((await this.request({ waiting: workflowId })) as { waitingFor: string[] | null }).waitingFor;
  }

  /** Kills the process (SIGKILL); resolves once it exited. */
  kill(): Promise<void> {
    this.child.kill('SIGKILL');
    return this.exited;
  }

  /** What the workflow came to (waited for in this worker). */
  async result(workflowId: string): Promise<DurableRunResult> {
    return ((await this.request({ await: workflowId })) as { result: DurableRunResult }).result;
  }

  exit(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    this.send('exit');
    return this.exited;
  }
}

let server: TestPostgres;
const schema = uniqueSchema('durable');
const dbosSchema = uniqueSchema('dbos');
const artifactDir = mkdtempSync(join(tmpdir(), 'toolsmith-durable-artifacts-'));
let store: PostgresSessionService;
const workers: Worker[] = [];
let a: Worker;
let b: Worker;
let c: Worker;

async function startWorker(executorId: string): Promise<Worker> {
  const worker = new Worker(executorId);
  workers.push(worker);
  await worker.ready;
  return worker;
}

beforeAll(async () => {
  server = await startTestPostgres();
  store = new PostgresSessionService({ connectionString: server.url, schema });
  await store.migrate();
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.exit()));
  await store.close();
  await dropSchema(server.url, schema);
  await dropSchema(server.url, dbosSchema);
  await server.stop();
  rmSync(artifactDir, { recursive: true, force: true });
}, 60_000);

const stored = async (sessionId: string): Promise<Session> => (await store.getSession({ appName: 'shop', userId: 'u', sessionId }))!;

/** The stored run of message `name`: its events as [author, what], each call answered exactly once. */
async function storedRun(sessionId: string): Promise<string[][]> {
  const session = await stored(sessionId);
  const calls = session.events.flatMap((e) => e.functionCalls().map((c) => c.id));
  const answers = session.events.flatMap((e) => e.functionResponses().map((r) => r.id));
  expect([...answers].sort()).toEqual([...calls].sort());
  return session.events.map((e) => [
    e.author,
    e.text() || e.functionCalls().map((c) => c.id).join() || e.functionResponses().map((r) => (r.isError ? (r.response.error as { code: string }).code : JSON.stringify(r.response))).join(),
  ]);
}

const completedRun = (name: string, charge = '{"charged":true}') => [
  ['user', name],
  ['cashier', `${name}-charge`],
  ['cashier', charge],
  ['cashier', `${name}-reserve`],
  ['cashier', '{"reserved":true}'],
  ['cashier', `done ${name}`],
];

it('2 workers, 4 runs (one started twice), each worker SIGKILLed inside a tool call and restarted: every run completes once, no completed model call is made again, the cut-off charge is TOOL_INTERRUPTED and never re-run, the idempotent reservation is re-run with the same key', async () => {
  a = await startWorker('a');
  b = await startWorker('b');
  // r1 and r3 run to their end first: when a worker dies, only the run it is killed in is in flight.
  const r1 = await a.start('s1', 'r1');
  expect((await Promise.all([a.result(r1), b.result(await b.start('s3', 'r3'))])).map((r) => r.text)).toEqual(['done r1', 'done r3']);
  // The same message started again, on the other worker: the same workflow, nothing run again.
  expect(await b.start('s1', 'r1')).toBe(r1);
  expect((await b.result(r1)).text).toBe('done r1');
  killAt.add('tool:r2-charge'); // a dies inside the non-idempotent charge of r2
  killAt.add('tool:r4-reserve'); // b dies inside the idempotent reservation of r4
  const [r2, r4] = await Promise.all([a.start('s2', 'r2'), b.start('s4', 'r4')]);
  await Promise.all([a.killedAtBarrier, b.killedAtBarrier]);
  [a, b] = await Promise.all([startWorker('a'), startWorker('b')]); // DBOS's tables exist by now: the two may launch together
  const results = await Promise.all([a.result(r2), b.result(r4)]);
  expect(results.map((r) => [r.text, r.error])).toEqual([
    ['done r2', undefined],
    ['done r4', undefined],
  ]);
  expect(await storedRun('s1')).toEqual(completedRun('r1'));
  expect(await storedRun('s2')).toEqual(completedRun('r2', 'TOOL_INTERRUPTED'));
  expect(await storedRun('s3')).toEqual(completedRun('r3'));
  expect(await storedRun('s4')).toEqual(completedRun('r4'));
  // A recovered run goes on under the run's invocation id: one message's events share it, before and after the kill,
  // and the workflow's result names it; so sending the message again (to a plain Runner on the store) yields them all.
  for (const [sessionId, result] of [['s2', results[0]], ['s4', results[1]]] as const) {
    expect([...new Set((await stored(sessionId)).events.map((e) => e.invocationId))]).toEqual([result.invocationId]);
  }
  const plain = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'cashier', model: new ScriptedModel(() => 'not run') }), sessionService: store });
  const resent: Event[] = [];
  for await (const event of plain.run({ userId: 'u', sessionId: 's2', messageId: 'r2', newMessage: { role: 'user', parts: [{ text: 'r2' }] } })) resent.push(event);
  expect(resent.map((e) => e.id)).toEqual((await stored('s2')).events.slice(1).map((e) => e.id));
  // Each model call that completed was made once, counted on the model's side across both processes.
  for (const name of ['r1', 'r2', 'r3', 'r4']) for (const step of [0, 1, 2]) expect([`model:${name}:${step}`, modelCalls.get(`model:${name}:${step}`)]).toEqual([`model:${name}:${step}`, 1]);
  // The non-idempotent charges ran once each (r2's was cut off and not retried).
  for (const name of ['r1', 'r2', 'r3', 'r4']) expect(toolRuns.get(`charge:${name}-charge`)).toHaveLength(1);
  // The idempotent reservation cut off in r4 ran again, with the same idempotency key; the others once.
  for (const name of ['r1', 'r2', 'r3']) expect(toolRuns.get(`reserve:${name}-reserve`)).toHaveLength(1);
  const [first, again] = toolRuns.get('reserve:r4-reserve')!;
  expect(again).toBe(first);
  expect(toolRuns.get('reserve:r4-reserve')).toHaveLength(2);
}, 120_000);

it('a worker SIGKILLed after the store took an event but before DBOS recorded that step: the recovered run finds the event stored, stores it once, and goes on', async () => {
  killAt.add('stored:r5-charge'); // the model's call event is in the session, its append step not recorded
  const r5 = await a.start('s5', 'r5');
  await a.killedAtBarrier;
  a = await startWorker('a');

  expect((await a.result(r5)).text).toBe('done r5');
  expect(await storedRun('s5')).toEqual(completedRun('r5'));
  for (const step of [0, 1, 2]) expect(modelCalls.get(`model:r5:${step}`)).toBe(1);
  expect(toolRuns.get('charge:r5-charge')).toHaveLength(1);
  expect(toolRuns.get('reserve:r5-reserve')).toHaveLength(1);
}, 60_000);

it('a run cut off inside a tool call, then a newer message of its session run on another worker: the recovered run ends RUN_SUPERSEDED, its error stored after the newer run with its own invocation id, and no later model call of it is made', async () => {
  a ??= await startWorker('a'); // when run alone
  b ??= await startWorker('b');
  killAt.add('tool:x1-charge');
  const x1 = await a.start('sx', 'x1');
  await a.killedAtBarrier;
  // The newer message waits for the dead run's claim to lapse, answers its cut-off charge TOOL_INTERRUPTED, and runs.
  expect((await b.result(await b.start('sx', 'x2'))).text).toBe('done x2');
  a = await startWorker('a');

  const superseded = await a.result(x1);
  expect([superseded.text, superseded.error?.code]).toEqual(['', 'RUN_SUPERSEDED']);
  const events = (await stored('sx')).events;
  const x2Events = events.filter((e) => e.invocationId !== superseded.invocationId);
  expect(events.filter((e) => e.invocationId === superseded.invocationId).map((e) => e.errorCode ?? (e.text() || e.functionCalls().map((c) => c.id).join()))).toEqual(['x1', 'x1-charge', 'RUN_SUPERSEDED']);
  expect(events.at(-1)!.errorCode).toBe('RUN_SUPERSEDED'); // after the newer run's answer
  expect(x2Events.map((e) => e.text() || e.functionCalls().map((c) => c.id).join() || e.functionResponses().map((r) => `${r.id} ${(r.response.error as { code?: string } | undefined)?.code ?? ''}`).join())).toEqual(
    ['x1-charge TOOL_INTERRUPTED', 'x2', 'x2-charge', 'x2-charge ', 'x2-reserve', 'x2-reserve ', 'done x2'],
  );
  expect(modelCalls.get('model:x1:1')).toBeUndefined(); // the recovered run made no model call after the newer message
  expect(toolRuns.get('charge:x1-charge')).toHaveLength(1);
}, 60_000);

/** The answer approving the one confirmation request the session's run paused on. */
async function approval(sessionId: string): Promise<Content> {
  const requests = (await stored(sessionId)).events.flatMap((event) => confirmationRequests(event));
  expect(requests).toHaveLength(1);
  return { role: 'user', parts: [{ functionResponse: { id: requests[0].call.id, name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] };
}

it('a run paused for approval waits for the answer in its workflow; the answer given on the other worker reaches it there, and the approved tool runs once', async () => {
  const paused = await a.start('s6', 'approve-1');
  const waitingFor = await b.waiting(paused); // published once the pause is stored
  const answer = await approval('s6');
  expect(waitingFor).toEqual([answer.parts[0].functionResponse!.id]);

  expect(await b.start('s6', 'approve-1-answer', answer)).toBe(paused); // sent to the waiting run
  const answered = await b.result(paused);

  expect([answered.text, answered.confirmationIds]).toEqual(['done approve-1', []]);
  expect(ranOn.get('refund:approve-1-refund')).toEqual(['a']);
  const events = (await stored('s6')).events;
  expect(events.map((e) => e.author)).toEqual(['user', 'cashier', 'cashier', 'user', 'cashier', 'cashier']);
  expect(events.at(-1)!.text()).toBe('done approve-1');
  // The same answer given again (same message id) once the run ended: a run that finds it stored and runs nothing.
  expect((await a.result(await a.start('s6', 'approve-1-answer', answer))).text).toBe('done approve-1');
  expect(toolRuns.get('refund:approve-1-refund')).toHaveLength(1);
}, 60_000);

it('runs on a queue partitioned by session: a second run of a session waits, enqueued, while the first is held, though a later run of another session ran meanwhile; the same message enqueued twice is one run', async () => {
  const held = new Promise<() => void>((resolve) => holdAt.set('tool:q1-charge', resolve));
  const q1 = await a.enqueue('sq', 'q1');
  const release = await held; // q1 is inside its charge, on whichever worker dequeued it
  const q2 = await b.enqueue('sq', 'q2');
  expect(await a.enqueue('sq', 'q2')).toBe(q2);
  const q3 = await b.enqueue('other', 'q3');
  expect((await b.result(q3)).text).toBe('done q3'); // dequeued after q2 was enqueued

  expect(await a.status(q2)).toBe('ENQUEUED'); // its session's run q1 still runs
  release();

  expect([(await a.result(q1)).text, (await b.result(q2)).text]).toEqual(['done q1', 'done q2']);
  expect(await storedRun('sq')).toEqual([...completedRun('q1'), ...completedRun('q2')]);
  for (const name of ['q1', 'q2']) expect(toolRuns.get(`charge:${name}-charge`)).toHaveLength(1);
}, 60_000);

it('a worker SIGKILLed inside a tool call and not restarted: a live worker takes its run over, which goes on from its record on a live worker', async () => {
  c = await startWorker('c');
  killAt.add('tool:r7-reserve'); // a dies inside the idempotent reservation of r7, its charge recorded
  const r7 = await a.start('s7', 'r7');
  await a.killedAtBarrier;

  // Both live workers take a over at once: its lock lets one at a time, the second finds nothing left.
  expect((await Promise.all([b.takeOver('a'), c.takeOver('a')])).flat()).toEqual([r7]);

  expect((await b.result(r7)).text).toBe('done r7');
  expect(await storedRun('s7')).toEqual(completedRun('r7'));
  for (const step of [0, 1, 2]) expect(modelCalls.get(`model:r7:${step}`)).toBe(1);
  expect(toolRuns.get('charge:r7-charge')).toHaveLength(1);
  const [first, again] = toolRuns.get('reserve:r7-reserve')!;
  expect(again).toBe(first);
  expect(ranOn.get('reserve:r7-reserve')![0]).toBe('a');
  expect(['b', 'c']).toContain(ranOn.get('reserve:r7-reserve')![1]);
  // Started again with its id, a finds nothing left to run.
  a = await startWorker('a');
  expect(await c.takeOver('c')).toEqual([]);
}, 60_000);

it('a worker SIGKILLed while its run waits for an approval, and not restarted: a live worker takes the wait over, the answer given on another reaches it, the run completes, and no completed model call is made again', async () => {
  const paused = await a.start('s8', 'approve-2');
  expect(await b.waiting(paused)).toHaveLength(1); // a holds the run in its wait
  const answer = await approval('s8');
  await a.kill();
  expect(await c.takeOver('a')).toEqual([paused]);
  expect(await b.start('s8', 'approve-2-answer', answer)).toBe(paused);

  expect((await b.result(paused)).text).toBe('done approve-2');
  expect([modelCalls.get('model:approve-2:0'), modelCalls.get('model:approve-2:1')]).toEqual([1, 1]);
  expect(toolRuns.get('refund:approve-2-refund')).toHaveLength(1);
  expect(['b', 'c']).toContain(ranOn.get('refund:approve-2-refund')![0]);
  expect((await stored('s8')).events.at(-1)!.text()).toBe('done approve-2');
  a = await startWorker('a');
}, 60_000);

it('a long-running tool call: the run waits for its update in its workflow; the update given on another worker reaches it and the run completes', async () => {
  a ??= await startWorker('a'); // when run alone
  b ??= await startWorker('b');
  const waiting = await a.start('s9', 'ship-1');
  expect(await b.waiting(waiting)).toEqual(['ship-1-ship']);
  const update: Content = { role: 'user', parts: [{ functionResponse: { id: 'ship-1-ship', name: 'ship', response: { status: 'shipped' } } }] };

  expect(await b.start('s9', 'ship-1-update', update)).toBe(waiting);

  expect((await b.result(waiting)).text).toBe('done ship-1');
  expect(toolRuns.get('ship:ship-1-ship')).toHaveLength(1);
  expect([...modelCalls].filter(([step]) => step.startsWith('model:ship-1:'))).toEqual([
    ['model:ship-1:0', 1],
    ['model:ship-1:1', 1],
  ]);
  expect((await stored('s9')).events.map((e) => e.author)).toEqual(['user', 'cashier', 'cashier', 'user', 'cashier']);
}, 60_000);

it('a worker whose liveness connection is ended from the server exits (code 70): others may take its runs over now', async () => {
  const d = await startWorker('d');
  const exitCode = new Promise<number | null>((resolve) => d.child.once('exit', (code) => resolve(code)));
  const admin = new Client({ connectionString: server.url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: boolean }>(`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'toolsmith-worker:d'`);
    expect(rows).toEqual([{ ended: true }]);
  } finally {
    await admin.end();
  }
  expect(await exitCode).toBe(70);
}, 60_000);

/**
 * Holds the charge of each of the runs `names` as it is reached; `reached(n)` resolves once n of them
 * are held, to their names in the order they came, and `release(name)` lets one go on.
 */
function holdCharges(names: string[]) {
  const held: string[] = [];
  const releases = new Map<string, () => void>();
  const waiters: Array<[number, () => void]> = [];
  for (const name of names)
    holdAt.set(`tool:${name}-charge`, (release) => {
      held.push(name);
      releases.set(name, release);
      for (const [count, wake] of waiters) if (held.length >= count) wake();
    });
  return {
    reached: (count: number) => new Promise<string[]>((resolve) => (held.length >= count ? resolve([...held]) : waiters.push([count, () => resolve([...held])]))),
    release: (name: string) => releases.get(name)!(),
  };
}

/** A run on queue "runs" (no limit but the session's), done: the workers' queue loops ran since whatever came before. */
async function laterRunDone(name: string, on = b): Promise<void> {
  expect((await on.result(await on.enqueue(`later-${name}`, name))).text).toBe(`done ${name}`);
}

it('queue limit workerConcurrency 1, three live workers, four runs of four sessions: three run at once, one on each worker, and the fourth stays enqueued until one of them is done', async () => {
  const names = ['w1', 'w2', 'w3', 'w4'];
  const charges = holdCharges(names);
  const ids = await Promise.all(names.map((name, i) => [a, b, c][i % 3].enqueue(`s-${name}`, name, 'one-per-worker')));
  const first = await charges.reached(3);
  expect(first.map((name) => ranOn.get(`charge:${name}-charge`)![0]).sort()).toEqual(['a', 'b', 'c']);
  await laterRunDone('l1');
  const [fourth] = names.filter((name) => !first.includes(name));
  expect(await a.status(ids[names.indexOf(fourth)])).toBe('ENQUEUED');

  charges.release(first[0]);
  expect(await charges.reached(4)).toContain(fourth);
  expect(ranOn.get(`charge:${fourth}-charge`)).toEqual(ranOn.get(`charge:${first[0]}-charge`)); // on the worker that had room
  for (const name of first.slice(1)) charges.release(name);
  charges.release(fourth);
  expect((await Promise.all(ids.map((id) => a.result(id)))).map((r) => r.text)).toEqual(names.map((name) => `done ${name}`));
}, 60_000);

it('queue limit globalConcurrency 1: of two runs of two sessions enqueued on two workers, one runs while the other stays enqueued, then the other', async () => {
  const charges = holdCharges(['g1', 'g2']);
  const ids = await Promise.all([a.enqueue('s-g1', 'g1', 'one-at-a-time'), b.enqueue('s-g2', 'g2', 'one-at-a-time')]);
  const [first] = await charges.reached(1);
  await laterRunDone('l2');
  const other = first === 'g1' ? 'g2' : 'g1';
  expect(await a.status(ids[other === 'g1' ? 0 : 1])).toBe('ENQUEUED');

  charges.release(first);
  expect(await charges.reached(2)).toEqual([first, other]);
  charges.release(other);
  expect((await Promise.all(ids.map((id) => b.result(id)))).map((r) => r.text)).toEqual(['done g1', 'done g2']);
}, 60_000);

it('queue limit rateLimit 1 run an hour: of two runs enqueued, one runs to its end and the other stays enqueued', async () => {
  const ids = await Promise.all([a.enqueue('s-h1', 'h1', 'one-an-hour'), b.enqueue('s-h2', 'h2', 'one-an-hour')]);
  const done = await Promise.race(ids.map((id) => a.result(id).then(() => id)));
  await laterRunDone('l3');
  expect(await a.status(ids.find((id) => id !== done)!)).toBe('ENQUEUED');
}, 60_000);

it('large step outputs (a 10 000-character tool result, a long answer) are saved as artifacts and recorded as references; a worker killed after they were recorded replays them from the artifacts', async () => {
  const callStored = new Promise<() => void>((resolve) => holdAt.set('stored:bulk-1-export', resolve));
  const run = await a.start('s10', 'bulk-1');
  const release = await callStored; // the model's call is stored
  killAt.add('stored:bulk-1-export'); // the next: the export's result step recorded, its response stored
  release();
  await a.killedAtBarrier;
  a = await startWorker('a');

  const { text } = await a.result(run);
  expect(text).toBe(`done bulk-1 10000 ${'y'.repeat(3_000)}`);
  expect(toolRuns.get('export:bulk-1-export')).toHaveLength(1);
  expect([modelCalls.get('model:bulk-1:0'), modelCalls.get('model:bulk-1:1')]).toEqual([1, 1]);
  // What DBOS recorded of the export's result and of the long answer: references, not the payloads.
  const admin = new Client({ connectionString: server.url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ name: string; output: string }>(
      `SELECT function_name AS name, output FROM "${dbosSchema}".operation_outputs WHERE workflow_uuid = $1 AND function_name IN ('toolsmith.tool.result', 'toolsmith.model') ORDER BY function_id`,
      [run],
    );
    expect(rows.map((row) => [row.name, row.output.includes('"artifact"'), row.output.length < 500])).toEqual([
      ['toolsmith.model', false, true],
      ['toolsmith.tool.result', true, true],
      ['toolsmith.model', true, true],
    ]);
  } finally {
    await admin.end();
  }
}, 60_000);

/** Resolves once the server has no connection of worker `executorId`'s lock left (its process is gone). */
async function lockReleased(executorId: string): Promise<void> {
  const admin = new Client({ connectionString: server.url });
  await admin.connect();
  try {
    // Polls a condition (the server noticing the closed socket), not a duration.
    while ((await admin.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1`, [`toolsmith-worker:${executorId}`])).rows.length > 0)
      await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    await admin.end();
  }
}

it('a worker SIGKILLed inside a queued run, not restarted: takeOverDead() on two live workers at once puts the run back on its queue once, with its session partition: the session\'s next run stays enqueued until the taken-over run is done', async () => {
  killAt.add('tool:t1-charge'); // whichever worker dequeues t1 dies inside its charge
  const t1 = await a.enqueue('st', 't1');
  const dead = await Promise.race([a, b, c].map((worker) => worker.killedAtBarrier.then(() => worker)));
  const live = [a, b, c].filter((worker) => worker !== dead);
  const t2 = await live[0].enqueue('st', 't2'); // the session's next run
  const held = new Promise<() => void>((resolve) => holdAt.set('tool:t1-reserve', resolve));
  await lockReleased(dead.executorId);

  expect((await Promise.all(live.map((worker) => worker.takeOverDead()))).flat()).toEqual([t1]);
  const release = await held; // t1 goes on from its record on a live worker: its reservation is held
  await laterRunDone('l4', live[0]);
  expect(await live[1].status(t2)).toBe('ENQUEUED'); // t1 holds the session's partition
  release();

  expect([(await live[0].result(t1)).text, (await live[1].result(t2)).text]).toEqual(['done t1', 'done t2']);
  expect(await storedRun('st')).toEqual([...completedRun('t1', 'TOOL_INTERRUPTED'), ...completedRun('t2')]);
  expect(toolRuns.get('charge:t1-charge')).toHaveLength(1);
  expect(ranOn.get('reserve:t1-reserve')).toHaveLength(1);
  expect(live.map((worker) => worker.executorId)).toContain(ranOn.get('reserve:t1-reserve')![0]);
  for (const step of [0, 1, 2]) expect(modelCalls.get(`model:t1:${step}`)).toBe(1);
}, 60_000);
