import { DBOS } from '@dbos-inc/dbos-sdk';
import type { Content } from '@toolsmith/core';
import { InMemoryCredentialService, LlmAgent, confirmationRequests, confirmationResponse, credentialRequests, credentialResponse, functionTool, longRunningResponse } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { PostgresSessionService } from '@toolsmith/postgres';
// eslint-disable-next-line toolsmith/no-cross-package-relative -- test fixture shared with packages/postgres; not public API
import { type TestPostgres, dropSchema, startTestPostgres, uniqueSchema } from '../../postgres/src/__fixtures__/test-postgres';
import { DurableRunner, registerRunQueue } from './durable-runner';
import { DURABLE_WAIT_NAMES } from './durable-waits';

// Answers that overlap (one answers a request, another that request and a second one) claim every call
// they answer, all or nothing: exactly one of them takes the shared call, the other is refused whole.

let server: TestPostgres;
const schema = uniqueSchema('overlap');
const dbosSchema = uniqueSchema('dbosoverlap');
let store: PostgresSessionService;
const credentials = new InMemoryCredentialService();
/** What the tools ran with, in order. */
const ran: string[] = [];
let durable: DurableRunner;

beforeAll(async () => {
  server = await startTestPostgres();
  store = new PostgresSessionService({ connectionString: server.url, schema });
  await store.migrate();
  const keyed = (name: string) =>
    functionTool({
      name,
      description: `The ${name}.`,
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      auth: { scheme: 'apiKey', name: `${name}-key` },
      execute: (_args: unknown, ctx) => {
        ran.push(`${name}:${ctx.credential!.apiKey!}`);
        return { ok: true };
      },
    });
  const remove = functionTool({
    name: 'remove',
    description: 'Removes it.',
    parameters: { type: 'object', properties: { what: { type: 'string' } }, required: ['what'], additionalProperties: false },
    requireConfirmation: true,
    execute: (args: { what: string }) => {
      ran.push(`remove:${args.what}`);
      return { removed: args.what };
    },
  });
  const model = new ScriptedModel((request) => {
    const last = request.contents.at(-1)?.parts[0];
    if (last?.functionResponse) return 'done';
    if (last?.text === 'export') return { calls: [{ id: 'L1', name: 'startExport', args: {} }] };
    if (last?.text === 'remove') return { calls: [{ id: 'd1', name: 'remove', args: { what: 'a' } }, { id: 'd2', name: 'remove', args: { what: 'b' } }] };
    return { calls: [{ id: 'c1', name: 'weather', args: {} }, { id: 'c2', name: 'calendar', args: {} }] };
  });
  const startExport = functionTool({
    name: 'startExport',
    description: 'Starts an export.',
    isLongRunning: true,
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    execute: () => ({ status: 'pending' }),
  });
  durable = new DurableRunner({ appName: 'wx', agent: new LlmAgent({ name: 'a', model, tools: [keyed('weather'), keyed('calendar'), remove, startExport] }), sessionService: store, credentialService: credentials });
  DBOS.setConfig({ name: 'toolsmith-durable-overlap', systemDatabaseUrl: server.url, systemDatabaseSchemaName: dbosSchema, executorID: 'overlap', applicationVersion: 'test', logLevel: 'error' });
  await DBOS.launch();
  await registerRunQueue('runs');
}, 60_000);

afterAll(async () => {
  await DBOS.shutdown();
  await store.close();
  await dropSchema(server.url, schema);
  await dropSchema(server.url, dbosSchema);
  await server.stop();
}, 60_000);

beforeEach(async () => {
  ran.length = 0;
  for (const name of ['weather', 'calendar']) await credentials.deleteCredential({ appName: 'wx', userId: 'u', authConfigId: `${name}-key` });
});

const message = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const both = (a: Content, b: Content): Content => ({ role: 'user', parts: [...a.parts, ...b.parts] });
const saved = (name: string) => credentials.loadCredential({ appName: 'wx', userId: 'u', authConfigId: `${name}-key` });

async function events(sessionId: string) {
  return (await store.getSession({ appName: 'wx', userId: 'u', sessionId }))!.events;
}

it('typed keys: {r1} and {r1, r2} at once to a waiting run: exactly one wins, only its keys are saved, the tool runs with its key', async () => {
  const first = await durable.start({ userId: 'u', sessionId: 's1', messageId: 'm1', newMessage: message('keys') });
  await DBOS.getEvent(first.workflowID, DURABLE_WAIT_NAMES.waitingEvent);
  const [r1, r2] = (await events('s1')).flatMap((event) => credentialRequests(event));
  const a = credentialResponse(r1, { credential: { apiKey: 'KEY-A-weather' } });
  const b = both(credentialResponse(r1, { credential: { apiKey: 'KEY-B-weather' } }), credentialResponse(r2, { credential: { apiKey: 'KEY-B-calendar' } }));
  const outcomes = await Promise.allSettled([a, b].map((newMessage, index) => durable.start({ userId: 'u', sessionId: 's1', messageId: `m2-${index}`, newMessage })));
  expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
  const won = outcomes[0].status === 'fulfilled' ? 'A' : 'B';
  expect(outcomes[won === 'A' ? 1 : 0]).toMatchObject({ status: 'rejected', reason: { code: 'FUNCTION_RESPONSE_NOT_PENDING' } });
  expect(await saved('weather')).toEqual({ apiKey: `KEY-${won}-weather` });
  expect(await saved('calendar')).toEqual(won === 'B' ? { apiKey: 'KEY-B-calendar' } : undefined);
  if (won === 'A') {
    // The run still waits for r2: answering it ends the run.
    expect(await durable.ask({ userId: 'u', sessionId: 's1', messageId: 'm3', newMessage: credentialResponse(r2, { credential: { apiKey: 'KEY-C-calendar' } }) })).toMatchObject({ text: 'done' });
  }
  expect(await first.getResult()).toMatchObject({ text: 'done' });
  expect(ran).toEqual(expect.arrayContaining([`weather:KEY-${won}-weather`]));
  expect(ran.filter((entry) => entry.startsWith('weather:'))).toHaveLength(1);
}, 60_000);

it('confirmations: approve {d1} and reject d1 + approve d2 at once: exactly one wins and the run does not hang on a call no answer can reach', async () => {
  const first = await durable.start({ userId: 'u', sessionId: 's2', messageId: 'm1', newMessage: message('remove') });
  await DBOS.getEvent(first.workflowID, DURABLE_WAIT_NAMES.waitingEvent);
  const [q1, q2] = (await events('s2')).flatMap((event) => confirmationRequests(event));
  const a = confirmationResponse(q1, { decision: 'approve' });
  const b = both(confirmationResponse(q1, { decision: 'reject', message: 'no' }), confirmationResponse(q2, { decision: 'approve' }));
  const outcomes = await Promise.allSettled([a, b].map((newMessage, index) => durable.start({ userId: 'u', sessionId: 's2', messageId: `m2-${index}`, newMessage })));
  expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
  if (outcomes[0].status === 'fulfilled') {
    expect(await durable.ask({ userId: 'u', sessionId: 's2', messageId: 'm3', newMessage: confirmationResponse(q2, { decision: 'approve' }) })).toMatchObject({ text: 'done' });
    expect(ran).toEqual(['remove:a', 'remove:b']);
  } else {
    expect(ran).toEqual(['remove:b']);
  }
  expect(await first.getResult()).toMatchObject({ text: 'done' });
}, 60_000);

it('a queued session (no run waits): a cancel, then a typed key for the same request before the cancel has run: the key loses and is not saved', async () => {
  const first = await durable.enqueue({ userId: 'u', sessionId: 's3', messageId: 'm1', newMessage: message('keys') }, 'runs');
  await first.getResult();
  const [r1] = (await events('s3')).flatMap((event) => credentialRequests(event));
  // The cancel claims r1 as the typed answer would (before, an answer without a typed credential took no claim).
  const cancelled = await durable.enqueue({ userId: 'u', sessionId: 's3', messageId: 'm2', newMessage: credentialResponse(r1, { cancelled: true }) }, 'runs');
  const typed = durable.enqueue({ userId: 'u', sessionId: 's3', messageId: 'm3', newMessage: credentialResponse(r1, { credential: { apiKey: 'KEY-LATE-weather' } }) }, 'runs');
  // Refused at once while the cancel's run has not stored it, or, once it has, started as a run of its own that refuses it.
  const late = await typed.then(
    async (handle) => (await handle.getResult()).error?.code,
    (error: { code?: string }) => error.code,
  );
  expect(late).toBe('FUNCTION_RESPONSE_NOT_PENDING');
  await cancelled.getResult();
  expect(await saved('weather')).toBeUndefined();
  expect(ran).toEqual([]);
}, 60_000);

for (const [second, update] of [
  ['a newer question', { response: { status: 'blocked', rows: 2 }, willContinue: true, question: { hint: 'Keep them now?' } }],
  ['the final update', { response: { status: 'done' } }],
  ['a progress update', { response: { status: 'running' }, willContinue: true }],
] as const) {
  it(`while a run waits on an update's question, ${second} of the same call goes to it, as with Runner (long-running.md)`, async () => {
    const sessionId = `lr-${second.replaceAll(' ', '-')}`;
    const first = await durable.start({ userId: 'u', sessionId, messageId: 'm1', newMessage: message('export') });
    await DBOS.getEvent(first.workflowID, DURABLE_WAIT_NAMES.waitingEvent);
    const asked = await durable.start({ userId: 'u', sessionId, messageId: 'u1', newMessage: longRunningResponse({ id: 'L1', name: 'startExport', response: { status: 'blocked', rows: 1 }, willContinue: true, question: { hint: 'Keep it?' } }) });
    expect(asked.workflowID).toBe(first.workflowID);
    // The run waits for the question once it has stored it.
    while ((await events(sessionId)).flatMap((event) => confirmationRequests(event)).length === 0) await DBOS.sleep(50);
    const next = await durable.start({ userId: 'u', sessionId, messageId: 'u2', newMessage: longRunningResponse({ id: 'L1', name: 'startExport', ...update }) });
    expect(next.workflowID).toBe(first.workflowID);
    if (second !== 'the final update') {
      // The call goes on; its final update ends it, its question with it, and the run.
      const last = await durable.start({ userId: 'u', sessionId, messageId: 'u3', newMessage: longRunningResponse({ id: 'L1', name: 'startExport', response: { status: 'done' } }) });
      expect(last.workflowID).toBe(first.workflowID);
    }
    expect(await first.getResult()).toMatchObject({ text: 'done' });
  }, 60_000);
}
