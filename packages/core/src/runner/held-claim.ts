import { waitBeforeRetry } from '../adapter-kit/retry-policy';
import { SessionBusyError } from '../errors/session-errors';
import type { SessionKey, SessionService } from '../sessions/session-service';
import type { ResolvedSessionClaimPolicy } from './session-claim-policy';

/** First and longest pause between two attempts to claim a busy session (ms). */
const FIRST_RETRY_MS = 5;
const LONGEST_RETRY_MS = 200;

/**
 * A run's claim on its session: renewed every third of the lease while the run lasts, so a slow but
 * living run is never taken for a dead one, and released when the run ends, so the next run need not
 * wait for the lease to run out.
 */
export class HeldClaim {
  private readonly timer: ReturnType<typeof setInterval>;
  /** The renewal in flight, awaited before the release (a late renewal must not revive a released claim). */
  private renewing: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly sessions: SessionService,
    private readonly key: SessionKey,
    /** The claim's fencing number: the run's appends carry it. */
    readonly fence: number,
    leaseMs: number,
  ) {
    this.timer = setInterval(() => {
      // A renewal that fails (lost to another claim, or the store unreachable) needs no handling here:
      // the run's next append is refused then, and that refusal ends the run.
      this.renewing = sessions.renewClaim(key, fence, leaseMs).catch(() => false);
    }, Math.max(1, Math.floor(leaseMs / 3)));
    // The renewal never keeps a process alive on its own.
    this.timer.unref?.();
  }

  /**
   * Claims `key` for the run `holder`. When another run holds it: waits (polling, with a growing pause
   * never past the live claim's expiry) at most `maxWaitMs` with `onBusy: 'wait'`, else fails at once.
   * Rejects with `SESSION_BUSY` when no claim was granted, `RUN_ABORTED` when `signal` aborted first.
   */
  static async claim(sessions: SessionService, key: SessionKey, holder: string, policy: ResolvedSessionClaimPolicy, signal?: AbortSignal): Promise<HeldClaim> {
    const deadline = Date.now() + (policy.onBusy === 'wait' ? policy.maxWaitMs : 0);
    let pause = FIRST_RETRY_MS;
    for (;;) {
      const outcome = await sessions.claimSession({ ...key, holder, leaseMs: policy.leaseMs });
      if (outcome.claimed) return new HeldClaim(sessions, key, outcome.claim.fence, policy.leaseMs);
      const now = Date.now();
      if (now >= deadline) throw new SessionBusyError(key.sessionId, outcome.holder, outcome.expiresAt);
      await waitBeforeRetry(Math.max(1, Math.min(pause, deadline - now, outcome.expiresAt - now + 1)), signal);
      pause = Math.min(pause * 2, LONGEST_RETRY_MS);
    }
  }

  /** Stops renewing and releases the claim. */
  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.renewing;
    await this.sessions.releaseClaim(this.key, this.fence);
  }
}

