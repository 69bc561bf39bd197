// A worker process of the durable-run tests: DBOS launched on the test server with its own executor id
// and a DurableRunner whose scripted model and tools report to the parent over IPC and stop at barriers
// until the parent releases them (or kills this process there).
//
// Each run's user message is a name, e.g. "r1". The script: call `charge` (not idempotent, id
// `<name>-charge`), then `reserve` (idempotent, id `<name>-reserve`), then answer `done <name>`. A name
// starting with "approve" calls `refund` (which asks for confirmation) and answers once it ran; one
// starting with "ship" calls `ship` (long-running) and answers once its update came; one starting
// with "bulk" calls `export` (a large result) and answers with a large text. The
// store stops at a barrier after each event it took ("stored:<text or call ids>").
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { Content, LlmRequest } from '@toolsmith/core';
import { FileArtifactService, LlmAgent, confirmationRequests, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { PostgresSessionService } from '@toolsmith/postgres';
import { DURABLE_WAIT_NAMES, DurableRunner, type DurableRunInput, WorkerPool, registerRunQueue } from '../index';

/** Parent → worker. */
export type WorkerCommand =
  | { id: number; start: DurableRunInput }
  | { id: number; enqueue: DurableRunInput; queue?: string }
  | { id: number; await: string }
  | { id: number; status: string }
  | { id: number; takeOver: string }
  | { id: number; takeOverDead: true }
  | { id: number; waiting: string }
  | { release: number }
  | 'exit';
/** Worker → parent. */
export type WorkerReport =
  | { ready: true }
  | { id: number; workflowId: string }
  | { id: number; result: unknown }
  | { id: number; status: string | undefined }
  | { id: number; taken: string[] }
  | { id: number; waitingFor: string[] | null }
  | { id: number; refused: { code: string; message: string } }
  | { barrier: string; release: number }
  | { modelCall: string }
  | { toolRun: string; key: string };

const [url, schema, dbosSchema, executorID, artifactDir, mode] = process.argv.slice(2);
/** "free": no barriers (every point goes on at once; the throughput measurement of durable-chaos.ts). */
const free = mode === 'free';
const send = (report: WorkerReport) => process.send!(report);

let nextBarrier = 0;
const waiting = new Map<number, () => void>();
/** Tells the parent this point is reached and waits until it says go on (or kills the process). */
function barrier(name: string): Promise<void> {
  if (free) return Promise.resolve();
  const release = nextBarrier++;
  return new Promise((resolve) => {
    waiting.set(release, resolve);
    send({ barrier: name, release });
  });
}

const runName = (contents: Content[]): { name: string; answered: number } => {
  let at = contents.length - 1;
  while (at >= 0 && !(contents[at].role === 'user' && contents[at].parts.some((p) => p.text !== undefined))) at--;
  const name = contents[at].parts.find((p) => p.text !== undefined)!.text!;
  const answered = contents.slice(at + 1).flatMap((c) => c.parts).filter((p) => p.functionResponse).length;
  return { name, answered };
};

const model = new ScriptedModel(async (request: LlmRequest) => {
  const { name, answered } = runName(request.contents);
  const step = `model:${name}:${answered}`;
  send({ modelCall: step });
  await barrier(step);
  if (name.startsWith('bulk')) {
    // Answers with the length of the export it got, and a long text: both steps' outputs are large.
    if (answered === 0) return { calls: [{ id: `${name}-export`, name: 'export' }] };
    const rows = request.contents.flatMap((c) => c.parts).find((p) => p.functionResponse?.name === 'export')!.functionResponse!.response.rows as string;
    return `done ${name} ${rows.length} ${'y'.repeat(3_000)}`;
  }
  if (name.startsWith('ship')) return answered === 0 ? { calls: [{ id: `${name}-ship`, name: 'ship' }] } : `done ${name}`;
  if (name.startsWith('approve')) return answered === 0 ? { calls: [{ id: `${name}-refund`, name: 'refund' }] } : `done ${name}`;
  if (answered === 0) return { calls: [{ id: `${name}-charge`, name: 'charge' }] };
  if (answered === 1) return { calls: [{ id: `${name}-reserve`, name: 'reserve' }] };
  return `done ${name}`;
});

const charge = functionTool({
  name: 'charge',
  description: 'Charges the card (not idempotent).',
  execute: async (_args, ctx) => {
    send({ toolRun: `charge:${ctx.functionCallId}`, key: ctx.idempotencyKey });
    await barrier(`tool:${ctx.functionCallId}`);
    return { charged: true };
  },
});

const reserve = functionTool({
  name: 'reserve',
  description: 'Reserves the item (idempotent: the store keys it by ctx.idempotencyKey).',
  idempotent: true,
  execute: async (_args, ctx) => {
    send({ toolRun: `reserve:${ctx.functionCallId}`, key: ctx.idempotencyKey });
    await barrier(`tool:${ctx.functionCallId}`);
    return { reserved: true };
  },
});

// A large result (10 000 characters): its step records an artifact reference.
const exportRows = functionTool({
  name: 'export',
  description: 'Exports all rows.',
  execute: (_args, ctx) => {
    send({ toolRun: `export:${ctx.functionCallId}`, key: ctx.idempotencyKey });
    return { rows: 'r'.repeat(10_000) };
  },
});

// Long-running: answers "pending"; the shipment's update comes later, as a message answering the call.
const ship = functionTool({
  name: 'ship',
  description: 'Starts the shipment; its update comes later.',
  isLongRunning: true,
  execute: (_args, ctx) => {
    send({ toolRun: `ship:${ctx.functionCallId}`, key: ctx.idempotencyKey });
    return { status: 'pending' };
  },
});

// Runs only once the user approved it (a message named "approve…" calls it).
const refund = functionTool({
  name: 'refund',
  description: 'Refunds the order.',
  requireConfirmation: true,
  execute: (_args, ctx) => {
    send({ toolRun: `refund:${ctx.functionCallId}`, key: ctx.idempotencyKey });
    return { refunded: true };
  },
});

const sessionService = new PostgresSessionService({ connectionString: url, schema, poolSize: 4 });
// A barrier after each event the store took, named by what the event holds (e.g. "stored:r5-charge",
// "stored:confirm:approve-1-refund" for the pause asking to confirm call approve-1-refund).
const append = sessionService.appendEvent.bind(sessionService);
sessionService.appendEvent = async (session, event) => {
  const stored = await append(session, event);
  const confirming = confirmationRequests(event).map((request) => `confirm:${request.originalFunctionCall.id}`);
  const what = event.text() || confirming.join() || event.functionCalls().map((c) => c.id).join() || event.functionResponses().map((r) => r.id).join();
  await barrier(`stored:${what}`);
  return stored;
};
const durable = new DurableRunner({
  appName: 'shop',
  agent: new LlmAgent({ name: 'cashier', model, tools: [charge, reserve, refund, ship, exportRows] }),
  sessionService,
  // A recovered run claims its session again: the dead worker's claim must lapse first.
  sessionClaim: { leaseMs: 1_000 },
  // Step outputs over 2 000 characters go to the artifact store all workers share.
  artifactService: new FileArtifactService(artifactDir),
  largeOutputChars: 2_000,
});

let pool: WorkerPool;
process.on('message', (command: WorkerCommand) => {
  if (command === 'exit') {
    void DBOS.shutdown().then(() => Promise.all([sessionService.close(), pool.close()])).then(() => process.exit(0));
  } else if ('release' in command) {
    waiting.get(command.release)?.();
    waiting.delete(command.release);
  } else if ('start' in command) {
    void durable.start(command.start).then(
      (handle) => send({ id: command.id, workflowId: handle.workflowID }),
      (error: { code: string; message: string }) => send({ id: command.id, refused: { code: error.code, message: error.message } }),
    );
  } else if ('enqueue' in command) {
    void durable.enqueue(command.enqueue, command.queue ?? 'runs').then((handle) => send({ id: command.id, workflowId: handle.workflowID }));
  } else if ('takeOver' in command) {
    void pool.takeOver(command.takeOver).then((taken) => send({ id: command.id, taken }));
  } else if ('takeOverDead' in command) {
    void pool.takeOverDead().then((taken) => send({ id: command.id, taken }));
  } else if ('waiting' in command) {
    void DBOS.getEvent<string[]>(command.waiting, DURABLE_WAIT_NAMES.waitingEvent, { timeoutSeconds: 60 }).then((waitingFor) => send({ id: command.id, waitingFor }));
  } else if ('status' in command) {
    void DBOS.getWorkflowStatus(command.status).then((status) => send({ id: command.id, status: status?.status }));
  } else {
    void DBOS.retrieveWorkflow(command.await).getResult().then((result) => send({ id: command.id, result }));
  }
});

DBOS.setConfig({ name: 'toolsmith-durable-test', systemDatabaseUrl: url, systemDatabaseSchemaName: dbosSchema, executorID, applicationVersion: 'test', logLevel: 'error' });
// Joins the pool first: a worker started again with a dead worker's id waits until no takeover of it runs.
void WorkerPool.join({ connectionString: url, executorID })
  .then((joined) => (pool = joined))
  .then(() => DBOS.launch())
  .then(() =>
    Promise.all([
      registerRunQueue('runs', { workerConcurrency: 4 }),
      registerRunQueue('one-per-worker', { workerConcurrency: 1 }),
      registerRunQueue('one-at-a-time', { globalConcurrency: 1 }),
      registerRunQueue('one-an-hour', { rateLimit: { limitPerPeriod: 1, periodSec: 3600 } }),
    ]),
  )
  .then(() => send({ ready: true }));
