import { runSessionStoreConformance } from '@toolsmith/core/testing';
import { Event } from '@toolsmith/core';
import pg from 'pg';
import { PostgresDatabase } from './postgres-database';
import { PostgresSessionService } from './postgres-session-service';
import { SCHEMA_VERSION } from './migrations';
import { dropSchema, uniqueSchema, useTestPostgres } from './__fixtures__/test-postgres';

const server = useTestPostgres('sessions');
const { schema } = server;

runSessionStoreConformance({
  name: 'PostgresSessionService (PGlite, in memory)',
  create: () => PostgresSessionService.embedded(),
  close: (service) => (service as PostgresSessionService).close(),
});

runSessionStoreConformance({
  name: 'PostgresSessionService (pg, real server)',
  create: () => new PostgresSessionService({ connectionString: server.url, schema }),
  close: (service) => (service as PostgresSessionService).close(),
});

const event = (init: Partial<Parameters<typeof Event.create>[0]> = {}) => Event.create({ invocationId: 'i', author: 'agent', ...init });

describe.each([
  ['PGlite', () => PostgresSessionService.embedded({ schema: uniqueSchema() })],
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
