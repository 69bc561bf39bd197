import { randomUUID } from 'node:crypto';
import type { ClaimOutcome, ClaimSessionRequest, EventData, GetSessionRequest, ListSessionsRequest, SessionKey, SessionService } from '@toolsmith/core';
import {
  Event,
  FunctionResponseNotPendingError,
  Session,
  SessionBusyError,
  SessionExistsError,
  SessionNotFoundError,
  StaleSessionError,
  StateConflictError,
  StatePrefix,
} from '@toolsmith/core';
import type { StateOp } from '@toolsmith/core';
import {
  answerClaims,
  applyStateDelta,
  checkAppendRequest,
  checkClaimRequest,
  checkCreateSessionRequest,
  checkFence,
  checkGetSessionRequest,
  checkListSessionsRequest,
  checkReadSessionKey,
  checkSessionKey,
  checkStoredEvent,
  checkStoredState,
  resolveStateOps,
  setStateKey,
  settleStateDelta,
} from '@toolsmith/core/internal';
import type { PostgresConnectionOptions } from './postgres-database';
import { PostgresDatabase } from './postgres-database';
import { splitDelta } from './scoped-delta';
import type { SessionStatements } from './session-statements';
import { sessionStatements } from './session-statements';
import type { SqlExecutor } from './sql-driver';
import { sqlState } from './sql-driver';

/** Options of {@link PostgresSessionService}: a connection (see {@link PostgresConnectionOptions}) or a shared {@link PostgresDatabase}. */
export type PostgresSessionServiceOptions = PostgresConnectionOptions | { database: PostgresDatabase };

/** Options of {@link PostgresSessionService.embedded}. */
export interface EmbeddedSessionServiceOptions {
  /** Directory of the embedded database (created when missing). Default: in memory, gone when the process ends. */
  dataDir?: string;
  /** The PostgreSQL schema holding the tables. Default `toolsmith`. */
  schema?: string;
}

interface SessionRow {
  state: Record<string, unknown>;
  last_sequence: string | number;
  update_time: string | number;
  app_state: Record<string, unknown> | null;
  user_state: Record<string, unknown> | null;
}

/** An event's row of the reading statements (`getSession`, the claim with the load): its data and sequence (1, 2, …). */
interface EventRow {
  data: EventData;
  sequence: string | number;
}

/** The first row of the claim-and-load statement: the claim, and the session's columns when it exists (else null); its events follow, a row each. */
interface ClaimedRow {
  fence: string | number;
  expires_at: string | number;
  last_sequence: string | number | null;
}

/**
 * Keeps sessions in PostgreSQL: a real server through `pg`, or PGlite (PostgreSQL in this process) as
 * the embedded default. Implements the whole {@link SessionService} contract across processes: every
 * append is one statement (one round trip, one transaction) that checks the expected sequence, stores
 * the event, applies its delta to session, `user:` and `app:` state and claims the call ids it answers;
 * a stale writer gets `STALE_SESSION`, a second answer to a call `FUNCTION_RESPONSE_NOT_PENDING`, and
 * nothing of either is stored. Row locks last only for that statement. The schema is created and
 * migrated on first use. See docs/sessions.md.
 *
 * @example
 * ```ts
 * const sessionService = new PostgresSessionService({ connectionString: process.env.DATABASE_URL });
 * const runner = new Runner({ appName: 'shop', agent, sessionService });
 * // or, with no server: sessions in a directory
 * const local = PostgresSessionService.embedded({ dataDir: './.sessions' });
 * ```
 */
export class PostgresSessionService implements SessionService {
  /** The database (connections and schema); pass it to {@link PostgresMemoryService} to share them. */
  readonly database: PostgresDatabase;
  private readonly sql: SessionStatements;

  constructor(options: PostgresSessionServiceOptions) {
    this.database = 'database' in options ? options.database : PostgresDatabase.open(options);
    this.sql = sessionStatements(this.database.schema);
  }

  /** A store on an embedded PGlite database: in `dataDir` (kept across restarts), or in memory. */
  static embedded(options: EmbeddedSessionServiceOptions = {}): PostgresSessionService {
    return new PostgresSessionService({ embedded: true, dataDir: options.dataDir, schema: options.schema });
  }

  /** Creates or migrates the schema now (it happens on first use anyway), e.g. to fail fast at startup. */
  migrate(): Promise<void> {
    return this.database.migrate();
  }

  /** Implements {@link SessionService.createSession}: the row and the initial `app:`/`user:` state in one statement. */
  async createSession(request: { appName: string; userId: string; sessionId?: string; state?: Record<string, unknown> }): Promise<Session> {
    checkCreateSessionRequest(request);
    const id = request.sessionId ?? randomUUID();
    const scoped = splitDelta(request.state ?? {});
    const now = Date.now();
    const [row] = await this.database.query<{ created: boolean; app_state: Record<string, unknown> | null; user_state: Record<string, unknown> | null }>(this.sql.create, [
      request.appName,
      request.userId,
      id,
      JSON.stringify(scoped.session.set),
      JSON.stringify(scoped.user.set),
      JSON.stringify(scoped.app.set),
      now,
    ]);
    if (!row.created) throw new SessionExistsError(id, request.userId);
    if (row.user_state !== null) checkStoredState(id, 'user_state', row.user_state);
    if (row.app_state !== null) checkStoredState(id, 'app_state', row.app_state);
    return new Session({
      id,
      appName: request.appName,
      userId: request.userId,
      state: { ...row.app_state, ...row.user_state, ...scoped.session.set },
      lastUpdateTime: now,
      lastSequence: 0,
    });
  }

  /** Implements {@link SessionService.getSession}: session, scoped state and (selected) events in one statement. */
  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    checkGetSessionRequest(request);
    // The session's row, then a row per event (each event a value of its own: see session-statements.ts).
    const rows = await this.database.query<SessionRow & EventRow>(this.sql.get, [
      request.appName,
      request.userId,
      request.sessionId,
      request.afterTimestamp ?? null,
      request.numRecentEvents ?? null,
    ]);
    if (rows.length === 0) return undefined;
    const session = toSession(request.appName, request.userId, request.sessionId, rows[0]);
    session.events = eventsOf(request.sessionId, rows);
    return session;
  }

  /** Implements {@link SessionService.listSessions}: a page of sessions by id, without events. */
  async listSessions(request: ListSessionsRequest): Promise<Session[]> {
    checkListSessionsRequest(request);
    const rows = await this.database.query<SessionRow & { session_id: string }>(this.sql.list, [request.appName, request.userId, request.after ?? null, request.limit ?? null]);
    return rows.map((row) => toSession(request.appName, request.userId, row.session_id, row));
  }

  /** Implements {@link SessionService.deleteSession}: events and answer claims go with the session (cascade). */
  async deleteSession(request: SessionKey): Promise<void> {
    checkReadSessionKey(request);
    await this.database.query(this.sql.delete, [request.appName, request.userId, request.sessionId]);
  }

  /**
   * Implements {@link SessionService.appendEvent}: one statement checks the sequence, stores the event,
   * applies the delta to every scope and claims the answered call ids; a refusal costs a second one to say why.
   * An event with state updates applied in the append (`stateOps`: increments, compare-and-sets) is one
   * transaction instead: it first locks and reads the state rows of their keys (session, then `user:`,
   * then `app:`, the append's own lock order), resolves the updates against them, then runs the same statement.
   */
  async appendEvent(session: Session, event: Event): Promise<Event> {
    checkAppendRequest(session, event);
    if (event.partial) return event;
    // Read once: what is stored and what is applied to the session are the same values.
    const delta = settleStateDelta(event.actions);
    // `temp:` keys live only for the invocation; the stored event must not carry them either.
    for (const key of Object.keys(delta)) if (key.startsWith(StatePrefix.TEMP)) delete delta[key];
    const ops = event.actions.stateOps;
    const claims = answerClaims(event);
    let rows: Array<{ last_sequence: string | number }>;
    let results: Record<string, number> = {};
    let conflict: StateConflictError | undefined;
    try {
      if (ops) {
        ({ rows, results } = await this.database.transaction(async (tx) => {
          const resolved = await this.resolveOps(tx, session, ops);
          if (!resolved) return { rows: [], results: {} };
          return { rows: await tx.query<{ last_sequence: string | number }>(this.sql.append, this.appendValues(session, event, claims, resolved)), results: resolved };
        }));
      } else {
        rows = await this.database.query(this.sql.append, this.appendValues(session, event, claims, results));
      }
    } catch (error) {
      if (error instanceof StateConflictError) conflict = error;
      // A unique violation can only be the answered-call key: this event answers a call answered before.
      else if (sqlState(error) !== '23505') throw error;
      rows = [];
    }
    if (rows.length === 0) throw (await this.refusal(session, claims)) ?? conflict ?? new StaleSessionError(session.id, session.lastSequence, session.lastSequence);
    for (const key of Object.keys(results)) setStateKey(delta, key, results[key]);
    applyStateDelta(session.state, delta);
    session.events.push(event);
    session.lastUpdateTime = event.timestamp;
    session.lastSequence = Number(rows[0].last_sequence);
    return event;
  }

  /** The append statement's values; `results` (the increments' values) replace theirs in the delta and the stored event. */
  private appendValues(session: Session, event: Event, claims: string[], results: Record<string, number>): unknown[] {
    const plain = Object.keys(results).length === 0;
    const delta = plain ? event.actions.stateDelta : { ...event.actions.stateDelta, ...results };
    const scoped = splitDelta(delta);
    const data = plain ? event : { ...event.toJSON(), actions: { ...event.actions, stateDelta: delta } };
    return [
      session.appName,
      session.userId,
      session.id,
      session.lastSequence,
      event.id,
      event.invocationId,
      event.author,
      event.timestamp,
      JSON.stringify(data),
      JSON.stringify(scoped.session.set),
      scoped.session.removed,
      JSON.stringify(scoped.user.set),
      scoped.user.removed,
      JSON.stringify(scoped.app.set),
      scoped.app.removed,
      claims,
      session.fence ?? null,
    ];
  }

  /**
   * Locks (for this transaction) and reads the state rows the updates' keys live in, in the append's
   * lock order, and resolves the updates against them: their values, `undefined` when the session is
   * missing, or `StateConflictError`.
   */
  private async resolveOps(tx: SqlExecutor, session: Session, ops: Record<string, StateOp>): Promise<Record<string, number> | undefined> {
    const keys = Object.keys(ops);
    const [own] = await tx.query<{ state: Record<string, unknown> }>(this.sql.lockSessionState, [session.appName, session.userId, session.id]);
    if (!own) return undefined;
    checkStoredState(session.id, 'sessions.state', own.state);
    const stored: Record<string, unknown> = { ...own.state };
    if (keys.some((key) => key.startsWith(StatePrefix.USER))) {
      const [row] = await tx.query<{ state: Record<string, unknown> }>(this.sql.lockUserState, [session.appName, session.userId]);
      checkStoredState(session.id, 'user_state', row.state);
      Object.assign(stored, row.state);
    }
    if (keys.some((key) => key.startsWith(StatePrefix.APP))) {
      const [row] = await tx.query<{ state: Record<string, unknown> }>(this.sql.lockAppState, [session.appName]);
      checkStoredState(session.id, 'app_state', row.state);
      Object.assign(stored, row.state);
    }
    return resolveStateOps(ops, (key) => (Object.prototype.hasOwnProperty.call(stored, key) ? stored[key] : undefined));
  }

  /**
   * Implements {@link SessionService.claimSession}: one statement (a second one says who holds a busy
   * session), on the database's clock. With `load` (the runner's claims) the same statement also reads
   * the session, as `getSession` does; only when its snapshot predates an append in progress is there
   * no `loaded` (the caller reads the session with a second statement).
   */
  async claimSession(request: ClaimSessionRequest): Promise<ClaimOutcome> {
    checkClaimRequest(request, request.leaseMs);
    const key = [request.appName, request.userId, request.sessionId];
    if (request.load) {
      const rows = await this.database.query<ClaimedRow & SessionRow & EventRow>(this.sql.claimAndLoad, [...key, request.holder, request.leaseMs]);
      if (rows.length > 0) {
        const granted = rows[0];
        const claim = { fence: Number(granted.fence), expiresAt: Number(granted.expires_at) };
        if (granted.last_sequence === null) return { claimed: true, claim, loaded: { session: undefined } };
        // Events that do not reach the locked row's sequence: the snapshot predates an append, so no load.
        if (Number(rows[rows.length - 1].sequence) !== Number(granted.last_sequence)) return { claimed: true, claim };
        const session = toSession(request.appName, request.userId, request.sessionId, granted);
        session.events = eventsOf(request.sessionId, rows);
        return { claimed: true, claim, loaded: { session } };
      }
    } else {
      const [granted] = await this.database.query<{ fence: string | number; expires_at: string | number }>(this.sql.claim, [...key, request.holder, request.leaseMs]);
      if (granted) return { claimed: true, claim: { fence: Number(granted.fence), expiresAt: Number(granted.expires_at) } };
    }
    const [held] = await this.database.query<{ holder: string; expires_at: string | number }>(this.sql.claimHolder, key);
    // Released between the two statements: busy no longer, and the caller's next attempt gets it.
    return { claimed: false, holder: held?.holder ?? request.holder, expiresAt: held ? Number(held.expires_at) : 0 };
  }

  /** Implements {@link SessionService.renewClaim}. */
  async renewClaim(key: SessionKey, fence: number, leaseMs: number): Promise<boolean> {
    checkClaimRequest(key, leaseMs);
    checkFence(fence);
    const rows = await this.database.query(this.sql.renewClaim, [key.appName, key.userId, key.sessionId, fence, leaseMs]);
    return rows.length > 0;
  }

  /** Implements {@link SessionService.releaseClaim}. */
  async releaseClaim(key: SessionKey, fence: number): Promise<void> {
    checkSessionKey(key);
    checkFence(fence);
    await this.database.query(this.sql.releaseClaim, [key.appName, key.userId, key.sessionId, fence]);
  }

  /** Closes the connections (or embedded database) this store opened itself. */
  close(): Promise<void> {
    return this.database.close();
  }

  /** Why an append stored nothing: a missing session, a claimed answer, another run's claim, or a stale sequence (in that order); `undefined` when none of them (a state conflict). */
  private async refusal(session: Session, claims: string[]): Promise<Error | undefined> {
    const [row] = await this.database.query<{
      last_sequence: string | number | null;
      claimed: string[];
      holder: string | null;
      fence: string | number | null;
      expires_at: string | number | null;
      live: boolean | null;
    }>(this.sql.appendRefusal, [
      session.appName,
      session.userId,
      session.id,
      claims,
    ]);
    if (row.last_sequence === null) return new SessionNotFoundError(session.id, session.userId, session.appName);
    if (row.claimed.length > 0) return new FunctionResponseNotPendingError(row.claimed[0], 'answered');
    if (row.fence !== null && Number(row.fence) !== session.fence && (session.fence !== undefined || row.live)) {
      return new SessionBusyError(session.id, row.holder ?? undefined, Number(row.expires_at));
    }
    if (Number(row.last_sequence) !== session.lastSequence) return new StaleSessionError(session.id, session.lastSequence, Number(row.last_sequence));
    return undefined;
  }
}

/** The events of a reading statement's rows: every row after the first (the session's or the claim's), in order. */
function eventsOf(sessionId: string, rows: readonly EventRow[]): Event[] {
  const events = new Array<Event>(rows.length - 1);
  for (let index = 1; index < rows.length; index++) {
    const { data, sequence } = rows[index];
    // A row edited by hand is refused, naming it, never read as an invented event.
    checkStoredEvent(sessionId, Number(sequence), data);
    events[index - 1] = Event.fromJSON(data);
  }
  return events;
}

function toSession(appName: string, userId: string, id: string, row: SessionRow): Session {
  checkStoredState(id, 'sessions.state', row.state);
  if (row.user_state !== null) checkStoredState(id, 'user_state', row.user_state);
  if (row.app_state !== null) checkStoredState(id, 'app_state', row.app_state);
  return new Session({
    id,
    appName,
    userId,
    state: { ...row.app_state, ...row.user_state, ...row.state },
    lastUpdateTime: Number(row.update_time),
    lastSequence: Number(row.last_sequence),
  });
}
