// The full-scale crash proof of docs/durable.md (`npm run durable-chaos -w @toolsmith/dbos`), and the
// runs/s measurement over 1, 2 and 3 workers (`-- --throughput`).
//
// Chaos: W workers (real processes of durable-worker.ts, one embedded PostgreSQL server), R runs of
// the worker's script (model → charge, not idempotent → model → reserve, idempotent → model → "done"):
// the first 12 runs two per session on the session-partitioned queue "runs", the others started, one
// session each. Every model call, tool call and stored event stops at a barrier; at each, with
// probability 1/8 while kills are left, the worker is SIGKILLed there, then (at random) started again
// with its id, or taken over by a live worker (`takeOver(id)` or `takeOverDead()`) and replaced by a
// new worker. Checked as it happens and at the end; each violation is printed, and the exit code is 1:
// - every run's workflow ends in SUCCESS with "done <run>", its events stored once, in order, with
//   the cut-off charge answered TOOL_INTERRUPTED;
// - no model call is made again once it completed (a later point of its run was reached), counted
//   here from the workers' reports per run and turn; no tool runs again once it completed;
// - the charge runs at most once per run; the reservation, if run again, with the same idempotency key;
// - two runs of one queue session never run at the same time (also after a takeover).
// Randomness is seeded (`--seed N`, printed): a failing seed replays the same decisions (the
// processes' own timing still varies).
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresSessionService } from '@toolsmith/postgres';
import { Client } from 'pg';
// eslint-disable-next-line toolsmith/no-cross-package-relative -- test fixture shared with packages/postgres; not public API
import { type TestPostgres, dropSchema, startTestPostgres, uniqueSchema } from '../../../postgres/src/__fixtures__/test-postgres';
import type { DurableRunResult } from '../durable-runner';
import type { WorkerCommand, WorkerReport } from './durable-worker';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(args[at + 1]);
};

/** mulberry32: a small seeded PRNG, so a seed replays the same decisions. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let server: TestPostgres;
const schema = uniqueSchema('chaos');
const dbosSchema = uniqueSchema('dbos');
const artifactDir = mkdtempSync(join(tmpdir(), 'toolsmith-chaos-artifacts-'));

type BarrierHandler = (worker: Worker, barrier: string, release: () => void) => void;
type ReportHandler = (worker: Worker, report: WorkerReport) => void;

class Worker {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  dead = false;
  /** Chosen to be killed (its barriers still in the pipe must not kill it twice). */
  doomed = false;
  /** Launched (DBOS recovered its runs): only such a worker is killed, so that one process runs per id. */
  launched = false;
  private nextId = 0;
  private readonly replies = new Map<number, [(reply: WorkerReport) => void, (error: Error) => void]>();

  constructor(
    readonly executorId: string,
    mode: string,
    onBarrier: BarrierHandler,
    onReport: ReportHandler,
  ) {
    this.child = fork(join(__dirname, 'durable-worker.ts'), [server.url, schema, dbosSchema, executorId, artifactDir, mode], {
      execArgv: ['-r', join(__dirname, 'register-esbuild.js')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let ready!: () => void;
    let failed!: (error: Error) => void;
    this.ready = new Promise((resolve, reject) => ((ready = resolve), (failed = reject)));
    this.ready.catch(() => undefined);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', () => {
        this.dead = true;
        const gone = new Error(`worker ${executorId} exited`);
        failed(gone);
        for (const [, reject] of this.replies.values()) reject(gone);
        this.replies.clear();
        resolve();
      }),
    );
    this.child.on('message', (report: WorkerReport) => {
      if ('ready' in report) {
        this.launched = true;
        ready();
      }
      else if ('barrier' in report) onBarrier(this, report.barrier, () => this.send({ release: report.release }));
      else if ('id' in report) {
        this.replies.get(report.id)?.[0](report);
        this.replies.delete(report.id);
      } else onReport(this, report);
    });
  }

  private send(command: WorkerCommand): void {
    if (!this.dead) this.child.send(command);
  }

  request<T>(command: Record<string, unknown>): Promise<T> {
    if (this.dead) return Promise.reject(new Error(`worker ${this.executorId} is dead`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.replies.set(id, [(reply) => resolve(reply as T), reject]);
      this.send({ id, ...command } as WorkerCommand);
    });
  }

  kill(): Promise<void> {
    this.child.kill('SIGKILL');
    return this.exited;
  }

  exit(): Promise<void> {
    if (this.dead) return Promise.resolve();
    this.child.send('exit');
    return this.exited;
  }
}

/** Polls the system database until every workflow in `ids` has ended (SUCCESS or ERROR); `false` after `timeoutMs`. */
async function allEnded(ids: string[], timeoutMs: number): Promise<boolean> {
  const admin = new Client({ connectionString: server.url });
  await admin.connect();
  try {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const { rows } = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM "${dbosSchema}".workflow_status WHERE workflow_uuid = ANY($1) AND status IN ('SUCCESS', 'ERROR')`, [ids]);
      if (Number(rows[0].n) === ids.length) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  } finally {
    await admin.end();
  }
}

/** Resolves once the server has no connection of worker `executorId`'s lock left (its process is gone). */
async function lockReleased(executorId: string): Promise<void> {
  const admin = new Client({ connectionString: server.url });
  await admin.connect();
  try {
    for (;;) {
      const { rows } = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1`, [`toolsmith-worker:${executorId}`]);
      if (rows.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await admin.end();
  }
}

const input = (sessionId: string, name: string) => ({ userId: 'u', sessionId, messageId: name, newMessage: { role: 'user', parts: [{ text: name }] } });

/** The run a barrier belongs to: model:c07:1, tool:c07-charge, stored:c07, stored:c07-reserve, stored:done c07. */
const runOf = (barrier: string): string | undefined => /^(?:model:|tool:|stored:(?:done )?)(c\d+)/.exec(barrier)?.[1];

async function chaos(): Promise<boolean> {
  const seed = option('seed', Date.now() % 1_000_000);
  const workerCount = option('workers', 3);
  const runCount = option('runs', 30);
  const killCount = option('kills', 20);
  const rand = random(seed);
  console.log(`durable-chaos: seed ${seed}, ${workerCount} workers, ${runCount} runs, ${killCount} SIGKILLs (replay: --seed ${seed})`);
  const violations: string[] = [];
  const modelCalls = new Map<string, number>();
  const toolRuns = new Map<string, string[]>();
  /** Model steps and tool calls that completed: a later point of their run was reached. */
  const completed = new Set<string>();
  const last = new Map<string, { barrier: string; released: boolean }>();
  const sessionOf = new Map<string, string>();
  /** The run of each queue session that runs now (reached a point, not yet its "done"). */
  const activeIn = new Map<string, string>();
  let killsLeft = killCount;
  let armed = false;
  const recoveries: string[] = [];
  const workers = new Set<Worker>();
  const pendingRecoveries: Array<Promise<void>> = [];
  let nextWorker = workerCount;

  const onReport: ReportHandler = (_worker, report) => {
    if ('modelCall' in report) {
      if (completed.has(report.modelCall)) violations.push(`model call ${report.modelCall} made again after it completed`);
      modelCalls.set(report.modelCall, (modelCalls.get(report.modelCall) ?? 0) + 1);
    } else if ('toolRun' in report) {
      const [tool, callId] = report.toolRun.split(':');
      if (completed.has(`tool:${callId}`)) violations.push(`tool call ${callId} run again after it completed`);
      const keys = toolRuns.get(report.toolRun) ?? [];
      if (tool === 'charge' && keys.length > 0) violations.push(`non-idempotent ${callId} ran twice`);
      if (keys.length > 0 && keys[0] !== report.key) violations.push(`idempotent ${callId} ran again with another key`);
      toolRuns.set(report.toolRun, [...keys, report.key]);
    }
  };

  const onBarrier: BarrierHandler = (worker, barrier, release) => {
    const run = runOf(barrier);
    if (run !== undefined) {
      const before = last.get(run);
      // The same point again is the call made again (it was cut off): not a completion.
      if (before?.released && before.barrier !== barrier && !before.barrier.startsWith('stored:')) completed.add(before.barrier);
      const session = sessionOf.get(run)!;
      if (session.startsWith('q')) {
        const active = activeIn.get(session);
        if (active !== undefined && active !== run) violations.push(`runs ${active} and ${run} of session ${session} ran at the same time`);
        if (barrier === `stored:done ${run}`) activeIn.delete(session);
        else activeIn.set(session, run);
      }
      const point = { barrier, released: false };
      last.set(run, point);
      if (armed && killsLeft > 0 && worker.launched && !worker.doomed && rand() < 1 / 8) {
        killsLeft--;
        worker.doomed = true;
        pendingRecoveries.push(recover(worker, barrier));
        return;
      }
      point.released = true;
    }
    release();
  };

  const startWorker = async (executorId: string): Promise<Worker> => {
    for (;;) {
      const worker = new Worker(executorId, 'barriers', onBarrier, onReport);
      workers.add(worker);
      try {
        await worker.ready;
        return worker;
      } catch {
        workers.delete(worker); // killed while it recovered its runs: start it again
      }
    }
  };

  async function recover(dead: Worker, barrier: string): Promise<void> {
    await dead.kill();
    workers.delete(dead);
    const live = [...workers].filter((w) => w.launched && !w.doomed);
    const how = live.length === 0 ? 0 : Math.floor(rand() * 3);
    const helper = live[Math.floor(rand() * live.length)];
    try {
      if (how === 1) await helper.request({ takeOver: dead.executorId });
      if (how === 2) {
        // takeOverDead skips a worker whose lock is still held: wait until the server ended its connection.
        await lockReleased(dead.executorId);
        await helper.request({ takeOverDead: true });
      }
    } catch {
      recoveries.push(`${dead.executorId} at ${barrier}: the helper died during the takeover, restarted`);
      await startWorker(dead.executorId);
      return;
    }
    if (how === 0) {
      recoveries.push(`${dead.executorId} at ${barrier}: restarted`);
      await startWorker(dead.executorId);
    } else {
      recoveries.push(`${dead.executorId} at ${barrier}: taken over by ${helper.executorId} (${how === 1 ? 'takeOver' : 'takeOverDead'})`);
      const replacement = `w${nextWorker++}`;
      await startWorker(replacement);
    }
  }

  const started = Date.now();
  // The first worker alone creates DBOS's tables (launches racing on an empty schema deadlock).
  const first = [await startWorker('w0')];
  first.push(...(await Promise.all(Array.from({ length: workerCount - 1 }, (_, i) => startWorker(`w${i + 1}`)))));
  const runs = Array.from({ length: runCount }, (_, i) => `c${String(i).padStart(2, '0')}`);
  // A queue session's second run is enqueued (on another worker) once its first is: DBOS orders a
  // partition by the enqueuing process's clock, so two runs of one session enqueued at the same time
  // on two workers have no defined order (see docs/durable.md).
  const enqueueOrStart = (run: string, i: number): Promise<string> => {
    const queued = i < 12;
    const session = queued ? `q${Math.floor(i / 2)}` : `s${run}`;
    sessionOf.set(run, session);
    const worker = first[i % workerCount];
    return worker.request<{ workflowId: string }>(queued ? { queue: 'runs', enqueue: input(session, run) } : { start: input(session, run) }).then((r) => r.workflowId);
  };
  const ids: string[] = [];
  await Promise.all(
    runs.map(async (run, i) => {
      if (i < 12 && i % 2 === 0) {
        ids[i] = await enqueueOrStart(run, i);
        if (i + 1 < runCount) ids[i + 1] = await enqueueOrStart(runs[i + 1], i + 1);
      } else if (i >= 12) ids[i] = await enqueueOrStart(run, i);
    }),
  );
  armed = true;
  const ended = await allEnded(ids, 600_000);
  for (let at = 0; at < pendingRecoveries.length; at++) await pendingRecoveries[at];
  const elapsed = (Date.now() - started) / 1000;
  if (!ended) violations.push('not every run ended within 10 minutes');

  // What every run came to, and what its session holds.
  const reader = [...workers].find((w) => !w.dead)!;
  const store = new PostgresSessionService({ connectionString: server.url, schema });
  let interrupted = 0;
  let reReserved = 0;
  const orders: string[] = [];
  try {
    for (const [i, run] of runs.entries()) {
      if (ended) {
        const result = await reader.request<{ result: DurableRunResult }>({ await: ids[i] }).then(
          (reply) => reply.result,
          (error: Error) => ({ error: error.message }),
        );
        if (!('text' in result) || result.text !== `done ${run}` || result.error) violations.push(`${run} came to ${JSON.stringify(result)}`);
      }
      for (const turn of [0, 1, 2]) if ((modelCalls.get(`model:${run}:${turn}`) ?? 0) < 1) violations.push(`model:${run}:${turn} never called`);
      if ((toolRuns.get(`reserve:${run}-reserve`)?.length ?? 0) > 1) reReserved++;
    }
    for (const session of new Set(sessionOf.values())) {
      const events = (await store.getSession({ appName: 'shop', userId: 'u', sessionId: session }))?.events ?? [];
      const shape = events.map((e) => e.text() || e.functionCalls().map((c) => c.id).join() || e.functionResponses().map((r) => (r.isError ? (r.response.error as { code: string }).code : 'ok')).join());
      const inSession = runs.filter((run) => sessionOf.get(run) === session);
      const order = inSession.length === 2 && shape[0] === inSession[1] ? [inSession[1], inSession[0]] : inSession;
      if (inSession.length === 2 && order[0] !== inSession[0]) orders.push(`${session}: ${order.join(' then ')}`);
      const expected = order.flatMap((run) => [run, `${run}-charge`, 'ok|TOOL_INTERRUPTED', `${run}-reserve`, 'ok', `done ${run}`]);
      const matches = shape.length === expected.length && expected.every((want, at) => (want === 'ok|TOOL_INTERRUPTED' ? ['ok', 'TOOL_INTERRUPTED'].includes(shape[at]) : shape[at] === want));
      if (!matches) violations.push(`session ${session} holds ${JSON.stringify(shape)}`);
      interrupted += shape.filter((what) => what === 'TOOL_INTERRUPTED').length;
    }
  } finally {
    await store.close();
    await Promise.all([...workers].map((w) => w.exit()));
  }

  const repeated = [...modelCalls.values()].reduce((sum, n) => sum + n - 1, 0);
  console.log(`kills: ${killCount - killsLeft} of ${killCount}`);
  for (const line of recoveries) console.log(`  ${line}`);
  console.log(`runs ended: ${ended ? runCount : 'not all'} of ${runCount} in ${elapsed.toFixed(1)} s`);
  console.log(`model calls: ${[...modelCalls.values()].reduce((s, n) => s + n, 0)} (${repeated} again after a kill cut them off before they completed)`);
  console.log(`charges answered TOOL_INTERRUPTED: ${interrupted}; reservations run again with the same key: ${reReserved}`);
  if (orders.length > 0) console.log(`queue sessions whose second run ran first (its first was not yet dequeued): ${orders.join('; ')}`);
  if (killsLeft > 0) violations.push(`only ${killCount - killsLeft} of ${killCount} kills happened (the runs ended first)`);
  for (const violation of violations) console.log(`VIOLATION: ${violation}`);
  console.log(violations.length === 0 ? `VERDICT: OK (seed ${seed})` : `VERDICT: ${violations.length} violation(s) (seed ${seed})`);
  return violations.length === 0;
}

/** Runs/s of `runs` runs (no barriers, no kills) started round-robin on 1, 2 and 3 workers. */
async function throughput(): Promise<boolean> {
  const runCount = option('runs', 60);
  const rates: number[] = [];
  for (const workerCount of [1, 2, 3]) {
    const noop = () => undefined;
    const workers = await Promise.all(Array.from({ length: workerCount }, (_, i) => new Worker(`t${workerCount}-${i}`, 'free', noop, noop)).map(async (w) => (await w.ready, w)));
    const started = Date.now();
    const ids = await Promise.all(
      Array.from({ length: runCount }, (_, i) => workers[i % workerCount].request<{ workflowId: string }>({ start: input(`t${workerCount}-${i}`, `c${i}`) }).then((r) => r.workflowId)),
    );
    const ended = await allEnded(ids, 600_000);
    const seconds = (Date.now() - started) / 1000;
    await Promise.all(workers.map((w) => w.exit()));
    if (!ended) return false;
    rates.push(runCount / seconds);
    console.log(`${workerCount} worker(s): ${runCount} runs in ${seconds.toFixed(1)} s, ${(runCount / seconds).toFixed(2)} runs/s, ${(runCount / seconds / rates[0]).toFixed(2)}× 1 worker`);
  }
  return true;
}

async function main(): Promise<void> {
  server = await startTestPostgres();
  const sessions = new PostgresSessionService({ connectionString: server.url, schema });
  await sessions.migrate();
  await sessions.close();
  let ok = false;
  try {
    ok = args.includes('--throughput') ? await throughput() : await chaos();
  } finally {
    await dropSchema(server.url, schema);
    await dropSchema(server.url, dbosSchema);
    await server.stop();
    rmSync(artifactDir, { recursive: true, force: true });
  }
  process.exit(ok ? 0 : 1);
}

void main();
