import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { type AuthConfig, type CredentialService, type Event, InMemoryCredentialService, InMemorySessionService, type SessionService, PENDING_AUTHORIZATION_TTL_MS, authConfigId, LlmAgent, Runner, credentialRequests, credentialResponse, functionTool } from '@toolsmith/core';
import { ScriptedModel, startOAuth2TestServer } from '@toolsmith/core/testing';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { PostgresSessionService } from './postgres-session-service';
import { uniqueSchema, useTestPostgres } from './__fixtures__/test-postgres';
import { PostgresCredentialService } from './postgres-credential-service';
import { SCHEMA_VERSION } from './migrations';
import { PostgresDatabase } from './postgres-database';

const encryptionKey = randomBytes(32);

/**
 * A user types an API key into a credential request, on `sessionService` and `credentialService`, with
 * content recording on. Returns the spans; the tool says whether it got the key, never the key itself.
 */
async function typeInApiKey(secret: string, sessionService: SessionService, credentialService: CredentialService): Promise<{ spans: string; events: Event[] }> {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tool = functionTool({ name: 'weather', description: 'The weather.', auth: { scheme: 'apiKey', name: 'weather' }, execute: (_: unknown, ctx) => ({ gotTheKey: ctx.credential?.apiKey === secret }) });
  const runner = new Runner({
    appName: 'wx',
    agent: new LlmAgent({ name: 'a', model: new ScriptedModel([{ calls: [{ name: 'weather' }] }, 'It is sunny.']), tools: [tool] }),
    sessionService,
    credentialService,
    tracing: { tracerProvider, recordContent: true },
  });
  const send = async (newMessage: Parameters<Runner['run']>[0]['newMessage']) => {
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'alice', sessionId: 's1', newMessage })) events.push(event);
    return events;
  };
  const [request] = (await send({ role: 'user', parts: [{ text: 'weather?' }] })).flatMap((e) => credentialRequests(e));
  const events = await send(credentialResponse(request, { credential: { apiKey: secret } }));
  expect(events.flatMap((e) => e.functionResponses()).map((r) => r.response)).toEqual([{ gotTheKey: true }]);
  expect(await credentialService.loadCredential({ appName: 'wx', userId: 'alice', authConfigId: 'weather' })).toEqual({ apiKey: secret });
  const session = (await sessionService.getSession({ appName: 'wx', userId: 'alice', sessionId: 's1' }))!;
  const answer = session.events.flatMap((e) => e.content?.parts ?? []).find((part) => part.functionResponse?.id === request.call.id);
  expect(answer?.functionResponse?.response).toEqual({ credential: { apiKey: '[redacted]' } });
  const spans = JSON.stringify(exporter.getFinishedSpans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links })));
  expect(spans).toContain('gotTheKey'); // content was recorded
  return { spans, events };
}

/** Every row of every table of `database`'s schema, as text. */
async function rawSchemaText(database: PostgresDatabase): Promise<string> {
  const tables = await database.query<{ name: string }>({ text: `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1` }, [database.schemaName]);
  expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['events', 'credentials']));
  const rows = await Promise.all(tables.map((t) => database.query<{ row: string }>({ text: `SELECT t::text AS row FROM ${database.schema}."${t.name}" t` })));
  return rows.flat().map((r) => r.row).join('\n');
}
const key = { appName: 'cal', userId: 'alice', authConfigId: 'calendar' };

describe('PostgresCredentialService (PGlite, in memory)', () => {
  // One in-memory PGlite for the file (its initdb costs seconds of CPU); each test has a schema of its own.
  let pglite: PGlite;
  let database: PostgresDatabase;
  beforeAll(() => {
    pglite = new PGlite();
  });
  afterAll(() => pglite.close());
  beforeEach(() => {
    database = PostgresDatabase.open({ pglite, schema: uniqueSchema('cred') });
  });
  afterEach(() => database.close());

  it('stores credentials encrypted: the row holds no token, and the same key reads it back', async () => {
    const service = new PostgresCredentialService({ database, encryptionKey });
    await service.saveCredential(key, { accessToken: 'at-secret-123', refreshToken: 'rt-secret-456', expiresAt: 1_900_000_000_000 });

    const [row] = await database.query<{ secret: string }>({ text: `SELECT secret FROM ${database.schema}.credentials` });
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain('secret-123');
    expect(await new PostgresCredentialService({ database, encryptionKey: encryptionKey.toString('base64') }).loadCredential(key)).toEqual({
      accessToken: 'at-secret-123',
      refreshToken: 'rt-secret-456',
      expiresAt: 1_900_000_000_000,
    });
    await service.deleteCredential(key);
    expect(await service.loadCredential(key)).toBeUndefined();
  });

  it('its tables come with the schema migrations; a database whose tables an earlier release made on first use keeps its rows', async () => {
    const schema = uniqueSchema('cred_upgrade');
    const before = PostgresDatabase.open({ pglite, schema });
    await before.migrate();
    const versions = async (db: PostgresDatabase) => (await db.query<{ version: number }>({ text: `SELECT version FROM ${db.schema}.schema_migrations ORDER BY version` })).map((row) => row.version);
    expect(await versions(before)).toEqual([1, 2, 3, 4, 5]);
    expect(SCHEMA_VERSION).toBe(5);
    await new PostgresCredentialService({ database: before, encryptionKey }).saveCredential(key, { accessToken: 'kept' });
    // What the earlier release left: version 2 recorded, the credential tables made by the service itself.
    await before.query({ text: `DELETE FROM ${before.schema}.schema_migrations WHERE version >= 3` });
    await before.query({ text: `DROP TABLE ${before.schema}.session_claims` });
    await before.query({ text: `DROP TABLE ${before.schema}.confirmation_grants` });
    await before.close();

    const after = PostgresDatabase.open({ pglite, schema });
    expect(await new PostgresCredentialService({ database: after, encryptionKey }).loadCredential(key)).toEqual({ accessToken: 'kept' });
    expect(await versions(after)).toEqual([1, 2, 3, 4, 5]);
    await after.close();
  });

  it('refuses another key, and a ciphertext moved to another user, with CREDENTIAL_DECRYPT_FAILED', async () => {
    const service = new PostgresCredentialService({ database, encryptionKey });
    await service.saveCredential(key, { accessToken: 'alice-token' });
    await expect(new PostgresCredentialService({ database, encryptionKey: randomBytes(32) }).loadCredential(key)).rejects.toMatchObject({ code: 'CREDENTIAL_DECRYPT_FAILED' });

    await database.query({ text: `INSERT INTO ${database.schema}.credentials (app_name, user_id, auth_config_id, secret) SELECT app_name, 'mallory', auth_config_id, secret FROM ${database.schema}.credentials` });
    await expect(service.loadCredential({ ...key, userId: 'mallory' })).rejects.toMatchObject({ code: 'CREDENTIAL_DECRYPT_FAILED' });
    expect(() => new PostgresCredentialService({ database, encryptionKey: randomBytes(16) })).toThrow(/32 random bytes/);
  });

  it('takes a key only as 32 bytes: a Buffer, base64 or hex text; a passphrase that happens to decode is refused with a clear POSTGRES_CONFIG_INVALID', () => {
    const bytes = randomBytes(32);
    for (const given of [bytes, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')]) {
      expect(() => new PostgresCredentialService({ database, encryptionKey: given })).not.toThrow();
    }
    const refused = [
      randomBytes(16),
      randomBytes(32).toString('base64').slice(0, 40), // base64 of 30 bytes
      randomBytes(24).toString('hex'), // hex of 24 bytes: also valid base64, of 36 bytes
      'correct horse battery staple, a passphrase!', // Buffer.from(…, 'base64') skips what it cannot read
      'correcthorsebatterystaplecorrecthorsebatts', // 43 base64 letters, not canonical base64
      'correcthorsebatterystaplecorrecthorsebatterystaplecorrecthorsexy', // 64 letters: base64 of 48 bytes
    ];
    for (const given of refused) {
      expect(() => new PostgresCredentialService({ database, encryptionKey: given })).toThrow(
        expect.objectContaining({ code: 'POSTGRES_CONFIG_INVALID', message: expect.stringMatching(/must be 32 random bytes.*openssl rand -base64 32/) }),
      );
    }
  });

  it('deletes authorizations older than PENDING_AUTHORIZATION_TTL_MS when it saves one', async () => {
    const service = new PostgresCredentialService({ database, encryptionKey });
    const pending = { state: 'st-old', codeVerifier: 'v', key, authConfig: { scheme: 'oauth2AuthorizationCode' as const }, createdAt: Date.now() };
    await service.savePendingAuthorization(pending);
    await database.query({ text: `UPDATE ${database.schema}.pending_authorizations SET created_at = now() - make_interval(secs => $1)` }, [PENDING_AUTHORIZATION_TTL_MS / 1000 + 1]);
    await service.savePendingAuthorization({ ...pending, state: 'st-new' });
    expect(await service.takePendingAuthorization('st-old')).toBeUndefined();
    expect(await service.takePendingAuthorization('st-new')).toMatchObject({ state: 'st-new' });
  });

  it('a credential written under another key (the key was rotated) is deleted and the user asked again, not failed forever', async () => {
    const tool = functionTool({ name: 'weather', description: 'The weather.', auth: { scheme: 'apiKey', name: 'weather' }, execute: (_: unknown, ctx) => ({ key: ctx.credential!.apiKey }) });
    await new PostgresCredentialService({ database, encryptionKey: randomBytes(32) }).saveCredential({ appName: 'cal', userId: 'alice', authConfigId: 'weather' }, { apiKey: 'old' });
    const runner = new Runner({
      appName: 'cal',
      agent: new LlmAgent({ name: 'a', model: new ScriptedModel([{ calls: [{ name: 'weather' }] }, 'done']), tools: [tool] }),
      credentialService: new PostgresCredentialService({ database, encryptionKey }),
    });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'alice', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'weather?' }] } })) events.push(event);
    expect(events.flatMap((e) => credentialRequests(e))).toHaveLength(1);
    expect(events.some((e) => e.errorCode !== undefined)).toBe(false);
    const [row] = await database.query<{ n: number }>({ text: `SELECT count(*)::int AS n FROM ${database.schema}.credentials` });
    expect(row.n).toBe(0);
  });

  it('a typed-in API key reaches the credential service only: no session row, no span holds it (in-memory stores, then PGlite)', async () => {
    const inMemory = new InMemorySessionService();
    const first = await typeInApiKey('sk-live-IN-MEMORY-4242', inMemory, new InMemoryCredentialService());
    expect(JSON.stringify(inMemory.toJSON())).not.toContain('IN-MEMORY-4242');
    expect(first.spans).not.toContain('IN-MEMORY-4242');

    const sessions = new PostgresSessionService({ database });
    const second = await typeInApiKey('sk-live-PGLITE-4242', sessions, new PostgresCredentialService({ database, encryptionKey }));
    const raw = await rawSchemaText(database);
    expect(raw).toContain('[redacted]');
    expect(raw).not.toContain('PGLITE-4242');
    expect(second.spans).not.toContain('PGLITE-4242');
  });

  it('redeems a pending authorization once, even when two takes race', async () => {
    const service = new PostgresCredentialService({ database, encryptionKey });
    const pending = { state: 'st-1', codeVerifier: 'verifier-xyz', key, authConfig: { scheme: 'oauth2AuthorizationCode' as const }, createdAt: Date.now() };
    await service.savePendingAuthorization(pending);
    const [row] = await database.query<{ secret: string }>({ text: `SELECT secret FROM ${database.schema}.pending_authorizations` });
    expect(row.secret).not.toContain('verifier-xyz');

    const [a, b] = await Promise.all([service.takePendingAuthorization('st-1'), service.takePendingAuthorization('st-1')]);
    expect([a, b].filter(Boolean)).toEqual([pending]);
    expect(await service.takePendingAuthorization('st-1')).toBeUndefined();
  });

  it('a credential pause answered in a fresh Runner with a fresh service on the same database (a restart) runs the call', async () => {
    const oauth = await startOAuth2TestServer();
    try {
      const auth: AuthConfig = {
        scheme: 'oauth2AuthorizationCode',
        oauth2: { clientId: oauth.clientId, clientSecret: oauth.clientSecret, authorizationUrl: oauth.authorizationUrl, tokenUrl: oauth.tokenUrl, redirectUri: 'https://app.example/cb' },
      };
      const tool = functionTool({
        name: 'me',
        description: 'Says who the user is.',
        auth,
        // Spread: the JSON comes from fetch's realm, not a plain object of this one.
        execute: async (_: unknown, ctx) => ({ ...((await (await fetch(oauth.apiUrl, { headers: { authorization: `Bearer ${ctx.credential!.accessToken}` } })).json()) as object) }),
      });
      const runnerWith = (model: ScriptedModel, sessionService: InMemorySessionService) =>
        new Runner({ appName: 'cal', agent: new LlmAgent({ name: 'a', model, tools: [tool] }), sessionService, credentialService: new PostgresCredentialService({ database, encryptionKey }) });
      const send = async (runner: Runner, newMessage: Parameters<Runner['run']>[0]['newMessage']) => {
        const events: Event[] = [];
        for await (const event of runner.run({ userId: 'alice', sessionId: 's1', newMessage })) events.push(event);
        return events;
      };
      const sessions = new InMemorySessionService();
      const paused = await send(runnerWith(new ScriptedModel([{ calls: [{ name: 'me' }] }]), sessions), { role: 'user', parts: [{ text: 'who am I?' }] });
      const [request] = paused.flatMap((e) => credentialRequests(e));
      const location = (await fetch(request.authConfig.authUri!, { redirect: 'manual' })).headers.get('location')!;

      const restarted = runnerWith(new ScriptedModel(['You are alice.']), InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(sessions.toJSON()))));
      const events = await send(restarted, credentialResponse(request, { redirectUrl: location }));

      expect(events[0].functionResponses()[0].response).toMatchObject({ subject: 'alice' });
      expect(oauth.tokenRequests).toEqual({ authorization_code: 1 });
    } finally {
      await oauth.close();
    }
  });
});

describe('PostgresCredentialService on a real server, shared by two processes', () => {
  const postgres = useTestPostgres('cred_shared');

  it('a typed-in API key is in no row of the server and in no span: only encrypted, in the credentials table', async () => {
    const database = PostgresDatabase.open({ connectionString: postgres.url, schema: postgres.schema });
    try {
      const { spans } = await typeInApiKey('sk-live-SERVER-4242', new PostgresSessionService({ database }), new PostgresCredentialService({ database, encryptionKey }));
      const raw = await rawSchemaText(database);
      expect(raw).toContain('[redacted]');
      expect(raw).not.toContain('SERVER-4242');
      expect(spans).not.toContain('SERVER-4242');
    } finally {
      await database.close();
    }
  });

  it('refreshes an expired token once: the process that waited for the lock gets the new token and sends no refresh', async () => {
    // The first refresh request is held until the other process is provably waiting: for the lock
    // (an advisory lock not granted), or, were there no lock, at the token endpoint with its own refresh.
    let refreshes = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const oauth = await startOAuth2TestServer({
      beforeRefresh: async () => {
        if (++refreshes === 2) release();
        await released;
      },
    });
    // Two services with their own connection pools: to PostgreSQL, two processes.
    const services = [0, 1].map(() => new PostgresCredentialService({ connectionString: postgres.url, schema: postgres.schema, encryptionKey }));
    try {
      const auth: AuthConfig = {
        scheme: 'oauth2AuthorizationCode',
        oauth2: { clientId: oauth.clientId, clientSecret: oauth.clientSecret, authorizationUrl: oauth.authorizationUrl, tokenUrl: oauth.tokenUrl, redirectUri: 'https://app.example/cb' },
      };
      const tool = functionTool({ name: 'me', description: 'Says who the user is.', auth, execute: (_: unknown, ctx) => ({ token: ctx.credential!.accessToken }) });
      const runnerOn = (credentialService: PostgresCredentialService, script: ConstructorParameters<typeof ScriptedModel>[0]) =>
        new Runner({ appName: 'cal', agent: new LlmAgent({ name: 'a', model: new ScriptedModel(script), tools: [tool] }), credentialService });
      const send = async (runner: Runner, newMessage: Parameters<Runner['run']>[0]['newMessage'], sessionId = 's1') => {
        const events: Event[] = [];
        for await (const event of runner.run({ userId: 'alice', sessionId, newMessage })) events.push(event);
        return events;
      };

      // Alice signs in through the first process; then her access token expires.
      const first = runnerOn(services[0], [{ calls: [{ name: 'me' }] }, 'signed in']);
      const [request] = (await send(first, { role: 'user', parts: [{ text: 'who am I?' }] })).flatMap((e) => credentialRequests(e));
      const location = (await fetch(request.authConfig.authUri!, { redirect: 'manual' })).headers.get('location')!;
      await send(first, credentialResponse(request, { redirectUrl: location }));
      const aliceKey = { appName: 'cal', userId: 'alice', authConfigId: authConfigId(auth) };
      const stored = (await services[0].loadCredential(aliceKey))!;
      await services[0].saveCredential(aliceKey, { ...stored, expiresAt: Date.now() - 1000 });

      const lockWaiters = async () =>
        (await services[0].database.query<{ n: number }>({ text: `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted` }))[0].n;
      const waiting = (async () => {
        while (refreshes < 2 && (refreshes === 0 || (await lockWaiters()) === 0)) await new Promise((resolve) => setImmediate(resolve));
        release();
      })();
      const [a, b] = await Promise.all([
        send(runnerOn(services[0], [{ calls: [{ name: 'me' }] }, 'done']), { role: 'user', parts: [{ text: 'again' }] }, 's2'),
        send(runnerOn(services[1], [{ calls: [{ name: 'me' }] }, 'done']), { role: 'user', parts: [{ text: 'again' }] }, 's3'),
      ]);
      await waiting;

      expect(oauth.tokenRequests.refresh_token).toBe(1);
      const tokens = [a, b].map((events) => events.flatMap((e) => e.functionResponses())[0].response.token);
      expect(tokens[0]).toBe(tokens[1]);
      expect(tokens[0]).not.toBe(stored.accessToken);
      expect(oauth.introspect(tokens[0] as string)).toMatchObject({ subject: 'alice' });
    } finally {
      await Promise.all(services.map((service) => service.database.close()));
      await oauth.close();
    }
  });
});
