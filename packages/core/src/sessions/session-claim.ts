import type { SessionKey } from './session-service';

/** What {@link SessionService.claimSession} asks for: one session, for one run, for a while. */
export interface ClaimSessionRequest extends SessionKey {
  /** Who claims, unique per run (the runner uses the invocation id); a run that finds the session busy is told it. */
  holder: string;
  /** Milliseconds the claim lasts unless renewed ({@link SessionService.renewClaim}). */
  leaseMs: number;
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
  | { claimed: true; claim: SessionClaim }
  | { claimed: false; holder: string; expiresAt: number };
