import { Event } from '../events/event';
import { Session } from './session';

/** Identifies one session. */
export interface SessionKey {
  appName: string;
  userId: string;
  sessionId: string;
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
 */
export interface SessionService {
  /** Creates a session (a random id unless `sessionId` is given); `state` is applied with the scope rules. */
  createSession(request: { appName: string; userId: string; sessionId?: string; state?: Record<string, unknown> }): Promise<Session>;
  /** The session with its events and merged state, or `undefined`. */
  getSession(request: SessionKey): Promise<Session | undefined>;
  /** The user's sessions, without their events. */
  listSessions(request: { appName: string; userId: string }): Promise<Session[]>;
  deleteSession(request: SessionKey): Promise<void>;
  /**
   * Stores a complete event and applies its `actions.stateDelta` (partial events are ignored), if the
   * stored session is still at `session.lastSequence`; otherwise rejects with `STALE_SESSION` and stores
   * nothing. Updates `session` in place (events, state, `lastSequence`) and returns the stored event
   * (without `temp:` keys).
   */
  appendEvent(session: Session, event: Event): Promise<Event>;
}
