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
   * Stores a complete event and applies its `actions.stateDelta` (partial events are ignored). Updates
   * `session` in place (events and state) and returns the stored event (without `temp:` keys).
   */
  appendEvent(session: Session, event: Event): Promise<Event>;
}
