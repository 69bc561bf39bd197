import { randomUUID } from 'node:crypto';
import { FunctionResponseNotPendingError } from '../errors/function-response-not-pending-error';
import { SessionBusyError, SessionExistsError, SessionNotFoundError, StaleSessionError } from '../errors/session-errors';
import { Event, type EventData } from '../events/event';
import { StatePrefix } from '../state/state';
import { resolveStateOps } from '../state/state-ops';
import { answerClaims } from './answer-claims';
import { Session } from './session';
import type { ClaimOutcome, ClaimSessionRequest } from './session-claim';
import type { GetSessionRequest, ListSessionsRequest, SessionKey, SessionService } from './session-service';
import { type SynchronousClaimOutcome, registerSynchronousWrites } from './synchronous-session-writes';
import { NestedMap } from './nested-map';

/** What an {@link InMemorySessionService} holds for one session: only its own (unprefixed) state. */
interface StoredSession {
  id: string;
  state: Record<string, unknown>;
  events: Event[];
  lastUpdateTime: number;
  /** Sequence of the last stored event; events are numbered 1, 2, … per session. */
  lastSequence: number;
  /** Call ids answered by the user's events (see `answerClaims`): each is answered once. Made with the first answer. */
  answered?: Set<string>;
  /** The session's entry in `claims`, linked whenever both exist, so each append checks it without a lookup. */
  claim?: StoredClaim;
}

/** The session a claim is on. */
interface ClaimParts {
  appName: string;
  userId: string;
  sessionId: string;
}

/** A session's latest claim in an {@link InMemorySessionService}; `lapsesAt` on its monotonic clock. */
interface StoredClaim extends ClaimParts {
  holder: string;
  fence: number;
  lapsesAt: number;
}

/** The plain-JSON form of an {@link InMemorySessionService}, for {@link InMemorySessionService.fromJSON}. */
export interface InMemorySessionServiceData {
  /** appName → userId → sessions (each with only its session-scoped state). */
  sessions: Record<string, Record<string, Array<{ id: string; state: Record<string, unknown>; events: EventData[]; lastUpdateTime: number; lastSequence?: number }>>>;
  /** appName → `app:` keys. */
  appState: Record<string, Record<string, unknown>>;
  /** appName → userId → `user:` keys. */
  userState: Record<string, Record<string, Record<string, unknown>>>;
  /**
   * Claim key → the last fencing number granted on that session (absent in data of earlier releases).
   * Restored as lapsed claims, so fencing numbers keep growing after a move and a writer from before it is refused.
   */
  fences?: Record<string, number>;
  /**
   * The last fencing number granted on any session (absent in data of earlier releases). Every claim's
   * number is larger than all before it, so one of a forgotten claim (see {@link InMemorySessionService})
   * is never granted again.
   */
  lastFence?: number;
}

/** Options of {@link InMemorySessionService}. */
export interface InMemorySessionServiceOptions {
  /**
   * The clock claim leases run on: milliseconds that only move forward, whatever the wall clock does.
   * Default `performance.now()`. Tests pass their own to move time without waiting.
   */
  monotonicClock?: () => number;
}

/**
 * Keeps sessions in process memory, with the state scope rules of {@link SessionService}. For tests,
 * demos and single-process apps; {@link InMemorySessionService.toJSON} / `fromJSON` let a later store
 * persist everything it holds. Claim leases lapse on a monotonic clock (`performance.now()`), so a jump
 * of the wall clock never makes a living holder's claim look expired; the `expiresAt` it reports is
 * that moment on the wall clock, as of the call.
 */
export class InMemorySessionService implements SessionService {
  /** appName → userId → sessionId → the session. */
  private readonly sessions = new NestedMap<StoredSession>();
  private readonly appState = new Map<string, Record<string, unknown>>();
  private readonly userState = new Map<string, Map<string, Record<string, unknown>>>();
  /**
   * appName → userId → sessionId → the session's latest claim; `lapsesAt` on the monotonic clock. A
   * claim that is released or lapsed on a session that does not exist is forgotten: fencing numbers come
   * from `lastFence`, which only grows, so the session's next claim still gets a larger number than any
   * before.
   */
  private readonly claims = new NestedMap<StoredClaim>();
  /**
   * Claims granted or kept on a session that did not exist then (a run claims before it creates; a live
   * claim outlives its session's deletion), oldest first. If such a claim lapses with its session still
   * missing, nothing else would ever look at it: each later claim checks the first two here, forgets
   * those lapsed, and puts those still live at the end.
   */
  private readonly claimsWithoutSession = new Set<StoredClaim>();
  /** The last fencing number granted, on any session. */
  private lastFence = 0;
  private readonly now: () => number;

  constructor(options: InMemorySessionServiceOptions = {}) {
    this.now = options.monotonicClock ?? (() => performance.now());
    // The runner's writes without an await each (see synchronous-session-writes.ts): the same steps, called directly.
    registerSynchronousWrites(this, InMemorySessionService.prototype, {
      appendEvent: (session, event) => this.appendNow(session, event),
      claimSession: (request) => this.claimNow(request),
      releaseClaim: (key, fence) => this.releaseNow(key, fence),
      createSession: (key) => this.createNow(key),
    });
  }

  /** A moment of the monotonic clock as milliseconds since the epoch (the wall clock now, plus the time left); `now` is the monotonic clock's reading, when the caller has one. */
  private wallTime(lapsesAt: number, now = this.now()): number {
    return lapsesAt === -Infinity ? 0 : Date.now() + (lapsesAt - now);
  }

  /** Creates an empty session (id: `sessionId`, else a random UUID), applying `state` with the scope rules; `SESSION_EXISTS` if taken. */
  async createSession(request: { appName: string; userId: string; sessionId?: string; state?: Record<string, unknown> }): Promise<Session> {
    return this.createNow(request);
  }

  private createNow(request: { appName: string; userId: string; sessionId?: string; state?: Record<string, unknown> }): Session {
    const id = request.sessionId ?? randomUUID();
    if (this.sessions.has(request.appName, request.userId, id)) throw new SessionExistsError(id, request.userId);
    // A run claims its session before creating it: the claim taken then is this session's.
    const stored: StoredSession = { id, state: {}, events: [], lastUpdateTime: Date.now(), lastSequence: 0, claim: this.claims.get(request.appName, request.userId, id) };
    this.sessions.set(request.appName, request.userId, id, stored);
    if (request.state) this.applyDelta(request.appName, request.userId, stored, request.state);
    return this.view(request.appName, request.userId, stored, true);
  }

  /** A detached copy of the session (the events the request selects, state merged across scopes), or `undefined`. */
  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    const stored = this.sessions.get(request.appName, request.userId, request.sessionId);
    if (!stored) return undefined;
    const session = this.view(request.appName, request.userId, stored, true);
    if (request.afterTimestamp !== undefined) {
      const after = request.afterTimestamp;
      session.events = session.events.filter((event) => event.timestamp >= after);
    }
    if (request.numRecentEvents !== undefined) session.events = session.events.slice(Math.max(0, session.events.length - request.numRecentEvents));
    return session;
  }

  /** The user's sessions without their events, in UTF-16 code unit order of id (as every store lists them), paged by `after` and `limit`. */
  async listSessions(request: ListSessionsRequest): Promise<Session[]> {
    // UTF-16 code unit order: JavaScript's own string comparison.
    let ids = [...this.sessions.keys(request.appName, request.userId)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (request.after !== undefined) {
      const after = request.after;
      ids = ids.filter((id) => id > after);
    }
    if (request.limit !== undefined) ids = ids.slice(0, request.limit);
    return ids.map((id) => this.view(request.appName, request.userId, this.sessions.get(request.appName, request.userId, id)!, false));
  }

  /** Forgets the session and its events, and its claim unless one is live; `app:` and `user:` state stay. Does nothing when it does not exist. */
  async deleteSession(request: SessionKey): Promise<void> {
    this.sessions.delete(request.appName, request.userId, request.sessionId);
    const claim = this.claims.get(request.appName, request.userId, request.sessionId);
    // A released claim (the usual case) needs no clock.
    if (!claim) return;
    if (claim.lapsesAt === -Infinity || claim.lapsesAt <= this.now()) this.forgetClaim(claim);
    else this.claimsWithoutSession.add(claim);
  }

  /**
   * Stores a complete event and applies its state delta in one synchronous step, with the checks of the
   * {@link SessionService} contract (answers claimed once, then the sequence). Partial events are returned
   * unstored; `temp:` keys are dropped from the delta. Updates `session` in place.
   */
  async appendEvent(session: Session, event: Event): Promise<Event> {
    return this.appendNow(session, event);
  }

  private appendNow(session: Session, event: Event): Event {
    if (event.partial) return event;
    const stored = this.sessions.get(session.appName, session.userId, session.id);
    if (!stored) throw new SessionNotFoundError(session.id, session.userId, session.appName);
    // Everything below is synchronous, so the checks and the append are one atomic step in this process.
    const claims = answerClaims(event);
    for (const id of claims) if (stored.answered?.has(id)) throw new FunctionResponseNotPendingError(id, 'answered');
    const claim = stored.claim;
    if (claim && session.fence !== claim.fence && (session.fence !== undefined || claim.lapsesAt > this.now())) {
      throw new SessionBusyError(session.id, claim.holder, this.wallTime(claim.lapsesAt));
    }
    if (stored.lastSequence !== session.lastSequence) throw new StaleSessionError(session.id, session.lastSequence, stored.lastSequence);
    const delta = event.actions.stateDelta;
    const ops = event.actions.stateOps;
    // Increments and compare-and-sets against the values held now (STATE_CONFLICT stores nothing); the event records the results.
    if (ops) Object.assign(delta, resolveStateOps(ops, (key) => this.storedValue(session.appName, session.userId, stored, key)));
    for (const id of claims) (stored.answered ??= new Set()).add(id);
    // Most events change no state; they skip the scope bookkeeping below.
    if (hasKeys(delta)) {
      // `temp:` keys live only for the invocation; the stored event must not carry them either.
      for (const key of Object.keys(delta)) {
        if (key.startsWith(StatePrefix.TEMP)) delete delta[key];
      }
      this.applyDelta(session.appName, session.userId, stored, delta);
      applyTo(session.state, delta);
    }
    stored.events.push(event);
    session.events.push(event);
    stored.lastUpdateTime = session.lastUpdateTime = event.timestamp;
    stored.lastSequence = session.lastSequence = stored.lastSequence + 1;
    return event;
  }

  /** Implements {@link SessionService.claimSession}: one synchronous step, so two claims never both win; with `load`, the session is read in that step too. */
  async claimSession(request: ClaimSessionRequest): Promise<ClaimOutcome> {
    const now = this.now();
    const outcome = this.claimNow(request, now);
    if (!outcome.claimed) return outcome;
    const claim = { fence: outcome.fence, expiresAt: this.wallTime(now + request.leaseMs, now) };
    return outcome.loaded ? { claimed: true, claim, loaded: outcome.loaded } : { claimed: true, claim };
  }

  /** {@link InMemorySessionService.claimSession} without the granted claim's `expiresAt` (no wall clock read), at `now` on the monotonic clock. */
  private claimNow(request: ClaimSessionRequest, now = this.now()): SynchronousClaimOutcome {
    if (this.claimsWithoutSession.size !== 0) this.forgetLapsedClaimsWithoutSession(now);
    const current = this.claims.get(request.appName, request.userId, request.sessionId);
    if (current && current.lapsesAt > now) return { claimed: false, holder: current.holder, expiresAt: this.wallTime(current.lapsesAt, now) };
    const claim: StoredClaim = { appName: request.appName, userId: request.userId, sessionId: request.sessionId, holder: request.holder, fence: ++this.lastFence, lapsesAt: now + request.leaseMs };
    this.claims.set(request.appName, request.userId, request.sessionId, claim);
    const stored = this.sessions.get(request.appName, request.userId, request.sessionId);
    if (stored) stored.claim = claim;
    else this.claimsWithoutSession.add(claim);
    // In the same synchronous step: exactly what getSession for the whole session returns right after the claim.
    if (request.load) return { claimed: true, fence: claim.fence, loaded: { session: stored ? this.view(request.appName, request.userId, stored, true) : undefined } };
    return { claimed: true, fence: claim.fence };
  }

  /** Implements {@link SessionService.renewClaim}. */
  async renewClaim(key: SessionKey, fence: number, leaseMs: number): Promise<boolean> {
    const claim = this.claims.get(key.appName, key.userId, key.sessionId);
    if (!claim || claim.fence !== fence) return false;
    claim.lapsesAt = this.now() + leaseMs;
    return true;
  }

  /** Implements {@link SessionService.releaseClaim}. */
  async releaseClaim(key: SessionKey, fence: number): Promise<void> {
    this.releaseNow(key, fence);
  }

  private releaseNow(key: SessionKey, fence: number): void {
    const claim = this.claims.get(key.appName, key.userId, key.sessionId);
    if (!claim || claim.fence !== fence) return;
    // Released on a session that does not exist (a refused first message, or deleted meanwhile): nothing left to fence.
    if (this.sessions.has(key.appName, key.userId, key.sessionId)) claim.lapsesAt = -Infinity;
    else this.forgetClaim(claim);
  }

  /** Everything this service holds, as plain JSON. */
  toJSON(): InMemorySessionServiceData {
    // Records without a prototype: an app or user named `__proto__` is a key like any other, not the record's prototype.
    const data: InMemorySessionServiceData = { sessions: record(), appState: record(), userState: record() };
    for (const [appName, userId, sessions] of this.sessions.groups()) {
      (data.sessions[appName] ??= record())[userId] = sessions.map((s) => ({
        id: s.id,
        state: s.state,
        events: s.events.map((e) => e.toJSON()),
        lastUpdateTime: s.lastUpdateTime,
        lastSequence: s.lastSequence,
      }));
    }
    for (const [appName, state] of this.appState) data.appState[appName] = state;
    for (const [appName, users] of this.userState) data.userState[appName] = Object.fromEntries(users);
    data.fences = record();
    for (const [, , claims] of this.claims.groups()) for (const claim of claims) data.fences[jsonClaimKey(claim)] = claim.fence;
    data.lastFence = this.lastFence;
    return JSON.parse(JSON.stringify(data)) as InMemorySessionServiceData;
  }

  /** Restores a service from {@link InMemorySessionService.toJSON} output (with `options` as the constructor's). */
  static fromJSON(data: InMemorySessionServiceData, options: InMemorySessionServiceOptions = {}): InMemorySessionService {
    const service = new InMemorySessionService(options);
    for (const [appName, users] of Object.entries(data.sessions)) {
      for (const [userId, sessions] of Object.entries(users)) {
        for (const s of sessions) {
          service.sessions.set(appName, userId, s.id, {
            id: s.id,
            state: { ...s.state },
            events: s.events.map((e) => Event.fromJSON(e)),
            lastUpdateTime: s.lastUpdateTime,
            lastSequence: s.lastSequence ?? s.events.length,
            answered: new Set(s.events.flatMap((e) => answerClaims(e))),
          });
        }
      }
    }
    for (const [appName, state] of Object.entries(data.appState)) service.appState.set(appName, { ...state });
    for (const [appName, users] of Object.entries(data.userState)) {
      service.userState.set(appName, new Map(Object.entries(users).map(([u, s]) => [u, { ...s }])));
    }
    service.lastFence = data.lastFence ?? 0;
    for (const [key, fence] of Object.entries(data.fences ?? {})) {
      service.lastFence = Math.max(service.lastFence, fence);
      const [appName, userId, sessionId] = JSON.parse(key) as [string, string, string];
      const stored = service.sessions.get(appName, userId, sessionId);
      // The claim of a deleted session is restored lapsed, so forgotten at once: `lastFence` keeps its number from coming back.
      if (!stored) continue;
      const claim: StoredClaim = { appName, userId, sessionId, holder: '', fence, lapsesAt: -Infinity };
      service.claims.set(appName, userId, sessionId, claim);
      stored.claim = claim;
    }
    return service;
  }

  /** Checks the first two of `claimsWithoutSession` at `now` on the monotonic clock: forgets those lapsed, moves those still live to the end. */
  private forgetLapsedClaimsWithoutSession(now: number): void {
    const first: StoredClaim[] = [];
    for (const claim of this.claimsWithoutSession) {
      first.push(claim);
      if (first.length === 2) break;
    }
    for (const claim of first) {
      this.claimsWithoutSession.delete(claim);
      // Replaced by a later claim, forgotten on release, or its session exists now (its deletion adds it again): nothing to do here.
      if (this.claims.get(claim.appName, claim.userId, claim.sessionId) !== claim || this.sessions.has(claim.appName, claim.userId, claim.sessionId)) continue;
      if (claim.lapsesAt <= now) this.forgetClaim(claim);
      else this.claimsWithoutSession.add(claim);
    }
  }

  /** Drops a claim from `claims` (see {@link NestedMap} for the maps it leaves empty). */
  private forgetClaim(claim: StoredClaim): void {
    this.claims.delete(claim.appName, claim.userId, claim.sessionId);
  }

  /** A detached copy for callers: session state merged with the app and user scopes. */
  private view(appName: string, userId: string, stored: StoredSession, withEvents: boolean): Session {
    return new Session({
      id: stored.id,
      appName,
      userId,
      state: { ...this.appState.get(appName), ...this.userState.get(appName)?.get(userId), ...stored.state },
      events: withEvents ? stored.events.slice() : [],
      lastUpdateTime: stored.lastUpdateTime,
      lastSequence: stored.lastSequence,
    });
  }

  /** The value `key` has in its scope now. */
  private storedValue(appName: string, userId: string, stored: StoredSession, key: string): unknown {
    const scope = key.startsWith(StatePrefix.APP) ? this.appState.get(appName) : key.startsWith(StatePrefix.USER) ? this.userState.get(appName)?.get(userId) : stored.state;
    return scope && Object.prototype.hasOwnProperty.call(scope, key) ? scope[key] : undefined;
  }

  private applyDelta(appName: string, userId: string, stored: StoredSession, delta: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(delta)) {
      let target: Record<string, unknown>;
      if (key.startsWith(StatePrefix.TEMP)) continue;
      if (key.startsWith(StatePrefix.APP)) {
        target = this.appState.get(appName) ?? {};
        this.appState.set(appName, target);
      } else if (key.startsWith(StatePrefix.USER)) {
        let users = this.userState.get(appName);
        if (!users) this.userState.set(appName, (users = new Map()));
        target = users.get(userId) ?? {};
        users.set(userId, target);
      } else {
        target = stored.state;
      }
      applyTo(target, { [key]: value });
    }
  }
}

/** An empty record without a prototype, whose keys are only ever its own (`__proto__` included). */
function record<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** A session's key in the `fences` of {@link InMemorySessionServiceData}. */
function jsonClaimKey(parts: ClaimParts): string {
  return JSON.stringify([parts.appName, parts.userId, parts.sessionId]);
}

function hasKeys(record: Record<string, unknown>): boolean {
  for (const key in record) if (Object.prototype.hasOwnProperty.call(record, key)) return true;
  return false;
}

/** Applies a state delta to a plain record: `null` deletes, `temp:` keys are skipped. */
function applyTo(target: Record<string, unknown>, delta: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(delta)) {
    if (key.startsWith(StatePrefix.TEMP)) continue;
    if (value === null || value === undefined) delete target[key];
    // Assigned, `__proto__` would set the record's prototype and the key would be lost: it is a key like any other.
    else if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    else target[key] = value;
  }
}
