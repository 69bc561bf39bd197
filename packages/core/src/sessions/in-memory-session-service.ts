import { randomUUID } from 'node:crypto';
import { FunctionResponseNotPendingError } from '../errors/function-response-not-pending-error';
import { SessionBusyError, SessionExistsError, SessionNotFoundError, StaleSessionError } from '../errors/session-errors';
import { Event, type EventData } from '../events/event';
import { StatePrefix } from '../state/state';
import { applyStateDelta } from '../state/apply-state-delta';
import { setStateKey } from '../state/state-keys';
import { settleStateDelta } from '../state/settle-state-delta';
import { resolveStateOps } from '../state/state-ops';
import { answerClaims } from './answer-claims';
import { Session } from './session';
import type { ClaimOutcome, ClaimSessionRequest } from './session-claim';
import type { GetSessionRequest, ListSessionsRequest, SessionKey, SessionService } from './session-service';
import { type SynchronousClaimOutcome, type SynchronousWriteMethods, registerSynchronousWrites } from './synchronous-session-writes';
import { NestedMap } from './nested-map';
import { checkAppendRequest, checkClaimRequest, checkCreateSessionRequest, checkFence, checkGetSessionRequest, checkListSessionsRequest, checkReadSessionKey, checkSessionKey } from './session-request-check';

/**
 * What an {@link InMemorySessionService} holds under one session key, in one object (one lookup finds
 * it all, and a run's session and claim make one allocation): the session while `exists` (only its own,
 * unprefixed state), its latest claim while `fence` is not 0, or both; never neither (such an entry goes).
 */
interface Entry {
  readonly appName: string;
  readonly userId: string;
  readonly id: string;
  /** Whether the session exists; while it does not, the fields down to `answered` hold nothing. */
  exists: boolean;
  state: Record<string, unknown>;
  events: Event[];
  lastUpdateTime: number;
  /** Sequence of the last stored event; events are numbered 1, 2, … per session. */
  lastSequence: number;
  /** Call ids answered by the user's events (see `answerClaims`): each is answered once. Made with the first answer. */
  answered: Set<string> | undefined;
  /** The latest claim's fencing number; 0 while the key has no claim (numbers start at 1). */
  fence: number;
  /** The latest claim's holder. */
  holder: string;
  /** When the latest claim lapses, on the monotonic clock; `-Infinity` once released. */
  lapsesAt: number;
  /** Links of the service's list of claims without a session (see `InMemorySessionService.firstWaiting`). */
  previousWaiting: Entry | undefined;
  nextWaiting: Entry | undefined;
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
  /**
   * appName → userId → sessionId → the session and its latest claim (`lapsesAt` on the monotonic clock).
   * A claim that is released or lapsed on a session that does not exist is forgotten: fencing numbers
   * come from `lastFence`, which only grows, so the session's next claim still gets a larger number than
   * any before.
   */
  private readonly entries = new NestedMap<Entry>();
  private readonly appState = new Map<string, Record<string, unknown>>();
  private readonly userState = new Map<string, Map<string, Record<string, unknown>>>();
  /**
   * The entries holding a claim and no session (a run claims before it creates; a live claim outlives
   * its session's deletion), oldest first, in a list linked through the entries (joining and leaving it
   * hashes nothing); an entry leaves it when its session is created. If such a claim lapses with its
   * session still missing, nothing else would ever look at it: each later claim checks the first two
   * here, forgets those lapsed, and puts those still live at the end.
   */
  private firstWaiting: Entry | undefined;
  private lastWaiting: Entry | undefined;
  /** The entry found or added last, checked before the maps: a run's claim, its new session, its appends and its release all find one key in a row. */
  private recent: Entry | undefined;
  /** The last fencing number granted, on any session. */
  private lastFence = 0;
  private readonly now: () => number;

  constructor(options: InMemorySessionServiceOptions = {}) {
    this.now = options.monotonicClock ?? (() => performance.now());
    // The runner's writes without an await each (see synchronous-session-writes.ts): the same steps, called directly.
    registerSynchronousWrites(this, OWN_METHODS, {
      appendEvent: (session, event) => this.appendNow(session, event),
      claimSession: (appName, userId, sessionId, holder, leaseMs) => this.claimNow(appName, userId, sessionId, holder, leaseMs, true),
      releaseClaim: (key, fence) => this.releaseNow(key, fence),
      createSession: (key, now) => this.createNow(key, now),
    });
  }

  /** A moment of the monotonic clock as milliseconds since the epoch (the wall clock now, plus the time left); `now` is the monotonic clock's reading, when the caller has one. */
  private wallTime(lapsesAt: number, now = this.now()): number {
    return lapsesAt === -Infinity ? 0 : Date.now() + (lapsesAt - now);
  }

  /** Creates an empty session (id: `sessionId`, else a random UUID), applying `state` with the scope rules; `SESSION_EXISTS` if taken. */
  async createSession(request: { appName: string; userId: string; sessionId?: string; state?: Record<string, unknown> }): Promise<Session> {
    checkCreateSessionRequest(request);
    return this.createNow(request);
  }

  /** {@link InMemorySessionService.createSession}, the session created at `now` (the wall clock's milliseconds). */
  private createNow(request: { appName: string; userId: string; sessionId?: string; state?: Record<string, unknown> }, now = Date.now()): Session {
    const id = request.sessionId ?? randomUUID();
    let entry = this.find(request.appName, request.userId, id);
    if (entry?.exists) throw new SessionExistsError(id, request.userId);
    // A run claims its session before creating it: the claim taken then is this session's, and no longer one without a session.
    if (entry) this.leaveWaiting(entry);
    else this.add((entry = newEntry(request.appName, request.userId, id)));
    entry.exists = true;
    // Its own state object comes with its first write (most sessions a run creates get none first).
    entry.state = NO_STATE;
    entry.events = [];
    entry.lastUpdateTime = now;
    if (request.state) this.applyDelta(request.appName, request.userId, entry, request.state);
    return this.view(entry, true);
  }

  /** A detached copy of the session (the events the request selects, state merged across scopes), or `undefined`. */
  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    checkGetSessionRequest(request);
    const entry = this.find(request.appName, request.userId, request.sessionId);
    if (!entry?.exists) return undefined;
    const session = this.view(entry, true);
    if (request.afterTimestamp !== undefined) {
      const after = request.afterTimestamp;
      session.events = session.events.filter((event) => event.timestamp >= after);
    }
    if (request.numRecentEvents !== undefined) session.events = session.events.slice(Math.max(0, session.events.length - request.numRecentEvents));
    return session;
  }

  /** The user's sessions without their events, in UTF-16 code unit order of id (as every store lists them), paged by `after` and `limit`. */
  async listSessions(request: ListSessionsRequest): Promise<Session[]> {
    checkListSessionsRequest(request);
    // UTF-16 code unit order: JavaScript's own string comparison.
    let ids = [...this.entries.keys(request.appName, request.userId)].filter((id) => this.entries.get(request.appName, request.userId, id)!.exists).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (request.after !== undefined) {
      const after = request.after;
      ids = ids.filter((id) => id > after);
    }
    if (request.limit !== undefined) ids = ids.slice(0, request.limit);
    return ids.map((id) => this.view(this.entries.get(request.appName, request.userId, id)!, false));
  }

  /** Forgets the session and its events, and its claim unless one is live; `app:` and `user:` state stay. Does nothing when it does not exist. */
  async deleteSession(request: SessionKey): Promise<void> {
    checkReadSessionKey(request);
    const entry = this.find(request.appName, request.userId, request.sessionId);
    if (!entry) return;
    if (entry.exists) {
      entry.exists = false;
      entry.state = NO_STATE;
      entry.events = NO_EVENTS;
      entry.lastSequence = 0;
      entry.answered = undefined;
    }
    // A released claim (the usual case) needs no clock.
    if (entry.fence === 0 || entry.lapsesAt === -Infinity || entry.lapsesAt <= this.now()) this.forget(entry);
    else this.joinWaiting(entry);
  }

  /**
   * Stores a complete event and applies its state delta in one synchronous step, with the checks of the
   * {@link SessionService} contract (answers claimed once, then the sequence). Partial events are returned
   * unstored; `temp:` keys are dropped from the delta. Updates `session` in place.
   */
  async appendEvent(session: Session, event: Event): Promise<Event> {
    checkAppendRequest(session, event);
    return this.appendNow(session, event);
  }

  private appendNow(session: Session, event: Event): Event {
    if (event.partial) return event;
    const stored = this.find(session.appName, session.userId, session.id);
    if (!stored?.exists) throw new SessionNotFoundError(session.id, session.userId, session.appName);
    // Everything below is synchronous, so the checks and the append are one atomic step in this process.
    const claims = answerClaims(event);
    for (let index = 0; index < claims.length; index++) if (stored.answered?.has(claims[index])) throw new FunctionResponseNotPendingError(claims[index], 'answered');
    if (stored.fence !== 0 && session.fence !== stored.fence && (session.fence !== undefined || stored.lapsesAt > this.now())) {
      throw new SessionBusyError(session.id, stored.holder, this.wallTime(stored.lapsesAt));
    }
    if (stored.lastSequence !== session.lastSequence) throw new StaleSessionError(session.id, session.lastSequence, stored.lastSequence);
    let delta = event.actions.stateDelta;
    // Most events change no state; they skip the copy and the scope bookkeeping below.
    let changes = hasKeys(delta);
    // Read once: the state applied is the delta stored (a getter could answer each read otherwise).
    if (changes) delta = settleStateDelta(event.actions);
    const ops = event.actions.stateOps;
    // Increments and compare-and-sets against the values held now (STATE_CONFLICT stores nothing); the event records the results.
    if (ops) {
      const results = resolveStateOps(ops, (key) => this.storedValue(session.appName, session.userId, stored, key));
      for (const key of Object.keys(results)) setStateKey(delta, key, results[key]);
      changes = hasKeys(delta);
    }
    for (let index = 0; index < claims.length; index++) (stored.answered ??= new Set()).add(claims[index]);
    if (changes) {
      // `temp:` keys live only for the invocation; the stored event must not carry them either.
      for (const key of Object.keys(delta)) {
        if (key.startsWith(StatePrefix.TEMP)) delete delta[key];
      }
      this.applyDelta(session.appName, session.userId, stored, delta);
      applyStateDelta(session.state, delta);
    }
    stored.events.push(event);
    session.events.push(event);
    stored.lastUpdateTime = session.lastUpdateTime = event.timestamp;
    stored.lastSequence = session.lastSequence = stored.lastSequence + 1;
    return event;
  }

  /** Implements {@link SessionService.claimSession}: one synchronous step, so two claims never both win; with `load`, the session is read in that step too. */
  async claimSession(request: ClaimSessionRequest): Promise<ClaimOutcome> {
    checkClaimRequest(request, request.leaseMs);
    const now = this.now();
    const outcome = this.claimNow(request.appName, request.userId, request.sessionId, request.holder, request.leaseMs, request.load === true, now);
    if (typeof outcome !== 'number' && !outcome.claimed) return outcome;
    const granted = typeof outcome === 'number' ? { fence: outcome, session: undefined } : outcome;
    const claim = { fence: granted.fence, expiresAt: this.wallTime(now + request.leaseMs, now) };
    // Read with the claim, as the same step: what getSession for the whole session returns right after it.
    return request.load ? { claimed: true, claim, loaded: { session: granted.session } } : { claimed: true, claim };
  }

  /**
   * {@link InMemorySessionService.claimSession}, at `now` on the monotonic clock, without the granted
   * claim's `expiresAt` (no wall clock read): the fencing number, and with `load` the session read in the
   * same synchronous step (exactly what getSession for the whole session returns right after the claim);
   * the fencing number alone when there is no session to read (see {@link SynchronousClaimOutcome}).
   */
  private claimNow(appName: string, userId: string, sessionId: string, holder: string, leaseMs: number, load: boolean, now = this.now()): SynchronousClaimOutcome {
    if (this.firstWaiting) this.forgetLapsedClaimsWithoutSession(now);
    let entry = this.find(appName, userId, sessionId);
    if (entry && entry.fence !== 0 && entry.lapsesAt > now) return { claimed: false, holder: entry.holder, expiresAt: this.wallTime(entry.lapsesAt, now) };
    if (!entry) this.add((entry = newEntry(appName, userId, sessionId)));
    const fence = (entry.fence = ++this.lastFence);
    entry.holder = holder;
    entry.lapsesAt = now + leaseMs;
    if (!entry.exists) this.joinWaiting(entry);
    return load && entry.exists ? { claimed: true, fence, session: this.view(entry, true) } : fence;
  }

  /** Implements {@link SessionService.renewClaim}. */
  async renewClaim(key: SessionKey, fence: number, leaseMs: number): Promise<boolean> {
    checkClaimRequest(key, leaseMs);
    checkFence(fence);
    const entry = this.find(key.appName, key.userId, key.sessionId);
    if (!entry || entry.fence !== fence) return false;
    entry.lapsesAt = this.now() + leaseMs;
    return true;
  }

  /** Implements {@link SessionService.releaseClaim}. */
  async releaseClaim(key: SessionKey, fence: number): Promise<void> {
    checkSessionKey(key);
    checkFence(fence);
    this.releaseNow(key, fence);
  }

  private releaseNow(key: SessionKey, fence: number): void {
    const entry = this.find(key.appName, key.userId, key.sessionId);
    if (!entry || entry.fence !== fence) return;
    // Released on a session that does not exist (a refused first message, or deleted meanwhile): nothing left to fence.
    if (entry.exists) entry.lapsesAt = -Infinity;
    else this.forget(entry);
  }

  /** Everything this service holds, as plain JSON. */
  toJSON(): InMemorySessionServiceData {
    // Records without a prototype: an app or user named `__proto__` is a key like any other, not the record's prototype.
    const data: InMemorySessionServiceData = { sessions: record(), appState: record(), userState: record() };
    data.fences = record();
    for (const [appName, userId, entries] of this.entries.groups()) {
      for (const entry of entries) if (entry.fence !== 0) data.fences[jsonClaimKey(entry)] = entry.fence;
      const sessions = entries.filter((entry) => entry.exists);
      if (sessions.length === 0) continue;
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
    data.lastFence = this.lastFence;
    return JSON.parse(JSON.stringify(data)) as InMemorySessionServiceData;
  }

  /** Restores a service from {@link InMemorySessionService.toJSON} output (with `options` as the constructor's). */
  static fromJSON(data: InMemorySessionServiceData, options: InMemorySessionServiceOptions = {}): InMemorySessionService {
    const service = new InMemorySessionService(options);
    for (const [appName, users] of Object.entries(data.sessions)) {
      for (const [userId, sessions] of Object.entries(users)) {
        for (const s of sessions) {
          const entry = newEntry(appName, userId, s.id);
          entry.exists = true;
          entry.state = { ...s.state };
          entry.events = s.events.map((e) => Event.fromJSON(e));
          entry.lastUpdateTime = s.lastUpdateTime;
          entry.lastSequence = s.lastSequence ?? s.events.length;
          entry.answered = new Set(s.events.flatMap((e) => answerClaims(e)));
          service.entries.set(appName, userId, s.id, entry);
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
      const entry = service.entries.get(appName, userId, sessionId);
      // The claim of a deleted session is restored lapsed, so forgotten at once: `lastFence` keeps its number from coming back.
      if (!entry) continue;
      entry.fence = fence;
      entry.lapsesAt = -Infinity;
    }
    return service;
  }

  /** Checks the first two claims without a session at `now` on the monotonic clock: forgets those lapsed, moves those still live to the end. */
  private forgetLapsedClaimsWithoutSession(now: number): void {
    const first = this.firstWaiting!;
    const second = first.nextWaiting;
    this.checkWaiting(first, now);
    if (second) this.checkWaiting(second, now);
  }

  /** Forgets `entry`'s claim (without a session) if it lapsed at `now`, else moves it to the end of the list. */
  private checkWaiting(entry: Entry, now: number): void {
    if (entry.lapsesAt <= now) {
      this.forget(entry);
    } else if (entry !== this.lastWaiting) {
      this.leaveWaiting(entry);
      this.joinWaiting(entry);
    }
  }

  /** Puts `entry` (a claim without a session) at the end of the list of those, unless it is in it. */
  private joinWaiting(entry: Entry): void {
    if (entry.previousWaiting || this.firstWaiting === entry) return;
    const last = this.lastWaiting;
    entry.previousWaiting = last;
    entry.nextWaiting = undefined;
    if (last) last.nextWaiting = entry;
    else this.firstWaiting = entry;
    this.lastWaiting = entry;
  }

  /** Takes `entry` out of the list of claims without a session (nothing when it is not in it). */
  private leaveWaiting(entry: Entry): void {
    const { previousWaiting: previous, nextWaiting: next } = entry;
    if (previous) previous.nextWaiting = next;
    else if (this.firstWaiting === entry) this.firstWaiting = next;
    else return;
    if (next) next.previousWaiting = previous;
    else this.lastWaiting = previous;
    entry.previousWaiting = entry.nextWaiting = undefined;
  }

  /** The entry under a key, or `undefined`. */
  private find(appName: string, userId: string, id: string): Entry | undefined {
    const recent = this.recent;
    // The ids' own strings, usually the very ones the entry holds: each comparison is one of pointers.
    if (recent && recent.id === id && recent.userId === userId && recent.appName === appName) return recent;
    const entry = this.entries.get(appName, userId, id);
    if (entry) this.recent = entry;
    return entry;
  }

  /** Adds a new entry under its key. */
  private add(entry: Entry): void {
    this.entries.set(entry.appName, entry.userId, entry.id, entry);
    this.recent = entry;
  }

  /** Drops an entry without a session, and so its claim (see {@link NestedMap} for the maps it leaves empty). */
  private forget(entry: Entry): void {
    this.leaveWaiting(entry);
    this.entries.delete(entry.appName, entry.userId, entry.id);
    if (this.recent === entry) this.recent = undefined;
  }

  /** A detached copy for callers: session state merged with the app and user scopes. */
  private view(stored: Entry, withEvents: boolean): Session {
    const { appName, userId } = stored;
    // The entry has the session's fields by their names: the copy is made from it (with no init object
    // per copy), then given its own state and events in place of the entry's.
    const session = new Session(stored);
    session.state = { ...this.appState.get(appName), ...this.userState.get(appName)?.get(userId), ...stored.state };
    session.events = withEvents ? stored.events.slice() : [];
    return session;
  }

  /** The value `key` has in its scope now. */
  private storedValue(appName: string, userId: string, stored: Entry, key: string): unknown {
    const scope = key.startsWith(StatePrefix.APP) ? this.appState.get(appName) : key.startsWith(StatePrefix.USER) ? this.userState.get(appName)?.get(userId) : stored.state;
    return scope && Object.prototype.hasOwnProperty.call(scope, key) ? scope[key] : undefined;
  }

  private applyDelta(appName: string, userId: string, stored: Entry, delta: Record<string, unknown>): void {
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
        // (A new session's state is the shared empty one until its first write.)
        target = stored.state === NO_STATE ? (stored.state = {}) : stored.state;
      }
      if (value === null || value === undefined) delete target[key];
      else setStateKey(target, key, value);
    }
  }
}

/**
 * The class's own methods, captured once when this module loads: an instance whose method is another
 * (its own, a subclass's, or one patched onto the prototype later) is awaited as any store is.
 */
const OWN_METHODS: SynchronousWriteMethods = {
  appendEvent: InMemorySessionService.prototype.appendEvent,
  claimSession: InMemorySessionService.prototype.claimSession,
  releaseClaim: InMemorySessionService.prototype.releaseClaim,
  createSession: InMemorySessionService.prototype.createSession,
  getSession: InMemorySessionService.prototype.getSession,
};

/** An empty record without a prototype, whose keys are only ever its own (`__proto__` included). */
function record<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** A new entry, with neither a session nor a claim yet (its caller adds one). */
function newEntry(appName: string, userId: string, id: string): Entry {
  return {
    appName, userId, id, exists: false, state: NO_STATE, events: NO_EVENTS, lastUpdateTime: 0, lastSequence: 0, answered: undefined,
    fence: 0, holder: '', lapsesAt: -Infinity, previousWaiting: undefined, nextWaiting: undefined,
  };
}

// What an entry without a session holds in their place: shared, and never written (nothing reads them while
// the session does not exist); NO_STATE is also a session's state until its first write (see applyDelta).
const NO_STATE: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;
const NO_EVENTS: Event[] = Object.freeze([]) as unknown as Event[];

/** A session's key in the `fences` of {@link InMemorySessionServiceData}. */
function jsonClaimKey(entry: Entry): string {
  return JSON.stringify([entry.appName, entry.userId, entry.id]);
}

function hasKeys(record: Record<string, unknown>): boolean {
  for (const key in record) if (Object.prototype.hasOwnProperty.call(record, key)) return true;
  return false;
}
