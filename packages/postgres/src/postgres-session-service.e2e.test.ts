import { PGlite } from '@electric-sql/pglite';
import { ScriptedModel, collect, runSessionStoreConformance } from '@toolsmith/core/testing';
import { Event, LlmAgent, Runner, type Session, functionTool } from '@toolsmith/core';
import pg from 'pg';
import { PostgresDatabase } from './postgres-database';
import { PostgresSessionService } from './postgres-session-service';
import { SCHEMA_VERSION } from './migrations';
import { PgliteDriver } from './pglite-driver';
import { TRANSACTION_IDLE_LIMIT_MS } from './pg-driver';
import type { SqlDriver, SqlStatement } from './sql-driver';
import { dropSchema, uniqueSchema, useTestPostgres } from './__fixtures__/test-postgres';

const server = useTestPostgres('sessions');
const { schema } = server;
// One in-memory PGlite for the file (its initdb costs seconds of CPU): each PGlite store below has a schema of its own.
let pglite: PGlite;
beforeAll(() => {
  pglite = new PGlite();
});
afterAll(() => pglite.close());

runSessionStoreConformance({
  name: 'PostgresSessionService (PGlite, in memory)',
  create: () => new PostgresSessionService({ pglite, schema: uniqueSchema() }),
  close: (service) => (service as PostgresSessionService).close(),
});

runSessionStoreConformance({
  name: 'PostgresSessionService (pg, real server)',
  create: () => new PostgresSessionService({ connectionString: server.url, schema }),
  close: (service) => (service as PostgresSessionService).close(),
});

/** A promise the test resolves: how tests here wait for each other, never for time. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const event = (init: Partial<Parameters<typeof Event.create>[0]> = {}) => Event.create({ invocationId: 'i', author: 'agent', ...init });

describe.each([
  ['PGlite', () => new PostgresSessionService({ pglite, schema: uniqueSchema() })],
  ['pg', () => new PostgresSessionService({ connectionString: server.url, schema: uniqueSchema() })],
])('PostgresSessionService on %s', (_driver, create) => {
  let service: PostgresSessionService;
  beforeAll(() => {
    service = create();
  });
  afterAll(async () => {
    if (service.database.kind === 'pg') await dropSchema(server.url, service.database.schemaName);
    await service.close();
  });

  it('sends one statement (one round trip) per append, per read and per create, whatever the delta', async () => {
    await service.migrate();
    const before = service.database.statements;
    const session = await service.createSession({ appName: 'a', userId: 'u', sessionId: 's', state: { 'app:x': 1, 'user:y': 2, z: 3 } });
    await service.appendEvent(session, event({ actions: { stateDelta: { 'app:x': null, 'user:y': 3, z: null, w: [1] }, artifactDelta: {} } }));
    await service.appendEvent(session, event({ author: 'user', content: { role: 'user', parts: [{ functionResponse: { id: 'c', name: 'n', response: {} } }] } }));
    await service.getSession({ appName: 'a', userId: 'u', sessionId: 's' });
    expect(service.database.statements - before).toBe(4);
    // A refused append costs a second statement, to say why.
    const stale = (await service.getSession({ appName: 'a', userId: 'u', sessionId: 's' }))!;
    await service.appendEvent(session, event());
    const beforeRefusal = service.database.statements;
    await expect(service.appendEvent(stale, event())).rejects.toMatchObject({ code: 'STALE_SESSION', expectedSequence: 2, actualSequence: 3 });
    expect(service.database.statements - beforeRefusal).toBe(2);
  });

  it('runs a turn (message → tool call → answer) in 6 statements on an existing session and 7 on a new one: the claim reads the session', async () => {
    const lookup = functionTool({ name: 'lookup', description: 'Looks it up.', parameters: { type: 'object', properties: {} }, execute: () => ({ found: true }) });
    const model = new ScriptedModel((request) => (request.contents[request.contents.length - 1].parts[0]?.functionResponse ? 'Found it.' : { calls: [{ name: 'lookup', args: {} }] }));
    // A lease no turn outlasts, so no renewal is sent during one, however slow the machine.
    const runner = new Runner({ appName: 'turns', agent: new LlmAgent({ name: 'agent', model, tools: [lookup] }), sessionService: service, sessionClaim: { leaseMs: 3_600_000 } });
    await service.migrate();
    const turn = async () => {
      const before = service.database.statements;
      const events = await collect(runner.run({ userId: 'u', sessionId: 'turns', newMessage: { role: 'user', parts: [{ text: 'Find it.' }] } }));
      expect(events.map((e) => e.errorCode)).toEqual([undefined, undefined, undefined]);
      expect(events[2].text()).toBe('Found it.');
      return service.database.statements - before;
    };
    // Claim (reading the session: none), create, the user message, the call, the result, the answer, release.
    expect(await turn()).toBe(7);
    // Claim (reading the session), the 4 appends, release: the load costs no statement of its own.
    expect(await turn()).toBe(6);
    expect(await turn()).toBe(6);
    const stored = (await service.getSession({ appName: 'turns', userId: 'u', sessionId: 'turns' }))!;
    expect([stored.lastSequence, stored.events.map((e) => e.author)]).toEqual([12, ['user', 'agent', 'agent', 'agent', 'user', 'agent', 'agent', 'agent', 'user', 'agent', 'agent', 'agent']]);
  });

  it('counts every round trip of a turn whose tool increments state of all three scopes: 11 on an existing session (the result\'s append is 6)', async () => {
    const count = functionTool({
      name: 'count',
      description: 'Counts.',
      parameters: { type: 'object', properties: {} },
      execute: (_args, ctx) => ({ n: [ctx.state.increment('count'), ctx.state.increment('user:count'), ctx.state.increment('app:count')] }),
    });
    const model = new ScriptedModel((request) => (request.contents[request.contents.length - 1].parts[0]?.functionResponse ? 'Counted.' : { calls: [{ name: 'count', args: {} }] }));
    const runner = new Runner({ appName: 'counts', agent: new LlmAgent({ name: 'agent', model, tools: [count] }), sessionService: service, sessionClaim: { leaseMs: 3_600_000 } });
    const turn = async () => {
      const before = service.database.statements;
      const events = await collect(runner.run({ userId: 'u', sessionId: 'counts', newMessage: { role: 'user', parts: [{ text: 'Count.' }] } }));
      expect(events.map((e) => e.errorCode)).toEqual([undefined, undefined, undefined]);
      return service.database.statements - before;
    };
    // Claim, create, the user message, the call, the result (BEGIN, the session row FOR UPDATE, the user
    // row, the app row, the append, COMMIT), the answer, release.
    expect(await turn()).toBe(12);
    expect(await turn()).toBe(11);
    const stored = (await service.getSession({ appName: 'counts', userId: 'u', sessionId: 'counts' }))!;
    expect([stored.state.count, stored.state['user:count'], stored.state['app:count']]).toEqual([2, 2, 2]);
  });

  it('reads with a claim exactly what getSession reads: events, state of every scope, sequence, time; nothing for a missing session', async () => {
    const key = { appName: 'load', userId: 'u', sessionId: 's' };
    const session = await service.createSession({ ...key, state: { 'app:a': 1, 'user:b': 2, c: 3 } });
    await service.appendEvent(session, event({ content: { role: 'model', parts: [{ text: 'first' }] }, actions: { stateDelta: { 'user:b': 4, d: { e: [1, 'x'] } }, artifactDelta: {} } }));
    await service.appendEvent(session, event({ author: 'user', content: { role: 'user', parts: [{ text: 'second' }] } }));
    // Another session of the user changes `user:` state: the claim reads it too.
    const other = await service.createSession({ ...key, sessionId: 'other' });
    await service.appendEvent(other, event({ actions: { stateDelta: { 'user:f': 5, 'app:g': 6 }, artifactDelta: {} } }));

    const outcome = await service.claimSession({ ...key, holder: 'run-1', leaseMs: 60_000, load: true });
    expect(outcome.claimed && outcome.loaded?.session).toBeDefined();
    const loaded = (outcome as { loaded: { session: Session } }).loaded.session;
    expect(loaded.toJSON()).toEqual((await service.getSession(key))!.toJSON());
    expect([loaded.lastSequence, loaded.state]).toEqual([2, { 'app:a': 1, 'app:g': 6, 'user:b': 4, 'user:f': 5, c: 3, d: { e: [1, 'x'] } }]);

    const missing = await service.claimSession({ ...key, sessionId: 'missing', holder: 'run-2', leaseMs: 60_000, load: true });
    expect(missing).toMatchObject({ claimed: true, loaded: { session: undefined } });
    // Not granted: the holder, and nothing read.
    expect(await service.claimSession({ ...key, holder: 'run-3', leaseMs: 60_000, load: true })).toEqual({ claimed: false, holder: 'run-1', expiresAt: expect.any(Number) });
  });

  it('stores an append whole or not at all: a value the database refuses mid-statement leaves event, state and sequence as they were', async () => {
    const session = await service.createSession({ appName: 'atomic', userId: 'u', sessionId: 's', state: { keep: 1 } });
    // Event payloads are `json` (kept as written, NUL escapes included); state is `jsonb`, which refuses NUL.
    const nul = event({ content: { role: 'model', parts: [{ text: 'a\u0000b' }] }, actions: { stateDelta: { ok: 1 }, artifactDelta: {} } });
    await service.appendEvent(session, nul);
    const refused = event({ actions: { stateDelta: { 'user:x': 1, broken: 'a\u0000b', 'app:y': 2 }, artifactDelta: {} } });
    await expect(service.appendEvent(session, refused)).rejects.toThrow();

    const stored = (await service.getSession({ appName: 'atomic', userId: 'u', sessionId: 's' }))!;
    expect(stored.events.map((e) => e.text())).toEqual(['a\u0000b']);
    expect([stored.state, stored.lastSequence, session.lastSequence]).toEqual([{ keep: 1, ok: 1 }, 1, 1]);
    expect((await service.createSession({ appName: 'atomic', userId: 'u', sessionId: 's2' })).state).toEqual({});
  });

  it('refuses rows edited by hand with SESSION_CORRUPT naming the row, never an invented event or state keys "0", "1"', async () => {
    const s = service.database.schema;
    const edit = (text: string, values: unknown[]) => service.database.query({ text }, values);
    const key = (sessionId: string) => ({ appName: 'corrupt', userId: 'u', sessionId });
    const cases: Array<[string, string, string]> = [
      ['data-null', `UPDATE ${s}.events SET data = 'null' WHERE app_name = 'corrupt' AND session_id = $1 AND sequence = 1`, 'event 1'],
      ['data-empty', `UPDATE ${s}.events SET data = '{}' WHERE app_name = 'corrupt' AND session_id = $1 AND sequence = 1`, 'event 1'],
      ['data-string', `UPDATE ${s}.events SET data = '"hello"' WHERE app_name = 'corrupt' AND session_id = $1 AND sequence = 1`, 'event 1'],
      ['state-array', `UPDATE ${s}.sessions SET state = '[1,2]' WHERE app_name = 'corrupt' AND session_id = $1`, 'sessions.state'],
      ['state-huge', `UPDATE ${s}.sessions SET state = '{"n": 1e400}' WHERE app_name = 'corrupt' AND session_id = $1`, 'sessions.state'],
    ];
    for (const [id, statement, row] of cases) {
      const session = await service.createSession(key(id));
      await service.appendEvent(session, event({ content: { role: 'model', parts: [{ text: 'x' }] } }));
      await edit(statement, [id]);
      await expect(service.getSession(key(id))).rejects.toMatchObject({ code: 'SESSION_CORRUPT', sessionId: id, row });
      await expect(service.claimSession({ ...key(id), holder: 'h', leaseMs: 0, load: true })).rejects.toMatchObject({ code: 'SESSION_CORRUPT', row });
    }
    await expect(service.listSessions({ appName: 'corrupt', userId: 'u' })).rejects.toMatchObject({ code: 'SESSION_CORRUPT', row: 'sessions.state' });
    await edit(`INSERT INTO ${s}.app_state (app_name, state) VALUES ('corrupt', '"str"') ON CONFLICT (app_name) DO UPDATE SET state = excluded.state`, []);
    await expect(service.createSession(key('new'))).rejects.toMatchObject({ code: 'SESSION_CORRUPT', row: 'app_state' });
    const other = await service.createSession({ appName: 'corrupt-2', userId: 'u', sessionId: 's' });
    await edit(`INSERT INTO ${s}.user_state (app_name, user_id, state) VALUES ('corrupt-2', 'u', '[1,2]')`, []);
    await expect(service.appendEvent(other, event({ actions: { stateDelta: { 'user:n': 1 }, artifactDelta: {}, stateOps: { 'user:n': { op: 'increment', by: 1 } } } as never }))).rejects.toMatchObject({ code: 'SESSION_CORRUPT', row: 'user_state' });
  });

  it('creates the schema at the current version once, and migrating again changes nothing', async () => {
    await service.migrate();
    const other = new PostgresSessionService({ database: service.database });
    await other.migrate();
    const rows = await service.database.query<{ version: number }>({ text: `SELECT version FROM ${service.database.schema}.schema_migrations ORDER BY version` });
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
  });

  it('refuses a database migrated by a newer package with POSTGRES_SCHEMA_TOO_NEW', async () => {
    await service.database.query({ text: `INSERT INTO ${service.database.schema}.schema_migrations (version, description) VALUES (999, 'from the future')` });
    try {
      const stale = service.database.kind === 'pg'
        ? new PostgresSessionService({ connectionString: server.url, schema: service.database.schemaName })
        : undefined;
      if (stale) {
        await expect(stale.migrate()).rejects.toMatchObject({ code: 'POSTGRES_SCHEMA_TOO_NEW', databaseVersion: 999, knownVersion: SCHEMA_VERSION });
        await stale.close();
      }
    } finally {
      await service.database.query({ text: `DELETE FROM ${service.database.schema}.schema_migrations WHERE version = 999` });
    }
  });
});

// A session grown past V8's longest string (~512 MiB of JSON) killed every process that loaded it when its
// events came as one aggregated value (ERR_STRING_TOO_LONG, uncaught, inside pg-protocol). The reads now
// return a row per event: no value read is longer than the longest event, whatever the session's size.
describe('PostgresSessionService reading a session', () => {
  it('reads events a row each (getSession and the claim with the load): no value holds more than one event', async () => {
    const inner = new PgliteDriver(pglite, false);
    const values: number[] = [];
    const recording: SqlDriver = {
      kind: 'pglite',
      query: async <Row>(statement: SqlStatement, params?: readonly unknown[]) => {
        const rows = await inner.query<Row>(statement, params);
        for (const row of rows as Array<Record<string, unknown>>) for (const value of Object.values(row)) values.push(JSON.stringify(value ?? null).length);
        return rows;
      },
      transaction: (work) => inner.transaction(work),
      close: () => inner.close(),
    };
    const service = new PostgresSessionService({ database: new PostgresDatabase(recording, uniqueSchema()) });
    const key = { appName: 'a', userId: 'u', sessionId: 's' };
    const session = await service.createSession(key);
    const text = 'x'.repeat(20_000);
    for (let i = 0; i < 5; i++) await service.appendEvent(session, event({ content: { role: 'model', parts: [{ text: `${i}${text}` }] } }));
    values.length = 0;
    const read = (await service.getSession(key))!;
    const claimed = await service.claimSession({ ...key, holder: 'h', leaseMs: 1_000, load: true });
    expect(read.events.map((e) => e.text()!.slice(0, 1))).toEqual(['0', '1', '2', '3', '4']);
    expect(claimed).toMatchObject({ claimed: true, loaded: { session: { lastSequence: 5 } } });
    expect(claimed.claimed && claimed.loaded!.session!.events.map((e) => e.text()!.slice(0, 1))).toEqual(['0', '1', '2', '3', '4']);
    expect(Math.max(...values)).toBeGreaterThan(20_000);
    expect(Math.max(...values)).toBeLessThan(2 * 20_000);
    await service.close();
  });
});

describe('PostgresSessionService on a real server', () => {
  it('migrates safely when many stores start at once on an empty schema', async () => {
    const fresh = uniqueSchema('race');
    const stores = Array.from({ length: 6 }, () => new PostgresSessionService({ connectionString: server.url, schema: fresh, poolSize: 2 }));
    try {
      await Promise.all(stores.map((store) => store.migrate()));
      const [first] = stores;
      const rows = await first.database.query<{ version: number }>({ text: `SELECT version FROM "${fresh}".schema_migrations ORDER BY version` });
      expect(rows.map((r) => r.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
      await first.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
      expect(await stores[5].getSession({ appName: 'a', userId: 'u', sessionId: 's' })).toBeDefined();
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await dropSchema(server.url, fresh);
    }
  });

  it('reads nothing with a claim whose snapshot predates an append in progress: the runner then reads the session itself', async () => {
    const own = uniqueSchema('snapshot');
    const service = new PostgresSessionService({ connectionString: server.url, schema: own });
    const writer = new pg.Client({ connectionString: server.url });
    await writer.connect();
    try {
      const key = { appName: 'a', userId: 'u', sessionId: 's' };
      await service.appendEvent(await service.createSession(key), event());
      // A writer that claims nothing appends (as the store's append does) and has not committed yet.
      await writer.query('BEGIN');
      await writer.query(`UPDATE "${own}".sessions SET last_sequence = 2 WHERE app_name = 'a' AND user_id = 'u' AND session_id = 's'`);
      const late = event({ content: { role: 'model', parts: [{ text: 'late' }] } });
      await writer.query(`INSERT INTO "${own}".events (app_name, user_id, session_id, sequence, event_id, invocation_id, author, event_time, data) VALUES ('a', 'u', 's', 2, $1, 'i', 'agent', 0, $2)`, [late.id, JSON.stringify(late)]);
      // The claim's statement starts now (its snapshot without the append) and waits for the session row.
      const claimed = service.claimSession({ ...key, holder: 'run', leaseMs: 60_000, load: true });
      // (Polled until the claim's backend waits for the writer's row lock.)
      const waiting = { text: `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%"${own}".session_claims%' AND pid <> pg_backend_pid()` };
      while ((await service.database.query<{ n: number }>(waiting))[0].n === 0);
      await writer.query('COMMIT');
      const outcome = await claimed;
      expect(outcome).toEqual({ claimed: true, claim: { fence: 1, expiresAt: expect.any(Number) } });
      expect((await service.getSession(key))!.events.map((e) => e.text())).toEqual(['', 'late']);
    } finally {
      await writer.end();
      await service.close();
      await dropSchema(server.url, own);
    }
  });

  it('ends a transaction left idle by a frozen process after TRANSACTION_IDLE_LIMIT_MS: a writer blocked on its row lock goes on', async () => {
    const own = uniqueSchema('frozen');
    const service = new PostgresSessionService({ connectionString: server.url, schema: own });
    try {
      const other = await service.createSession({ appName: 'a', userId: 'v', sessionId: 's' });
      const locked = deferred();
      const resume = deferred();
      // A process frozen inside an increment's transaction: it holds the app: row's lock, and sends nothing.
      const frozen = service.database.transaction(async (tx) => {
        expect((await tx.query<{ limit: string }>({ text: `SELECT current_setting('idle_in_transaction_session_timeout') AS limit` }))[0].limit).toBe(`${TRANSACTION_IDLE_LIMIT_MS / 1000}s`);
        await tx.query({ text: `INSERT INTO "${own}".app_state (app_name, state) VALUES ('a', '{}') ON CONFLICT (app_name) DO UPDATE SET state = excluded.state` });
        locked.resolve();
        await resume.promise;
        await tx.query({ text: 'SELECT 1' });
      });
      const settled = frozen.then(() => 'committed', (error: unknown) => `rejected: ${String(error)}`);
      await locked.promise;
      // Another app: writer waits for that lock: until the server ends the idle transaction, not without end.
      await service.appendEvent(other, event({ actions: { stateDelta: { 'app:n': 1 }, artifactDelta: {} } }));
      resume.resolve();
      expect(await settled).toMatch(/^rejected: /);
      expect((await service.getSession({ appName: 'a', userId: 'v', sessionId: 's' }))!.state).toEqual({ 'app:n': 1 });
    } finally {
      await service.close();
      await dropSchema(server.url, own);
    }
  }, 60_000);

  it("uses an application's pg.Pool and leaves it open on close()", async () => {
    const pool = new pg.Pool({ connectionString: server.url, max: 2 });
    const own = uniqueSchema('pool');
    const service = new PostgresSessionService({ pool, schema: own });
    await service.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
    await service.close();
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await dropSchema(server.url, own);
    await pool.end();
  });

  it('refuses options naming no connection, two connections, or a schema that is not a plain name', () => {
    expect(() => new PostgresSessionService({})).toThrow(expect.objectContaining({ code: 'POSTGRES_CONFIG_INVALID' }));
    expect(() => new PostgresSessionService({ connectionString: server.url, embedded: true })).toThrow(expect.objectContaining({ code: 'POSTGRES_CONFIG_INVALID' }));
    expect(() => PostgresDatabase.open({ embedded: true, schema: 'x"; DROP TABLE y; --' })).toThrow(expect.objectContaining({ code: 'POSTGRES_CONFIG_INVALID' }));
  });
});
