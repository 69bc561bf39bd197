import type { Event } from '../events/event';
import type { Session } from './session';
import type { ClaimOutcome, ClaimSessionRequest } from './session-claim';

/** Identifies one session. */
export interface SessionKey {
  /** The app the session belongs to (the runner's `appName`). */
  appName: string;
  /** The user the session belongs to; session ids are unique per app and user. */
  userId: string;
  /** The session's id ({@link Session.id}). */
  sessionId: string;
}

/**
 * What {@link SessionService.getSession} reads: a session, and optionally only part of its events (as
 * ADK's `GetSessionConfig`). State and `lastSequence` are always the whole session's. A runner always
 * loads whole sessions; the limits are for clients that show history.
 */
export interface GetSessionRequest extends SessionKey {
  /** Only the last `numRecentEvents` events (after `afterTimestamp`, when both are given). */
  numRecentEvents?: number;
  /** Only events whose `timestamp` (ms since the epoch) is at or after this one. */
  afterTimestamp?: number;
}

/**
 * What {@link SessionService.listSessions} reads: a user's sessions, ordered by id, a page at a time.
 * The next page starts after the last id of the previous one.
 */
export interface ListSessionsRequest {
  /** The app whose sessions are listed (the runner's `appName`). */
  appName: string;
  /** The user whose sessions are listed; other users' sessions are never included. */
  userId: string;
  /** At most this many sessions. Default: all. */
  limit?: number;
  /** Only sessions whose id sorts after this one (the last id of the previous page). */
  after?: string;
}

/**
 * Stores sessions: their events and their state, with the scope rules of state keys (`app:` shared by
 * all users of the app, `user:` by all sessions of the user, no prefix for this session, `temp:` never
 * stored). The runner appends every complete event through {@link SessionService.appendEvent}.
 *
 * The concurrency contract every store keeps (tested by the session-store conformance suite):
 * - Each stored event takes the next sequence number of its session (1, 2, …); a session's
 *   {@link Session.lastSequence} is the sequence of its last event (0 when it has none).
 * - An append states the sequence it expects: `session.lastSequence`. If the store holds another, the
 *   append stores nothing and rejects with a `StaleSessionError` (`STALE_SESSION`, both numbers); a store
 *   never reloads and continues silently.
 * - An append is atomic: the event, its state delta (session, `user:` and `app:` scopes) and the
 *   sequence check happen together or not at all.
 * - `createSession` for an id that exists rejects with `SESSION_EXISTS`; an append to a session the
 *   store does not hold rejects with `SESSION_NOT_FOUND`.
 * - Answers are claimed exactly once: a user event's final function responses (a confirmation answer,
 *   or a long-running call's last update, i.e. without `willContinue`) claim their call ids. An append
 *   answering an id the session already has an answer for stores nothing and rejects with
 *   `FUNCTION_RESPONSE_NOT_PENDING` (reason `answered`); this is checked before the sequence, so of two
 *   writers answering the same call from the same history the loser learns that it was answered.
 * - One writer at a time: a run claims the session ({@link SessionService.claimSession}) before it
 *   reads or stores anything, renews the claim while it lasts and releases it at its end. A claim is
 *   granted only when no other claim is live (unexpired), and each one gets a higher fencing number.
 *   An append whose session carries a {@link Session.fence} that is not the current claim's, or carries
 *   none while another claim is live, stores nothing and rejects with `SESSION_BUSY`; this is checked
 *   after the answer claims and before the sequence.
 * - Every method refuses, before it reads or stores anything, an id no store keeps as given (not a string,
 *   a control character, a lone surrogate) and a paging option, lease or fencing number it does not take,
 *   with `INVALID_SESSION_REQUEST` (the checks of `@toolsmith/core/internal`, shared by every store).
 */
export interface SessionService {
  /** Creates a session (a random id unless `sessionId` is given); `state` is applied with the scope rules. */
  createSession(request: { appName: string; userId: string; sessionId?: string; state?: Record<string, unknown> }): Promise<Session>;
  /** The session with its events (all, or those the request selects) and merged state, or `undefined`. */
  getSession(request: GetSessionRequest): Promise<Session | undefined>;
  /** The user's sessions, without their events, ordered by id (a page of them when `limit` is given). */
  listSessions(request: ListSessionsRequest): Promise<Session[]>;
  /** Deletes the session and its events (nothing happens when it does not exist); `app:` and `user:` state stay. */
  deleteSession(request: SessionKey): Promise<void>;
  /**
   * Stores a complete event and applies its `actions.stateDelta` (partial events are ignored), if the
   * stored session is still at `session.lastSequence`; otherwise rejects with `STALE_SESSION` and stores
   * nothing. Updates `session` in place (events, state, `lastSequence`) and returns the stored event
   * (without `temp:` keys).
   */
  appendEvent(session: Session, event: Event): Promise<Event>;
  /**
   * Claims the session for one run (it need not exist yet): granted, with a fencing number higher than
   * any before, when no other claim is live (the holder's own included: a run claims once); otherwise
   * the live claim's holder and expiry. A claim whose expiry has passed is no longer live, so a crashed
   * holder's session is free again once its lease ran out. With `load`, a store may also read the
   * session in the same step (`loaded`): exactly what `getSession` for the whole session returns right
   * after the claim, so the runner needs no `getSession`.
   */
  claimSession(request: ClaimSessionRequest): Promise<ClaimOutcome>;
  /**
   * Extends the claim with this fencing number to `leaseMs` from now, if it is still the session's
   * latest claim (even when it had lapsed, as long as nobody claimed since). False when another run has
   * claimed the session since: the holder's appends will be refused.
   */
  renewClaim(key: SessionKey, fence: number, leaseMs: number): Promise<boolean>;
  /** Ends the claim with this fencing number (nothing happens when another claim replaced it), so the next run need not wait for its expiry. */
  releaseClaim(key: SessionKey, fence: number): Promise<void>;
}
