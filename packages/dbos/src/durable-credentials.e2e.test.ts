import { DBOS } from '@dbos-inc/dbos-sdk';
import pg from 'pg';
import type { Content } from '@toolsmith/core';
import { InMemoryCredentialService, LlmAgent, credentialRequests, credentialResponse, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { PostgresSessionService } from '@toolsmith/postgres';
// eslint-disable-next-line toolsmith/no-cross-package-relative -- test fixture shared with packages/postgres; not public API
import { type TestPostgres, dropSchema, startTestPostgres, uniqueSchema } from '../../postgres/src/__fixtures__/test-postgres';
import { DurableRunner, registerRunQueue } from './durable-runner';
import { DURABLE_WAIT_NAMES } from './durable-waits';

// A credential the user types in (credentialResponse(request, { credential: { apiKey } })) goes to the
// credential service and nowhere else: not into any of DBOS's tables (workflow inputs, messages, step
// outputs), nor the session's. DurableRunner saves it in the caller's process and hands DBOS the answer
// with its values [redacted].

let server: TestPostgres;
const schema = uniqueSchema('credentials');
const dbosSchema = uniqueSchema('dboscredentials');
let store: PostgresSessionService;
const credentials = new InMemoryCredentialService();
/** How many of the next saves fail, quoting the key (as a database's unique-constraint error does). */
let failingSaves = 0;
const saveCredential = credentials.saveCredential.bind(credentials);
credentials.saveCredential = async (key, credential) => {
  if (failingSaves > 0) {
    failingSaves--;
    throw new Error(`duplicate key value violates unique constraint: Key (api_key)=(${credential.apiKey}) already exists`);
  }
  return saveCredential(key, credential);
};
/** The keys the tool ran with, in order. */
const ranWith: string[] = [];
let durable: DurableRunner;

beforeAll(async () => {
  server = await startTestPostgres();
  store = new PostgresSessionService({ connectionString: server.url, schema });
  await store.migrate();
  const weather = functionTool({
    name: 'weather',
    description: 'The weather.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    auth: { scheme: 'apiKey', name: 'wkey' },
    execute: (_args: unknown, ctx) => {
      ranWith.push(ctx.credential!.apiKey!);
      return { sunny: true };
    },
  });
  const model = new ScriptedModel((request) => (request.contents.at(-1)?.parts[0]?.functionResponse ? 'done' : { calls: [{ id: 'c1', name: 'weather', args: {} }] }));
  durable = new DurableRunner({ appName: 'wx', agent: new LlmAgent({ name: 'a', model, tools: [weather] }), sessionService: store, credentialService: credentials });
  DBOS.setConfig({ name: 'toolsmith-durable-credentials', systemDatabaseUrl: server.url, systemDatabaseSchemaName: dbosSchema, executorID: 'creds', applicationVersion: 'test', logLevel: 'error' });
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
  ranWith.length = 0;
  await credentials.deleteCredential({ appName: 'wx', userId: 'u', authConfigId: 'wkey' }); // each test's run asks for the key
});

const hi: Content = { role: 'user', parts: [{ text: 'weather?' }] };

/** The answer typing `apiKey` in, to the one credential request of the session. */
async function typed(sessionId: string, apiKey: string): Promise<Content> {
  const session = await store.getSession({ appName: 'wx', userId: 'u', sessionId });
  const requests = session!.events.flatMap((event) => credentialRequests(event));
  expect(requests).toHaveLength(1);
  return credentialResponse(requests[0], { credential: { apiKey } });
}

/** Every table of DBOS's schema and the session store's, each row as JSON, where `secret` is found. */
async function tablesHolding(secret: string): Promise<string[]> {
  const client = new pg.Client(server.url);
  await client.connect();
  try {
    const tables = await client.query<{ table_schema: string; table_name: string }>('select table_schema, table_name from information_schema.tables where table_schema in ($1, $2)', [schema, dbosSchema]);
    expect(tables.rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(['workflow_status', 'operation_outputs', 'notifications', 'events']));
    const found: string[] = [];
    for (const { table_schema, table_name } of tables.rows) {
      const rows = await client.query(`select * from "${table_schema}"."${table_name}"`);
      if (JSON.stringify(rows.rows).includes(secret)) found.push(`${table_schema === dbosSchema ? 'dbos' : 'sessions'}.${table_name}`);
    }
    return found;
  } finally {
    await client.end();
  }
}

const saved = () => credentials.loadCredential({ appName: 'wx', userId: 'u', authConfigId: 'wkey' });

it('a typed key answering a run that waits for it (start): saved, the tool runs once with it, and no table of DBOS or of the session store holds it', async () => {
  const first = await durable.start({ userId: 'u', sessionId: 's1', messageId: 'm1', newMessage: hi });
  await DBOS.getEvent(first.workflowID, DURABLE_WAIT_NAMES.waitingEvent);
  const secret = 'SECRET-start-7c1e9a';
  const answered = await durable.start({ userId: 'u', sessionId: 's1', messageId: 'm2', newMessage: await typed('s1', secret) });
  expect(answered.workflowID).toBe(first.workflowID);
  expect(await answered.getResult()).toMatchObject({ text: 'done' });
  expect(ranWith).toEqual([secret]);
  expect(await saved()).toEqual({ apiKey: secret });
  // The same message again, after its run: answered with what it produced (by a run of its own, given it [redacted]); nothing runs again.
  expect(await durable.ask({ userId: 'u', sessionId: 's1', messageId: 'm2', newMessage: await typedAgain(secret, 's1') })).toMatchObject({ text: 'done' });
  expect(ranWith).toEqual([secret]);
  expect(await tablesHolding(secret)).toEqual([]);
}, 60_000);

/** The answer of the first credential request of the session (answered already), typing `apiKey` in. */
async function typedAgain(apiKey: string, sessionId: string): Promise<Content> {
  const session = await store.getSession({ appName: 'wx', userId: 'u', sessionId });
  return credentialResponse(session!.events.flatMap((event) => credentialRequests(event))[0], { credential: { apiKey } });
}

it('a typed key answering a run on a queue (it ended at the pause): the claim starts the new run with the key [redacted]; saved, used once, and in no table', async () => {
  const first = await durable.enqueue({ userId: 'u', sessionId: 's2', messageId: 'm1', newMessage: hi }, 'runs');
  await first.getResult();
  const secret = 'SECRET-queue-4b2d8f';
  const run = await durable.enqueue({ userId: 'u', sessionId: 's2', messageId: 'm2', newMessage: await typed('s2', secret) }, 'runs');
  expect(await run.getResult()).toMatchObject({ text: 'done' });
  expect(ranWith).toEqual([secret]);
  expect(await saved()).toEqual({ apiKey: secret });
  expect(await tablesHolding(secret)).toEqual([]);
}, 60_000);

it('a refused answer (a key for another scheme) saves nothing and reaches nothing: the run still waits, and its key is in no table', async () => {
  const first = await durable.start({ userId: 'u', sessionId: 's3', messageId: 'm1', newMessage: hi });
  await DBOS.getEvent(first.workflowID, DURABLE_WAIT_NAMES.waitingEvent);
  const session = await store.getSession({ appName: 'wx', userId: 'u', sessionId: 's3' });
  const secret = 'SECRET-refused-93ad0c';
  const wrong = credentialResponse(session!.events.flatMap((event) => credentialRequests(event))[0], { credential: { token: secret } } as never);
  await expect(durable.start({ userId: 'u', sessionId: 's3', messageId: 'm2', newMessage: wrong })).rejects.toMatchObject({ code: 'INVALID_CREDENTIAL_ANSWER' });
  await expect(durable.enqueue({ userId: 'u', sessionId: 's3', newMessage: wrong }, 'runs')).rejects.toMatchObject({ code: 'INVALID_CREDENTIAL_ANSWER' });
  expect(await saved()).toBeUndefined();
  expect(await DBOS.getEvent(first.workflowID, DURABLE_WAIT_NAMES.waitingEvent)).toHaveLength(1);
  expect(await tablesHolding(secret)).toEqual([]);
  const right = 'SECRET-right-5e7f21';
  expect(await durable.ask({ userId: 'u', sessionId: 's3', messageId: 'm3', newMessage: await typed('s3', right) })).toMatchObject({ text: 'done' });
  expect(ranWith).toEqual([right]);
  expect(await tablesHolding(right)).toEqual([]);
}, 60_000);

it('two typed keys answering one request at once: one wins, only its key is saved, the tool runs once with it; the other gets FUNCTION_RESPONSE_NOT_PENDING', async () => {
  const first = await durable.start({ userId: 'u', sessionId: 's4', messageId: 'm1', newMessage: hi });
  await DBOS.getEvent(first.workflowID, DURABLE_WAIT_NAMES.waitingEvent);
  const keys = ['SECRET-one-a1b2c3', 'SECRET-two-d4e5f6'];
  const answers = await Promise.all(keys.map((key) => typed('s4', key)));
  const outcomes = await Promise.allSettled(keys.map((_key, index) => durable.start({ userId: 'u', sessionId: 's4', messageId: `m2-${index}`, newMessage: answers[index] })));
  const won = outcomes.findIndex((outcome) => outcome.status === 'fulfilled');
  expect(won).toBeGreaterThanOrEqual(0);
  expect(outcomes[1 - won]).toMatchObject({ status: 'rejected', reason: { code: 'FUNCTION_RESPONSE_NOT_PENDING' } });
  expect(await first.getResult()).toMatchObject({ text: 'done' });
  expect(ranWith).toEqual([keys[won]]);
  expect(await saved()).toEqual({ apiKey: keys[won] });
  for (const key of keys) expect(await tablesHolding(key)).toEqual([]);
}, 60_000);

it('a refused credential answer on a queued session (misnamed; with a member beside credential) reaches DBOS [redacted]: the run refuses it, and its key is in no table', async () => {
  const first = await durable.enqueue({ userId: 'u', sessionId: 's5', messageId: 'm1', newMessage: hi }, 'runs');
  await first.getResult();
  const right = (await typed('s5', 'unused')).parts[0].functionResponse!;
  const misnamedKey = 'SECRET-misnamed-61f0ab';
  const misnamed: Content = { role: 'user', parts: [{ functionResponse: { ...right, name: 'request_credential', response: { credential: { apiKey: misnamedKey } } } }] };
  const siblingKey = 'SECRET-sibling-0c9e44';
  const sibling: Content = { role: 'user', parts: [{ functionResponse: { ...right, response: { credential: { apiKey: siblingKey }, apiKey: siblingKey, nested: { again: [siblingKey] } } } }] };
  for (const [messageId, newMessage] of [['m2', misnamed], ['m3', sibling]] as const) {
    const run = await durable.enqueue({ userId: 'u', sessionId: 's5', messageId, newMessage }, 'runs');
    expect((await run.getResult()).error?.code).toBe('INVALID_CREDENTIAL_ANSWER');
  }
  expect(await saved()).toBeUndefined();
  expect(ranWith).toEqual([]);
  expect(await tablesHolding(misnamedKey)).toEqual([]);
  expect(await tablesHolding(siblingKey)).toEqual([]);
}, 60_000);

it('a save that fails: start (and enqueue) throws CREDENTIAL_SAVE_FAILED without the key, as Runner, the request still pending; the same answer again is taken', async () => {
  const first = await durable.start({ userId: 'u', sessionId: 's6', messageId: 'm1', newMessage: hi });
  await DBOS.getEvent(first.workflowID, DURABLE_WAIT_NAMES.waitingEvent);
  const secret = 'SECRET-savefail-2d7c41';
  const answer = await typed('s6', secret);
  const session = async () => (await store.getSession({ appName: 'wx', userId: 'u', sessionId: 's6' }))!;
  const before = (await session()).events.length;
  failingSaves = 1;
  const failed = await durable.start({ userId: 'u', sessionId: 's6', messageId: 'm2', newMessage: answer }).then(
    () => undefined,
    (error: Error & { code?: string }) => error,
  );
  expect(failed).toMatchObject({ code: 'CREDENTIAL_SAVE_FAILED' });
  expect(failed!.message).not.toContain(secret);
  expect(await saved()).toBeUndefined();
  // Nothing went on: the run still waits for the same request, and nothing was stored.
  expect(await DBOS.getEvent(first.workflowID, DURABLE_WAIT_NAMES.waitingEvent)).toHaveLength(1);
  expect((await session()).events.length).toBe(before);
  // The same message again is taken: saved, and the run goes on with it.
  expect((await durable.start({ userId: 'u', sessionId: 's6', messageId: 'm2', newMessage: answer })).workflowID).toBe(first.workflowID);
  expect(await first.getResult()).toMatchObject({ text: 'done' });
  expect(await saved()).toEqual({ apiKey: secret });
  expect(ranWith).toEqual([secret]);
  expect((await session()).events.flatMap((event) => credentialRequests(event))).toHaveLength(1);
  expect(await tablesHolding(secret)).toEqual([]);

  // On a queue (no run waits): no run is started, and another answer is then taken.
  await credentials.deleteCredential({ appName: 'wx', userId: 'u', authConfigId: 'wkey' });
  ranWith.length = 0;
  await (await durable.enqueue({ userId: 'u', sessionId: 's9', messageId: 'm1', newMessage: hi }, 'runs')).getResult();
  failingSaves = 1;
  await expect(durable.enqueue({ userId: 'u', sessionId: 's9', messageId: 'm2', newMessage: await typed('s9', secret) }, 'runs')).rejects.toMatchObject({ code: 'CREDENTIAL_SAVE_FAILED' });
  expect(await saved()).toBeUndefined();
  const other = 'SECRET-savefail-other-8e1f';
  expect(await (await durable.enqueue({ userId: 'u', sessionId: 's9', messageId: 'm3', newMessage: await typed('s9', other) }, 'runs')).getResult()).toMatchObject({ text: 'done' });
  expect(ranWith).toEqual([other]);
}, 60_000);

it('an answer whose typed values are "[redacted]" (read back from the session) is refused, run waiting or not: nothing saved, the request still pending', async () => {
  const first = await durable.start({ userId: 'u', sessionId: 's7', messageId: 'm1', newMessage: hi });
  await DBOS.getEvent(first.workflowID, DURABLE_WAIT_NAMES.waitingEvent);
  const replayed = await typed('s7', '[redacted]');
  await expect(durable.start({ userId: 'u', sessionId: 's7', messageId: 'm2', newMessage: replayed })).rejects.toMatchObject({ code: 'INVALID_CREDENTIAL_ANSWER', message: expect.stringContaining('"credential.apiKey" is "[redacted]"') });
  expect(await saved()).toBeUndefined();
  expect(await DBOS.getEvent(first.workflowID, DURABLE_WAIT_NAMES.waitingEvent)).toHaveLength(1);
  // No run waits (a queued session ended at its pause): refused as well, no run started.
  await (await durable.enqueue({ userId: 'u', sessionId: 's8', messageId: 'm1', newMessage: hi }, 'runs')).getResult();
  await expect(durable.enqueue({ userId: 'u', sessionId: 's8', messageId: 'm2', newMessage: await typed('s8', '[redacted]') }, 'runs')).rejects.toMatchObject({ code: 'INVALID_CREDENTIAL_ANSWER' });
  expect(await saved()).toBeUndefined();
  const right = 'SECRET-after-replay-3f9d';
  expect(await durable.ask({ userId: 'u', sessionId: 's7', messageId: 'm3', newMessage: await typed('s7', right) })).toMatchObject({ text: 'done' });
  expect(ranWith).toEqual([right]);
}, 60_000);
