import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Content } from '@toolsmith/core';
import { REQUEST_CONFIRMATION, confirmationRequests } from '@toolsmith/core';
import { PostgresSessionService } from '@toolsmith/postgres';
// eslint-disable-next-line toolsmith/no-cross-package-relative -- test fixture shared with packages/postgres; not public API
import { type TestPostgres, dropSchema, startTestPostgres, uniqueSchema } from '../../postgres/src/__fixtures__/test-postgres';
import type { DurableRunResult } from './durable-runner';
import type { WorkerCommand, WorkerReport } from './__fixtures__/durable-worker';

// Answers to a run that waits for approval, given on two worker processes (the worker fixture of
// durable-runner.e2e.test.ts): each answer is judged against the session before it reaches the run,
// and of two answers to one request exactly one reaches it.

const refunds: string[] = [];

/** A worker process that answers every barrier at once; starts, awaits and reads a run's wait. */
class AnswerWorker {
  private readonly child: ChildProcess;
  readonly ready: Promise<void>;
  private readonly exited: Promise<void>;
  private nextId = 0;
  private readonly replies = new Map<number, (reply: WorkerReport) => void>();

  constructor(executorId: string) {
    this.child = fork(join(__dirname, '__fixtures__', 'durable-worker.ts'), [server.url, schema, dbosSchema, executorId, artifactDir], {
      execArgv: ['-r', join(__dirname, '__fixtures__', 'register-esbuild.js')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    this.ready = new Promise((resolve) =>
      this.child.on('message', (report: WorkerReport) => {
        if ('ready' in report) resolve();
        else if ('barrier' in report) this.child.send({ release: report.release } satisfies WorkerCommand);
        else if ('toolRun' in report) {
          if (report.toolRun.startsWith('refund:')) refunds.push(report.toolRun);
        } else if ('id' in report) this.replies.get(report.id)?.(report);
      }),
    );
  }

  private request(command: Record<string, unknown>): Promise<WorkerReport> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.replies.set(id, resolve);
      this.child.send({ id, ...command } as WorkerCommand);
    });
  }

  /** Starts message `messageId` in `sessionId`: the run's workflow id, or the typed error the start was refused with. */
  async start(sessionId: string, messageId: string, newMessage: Content = { role: 'user', parts: [{ text: messageId }] }): Promise<{ workflowId?: string; refused?: string }> {
    const reply = (await this.request({ start: { userId: 'u', sessionId, messageId, newMessage } })) as { workflowId?: string; refused?: { code: string } };
    return reply.refused ? { refused: reply.refused.code } : { workflowId: reply.workflowId };
  }

  /** Puts message `messageId` of `sessionId` on run queue `queue`: the run's workflow id. */
  async enqueue(sessionId: string, messageId: string, queue: string, newMessage: Content = { role: 'user', parts: [{ text: messageId }] }): Promise<string> {
    return ((await this.request({ queue, enqueue: { userId: 'u', sessionId, messageId, newMessage } })) as { workflowId: string }).workflowId;
  }

  async waiting(workflowId: string): Promise<string[] | null> {
    return ((await this.request({ waiting: workflowId })) as { waitingFor: string[] | null }).waitingFor;
  }

  async status(workflowId: string): Promise<string | undefined> {
    return ((await this.request({ status: workflowId })) as { status?: string }).status;
  }

  async result(workflowId: string): Promise<DurableRunResult> {
    return ((await this.request({ await: workflowId })) as { result: DurableRunResult }).result;
  }

  exit(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    this.child.send('exit' satisfies WorkerCommand);
    return this.exited;
  }
}

let server: TestPostgres;
const schema = uniqueSchema('answers');
const dbosSchema = uniqueSchema('dbosanswers');
const artifactDir = mkdtempSync(join(tmpdir(), 'toolsmith-durable-answers-'));
let store: PostgresSessionService;
let a: AnswerWorker;
let b: AnswerWorker;
let c: AnswerWorker;

beforeAll(async () => {
  server = await startTestPostgres();
  store = new PostgresSessionService({ connectionString: server.url, schema });
  await store.migrate();
  a = new AnswerWorker('a');
  await a.ready; // alone: the first launch creates DBOS's tables
  [b, c] = [new AnswerWorker('b'), new AnswerWorker('c')];
  await Promise.all([b.ready, c.ready]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.exit(), b?.exit(), c?.exit()]);
  await store.close();
  await dropSchema(server.url, schema);
  await dropSchema(server.url, dbosSchema);
  await server.stop();
  rmSync(artifactDir, { recursive: true, force: true });
}, 60_000);

/** The answer to the one confirmation request the session's run paused on. */
async function answer(sessionId: string, response: Record<string, unknown>): Promise<Content> {
  const session = await store.getSession({ appName: 'shop', userId: 'u', sessionId });
  const requests = session!.events.flatMap((event) => confirmationRequests(event));
  expect(requests).toHaveLength(1);
  return { role: 'user', parts: [{ functionResponse: { id: requests[0].call.id, name: REQUEST_CONFIRMATION, response } }] };
}

it('a refused answer (confirmed: "yes") gets its typed error, reaches nothing and stores nothing: the run still waits, and a valid answer then completes it', async () => {
  const paused = (await a.start('s1', 'approve-forged')).workflowId!;
  const waitingFor = await b.waiting(paused);
  const before = (await store.getSession({ appName: 'shop', userId: 'u', sessionId: 's1' }))!.events.length;

  expect(await b.start('s1', 'forged', await answer('s1', { confirmed: 'yes' }))).toEqual({ refused: 'INVALID_CONFIRMATION_ANSWER' });
  // Checked as the runner checks a new message: a JPEG labelled image/png in the answer's files is refused before it is sent.
  const labelled = await answer('s1', { confirmed: true });
  const jpeg = Buffer.from('ffd8ffe000104a4649460001', 'hex').toString('base64');
  labelled.parts[0].functionResponse!.parts = [{ inlineData: { mimeType: 'image/png', data: jpeg } }];
  expect(await b.start('s1', 'mislabelled', labelled)).toEqual({ refused: 'INVALID_MESSAGE' });
  expect(await a.status(paused)).toBe('PENDING');
  expect(await a.waiting(paused)).toEqual(waitingFor);
  expect((await store.getSession({ appName: 'shop', userId: 'u', sessionId: 's1' }))!.events).toHaveLength(before);

  expect(await b.start('s1', 'approve-forged-yes', await answer('s1', { confirmed: true }))).toEqual({ workflowId: paused });
  expect(await a.result(paused)).toEqual(expect.objectContaining({ text: 'done approve-forged', confirmationIds: [] }));
  expect(refunds).toEqual(['refund:approve-forged-refund']);
}, 60_000);

it('two different answers to one request, on two workers at once: exactly one reaches the run, the other gets FUNCTION_RESPONSE_NOT_PENDING; a later answer is judged by a new run', async () => {
  const paused = (await a.start('s2', 'approve-twice')).workflowId!;
  await b.waiting(paused);
  const approve = await answer('s2', { confirmed: true });
  const reject = await answer('s2', { confirmed: false });

  const [onA, onB] = await Promise.all([a.start('s2', 'yes-a', approve), b.start('s2', 'no-b', reject)]);
  const outcomes = [onA, onB];
  expect(outcomes.filter((outcome) => outcome.workflowId === paused)).toHaveLength(1);
  expect(outcomes.filter((outcome) => outcome.refused === 'FUNCTION_RESPONSE_NOT_PENDING')).toHaveLength(1);
  const approved = onA.workflowId === paused;

  await a.result(paused);
  expect(refunds.filter((id) => id === 'refund:approve-twice-refund')).toHaveLength(approved ? 1 : 0);
  const responses = (await store.getSession({ appName: 'shop', userId: 'u', sessionId: 's2' }))!.events.flatMap((event) => event.functionResponses());
  expect(responses.filter((response) => response.name === REQUEST_CONFIRMATION)).toHaveLength(1);

  // Once the run no longer waits, an answer starts a new run, which refuses it.
  const late = await b.start('s2', 'no-late', reject);
  expect(late.workflowId).not.toBe(paused);
  expect((await b.result(late.workflowId!)).error?.code).toBe('FUNCTION_RESPONSE_NOT_PENDING');
}, 60_000);

it('on a run queue a paused run ends at the pause, keeping neither its queue slot nor its session: the answer, enqueued, is a new run of the session that completes it; a second answer is refused by a run of its own', async () => {
  const paused = await a.enqueue('s3', 'approve-queued', 'one-per-worker');
  expect((await b.result(paused)).confirmationIds).toHaveLength(1);
  expect(await b.status(paused)).toBe('SUCCESS');

  const approved = await b.enqueue('s3', 'yes-queued', 'one-per-worker', await answer('s3', { confirmed: true }));
  expect(approved).not.toBe(paused);
  expect(await a.result(approved)).toEqual(expect.objectContaining({ text: 'done approve-queued', confirmationIds: [] }));
  expect(refunds.filter((id) => id === 'refund:approve-queued-refund')).toHaveLength(1);

  const rejected = await c.enqueue('s3', 'no-queued', 'one-per-worker', await answer('s3', { confirmed: false }));
  expect((await c.result(rejected)).error?.code).toBe('FUNCTION_RESPONSE_NOT_PENDING');
  expect(refunds.filter((id) => id === 'refund:approve-queued-refund')).toHaveLength(1);
}, 60_000);
