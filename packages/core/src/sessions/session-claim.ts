import type { Session } from './session';
import type { SessionKey } from './session-service';

/** What {@link SessionService.claimSession} asks for: one session, for one run, for a while. */
export interface ClaimSessionRequest extends SessionKey {
  /** Who claims, unique per run (the runner uses the invocation id); a run that finds the session busy is told it. */
  holder: string;
  /** Milliseconds the claim lasts unless renewed ({@link SessionService.renewClaim}). */
  leaseMs: number;
  /**
   * Also read the session when the claim is granted, in the same step, to save the `getSession` that
   * follows (the runner asks for it). A store may ignore it: then the outcome has no `loaded`.
   */
  load?: boolean;
}

/** A run's hold on a session, granted by {@link SessionService.claimSession}. */
export interface SessionClaim {
  /**
   * The fencing number: every claim of the session gets a higher one than the claim before. The
   * holder's appends carry it ({@link Session.fence}); once another run has claimed the session, an
   * append with an older number is refused (`SESSION_BUSY`) and stores nothing.
   */
  fence: number;
  /** When the claim lapses unless renewed, in milliseconds since the epoch (the store's clock). */
  expiresAt: number;
}

/** The outcome of {@link SessionService.claimSession}: the claim, or who holds the session and until when. */
export type ClaimOutcome =
  | { claimed: true; claim: SessionClaim; loaded?: LoadedSession }
  | { claimed: false; holder: string; expiresAt: number };

/**
 * The session a granted claim read ({@link ClaimSessionRequest.load}): what `getSession` for the whole
 * session returns right after the claim, `undefined` when the session does not exist.
 */
export interface LoadedSession {
  /** The whole session (every event), or `undefined` when the store holds none under the key. */
  session: Session | undefined;
}
