import { waitBeforeRetry } from '../adapter-kit/retry-policy';
import { SessionBusyError } from '../errors/session-errors';
import type { ClaimOutcome, ClaimSessionRequest, LoadedSession } from '../sessions/session-claim';
import type { SessionKey, SessionService } from '../sessions/session-service';
import type { SynchronousSessionWrites } from '../sessions/synchronous-session-writes';
import { ClaimRenewals, type RenewableClaim } from './claim-renewals';
import type { ResolvedSessionClaimPolicy } from './session-claim-policy';

/** First and longest pause between two attempts to claim a busy session (ms). */
const FIRST_RETRY_MS = 5;
const LONGEST_RETRY_MS = 200;

/**
 * A run's claim on its session: renewed every third of the lease while the run lasts, so a slow but
 * living run is never taken for a dead one, and released when the run ends, so the next run need not
 * wait for the lease to run out.
 */
export class HeldClaim implements RenewableClaim {
  // `declare`: the constructor assigns every field itself, in this order (one per run: class-field
  // definitions and parameter properties would define each field, then assign it again).
  declare private readonly sessions: SessionService;
  declare private readonly key: SessionKey;
  /** The claim's fencing number: the run's appends carry it. */
  declare readonly fence: number;
  declare private readonly leaseMs: number;
  /** The session the store read with the claim, if it did (see {@link HeldClaim.takeLoaded}). */
  declare private loaded: LoadedSession | undefined;
  /** The store's synchronous writes, when it has them: the release then needs no await. */
  declare private readonly writes: SynchronousSessionWrites | undefined;
  declare private readonly renewals: ClaimRenewals;
  /** The renewal in flight, if any, awaited before the release (a late renewal must not revive a released claim). */
  declare private renewing: Promise<unknown> | undefined;
  /** Links of the renewal list (see {@link ClaimRenewals}). */
  declare previousRenewed: RenewableClaim | undefined;
  declare nextRenewed: RenewableClaim | undefined;

  private constructor(sessions: SessionService, key: SessionKey, fence: number, leaseMs: number, loaded: LoadedSession | undefined, writes: SynchronousSessionWrites | undefined) {
    this.sessions = sessions;
    this.key = key;
    this.fence = fence;
    this.leaseMs = leaseMs;
    this.loaded = loaded;
    this.writes = writes;
    this.renewals = ClaimRenewals.of(leaseMs);
    this.renewing = undefined;
    this.previousRenewed = undefined;
    this.nextRenewed = undefined;
    this.renewals.add(this);
  }

  /** Renews the lease once (called by the renewal timer). */
  renew(): void {
    // A renewal that fails (lost to another claim, or the store unreachable) needs no handling here:
    // the run's next append is refused then, and that refusal ends the run.
    this.renewing = this.sessions.renewClaim(this.key, this.fence, this.leaseMs).catch(() => false);
  }

  /** The session the store read with the claim (once: the run's session is then the run's), or `undefined` when the store read none. */
  takeLoaded(): LoadedSession | undefined {
    const loaded = this.loaded;
    this.loaded = undefined;
    return loaded;
  }

  /**
   * Claims `key` for the run `holder`, asking the store to read the session with the claim (`load`). When another run holds it: waits (polling, with a growing pause
   * never past the live claim's expiry) at most `maxWaitMs` with `onBusy: 'wait'`, else fails at once.
   * Rejects with `SESSION_BUSY` when no claim was granted, `RUN_ABORTED` when `signal` aborted first.
   * With a store's synchronous `writes`, an uncontended claim is returned at once (a failure thrown).
   */
  static claim(sessions: SessionService, key: SessionKey, holder: string, policy: ResolvedSessionClaimPolicy, signal?: AbortSignal, writes?: SynchronousSessionWrites): HeldClaim | Promise<HeldClaim> {
    const { appName, userId, sessionId } = key;
    const wait = policy.onBusy === 'wait' ? policy.maxWaitMs : 0;
    // Uncontended (the usual case): one call to the store, no retry loop.
    if (writes) {
      // A synchronous store answers in the same moment, with no request object: the clock is read only when it refuses.
      // Granted, the outcome is the session it read (`session`), kept as is, or the fencing number alone when there is none.
      const outcome = writes.claimSession(appName, userId, sessionId, holder, policy.leaseMs);
      if (typeof outcome === 'number') return new HeldClaim(sessions, key, outcome, policy.leaseMs, NO_SESSION, writes);
      if (outcome.claimed) return new HeldClaim(sessions, key, outcome.fence, policy.leaseMs, outcome, writes);
      return HeldClaim.retry(sessions, key, claimRequest(key, holder, policy.leaseMs), outcome, Date.now() + wait, writes, signal);
    }
    const request = claimRequest(key, holder, policy.leaseMs);
    const asked = Date.now();
    return sessions.claimSession(request).then((outcome) =>
      outcome.claimed
        ? new HeldClaim(sessions, key, outcome.claim.fence, policy.leaseMs, outcome.loaded, writes)
        : HeldClaim.retry(sessions, key, request, outcome, asked + wait, writes, signal),
    );
  }

  /** Claims again, with growing pauses, until a claim is granted or `deadline` (wall clock) passes. */
  private static async retry(
    sessions: SessionService,
    key: SessionKey,
    request: ClaimSessionRequest,
    refused: ClaimOutcome & { claimed: false },
    deadline: number,
    writes: SynchronousSessionWrites | undefined,
    signal?: AbortSignal,
  ): Promise<HeldClaim> {
    let outcome: ClaimOutcome = refused;
    let pause = FIRST_RETRY_MS;
    for (;;) {
      if (outcome.claimed) return new HeldClaim(sessions, key, outcome.claim.fence, request.leaseMs, outcome.loaded, writes);
      const now = Date.now();
      if (now >= deadline) throw new SessionBusyError(key.sessionId, outcome.holder, outcome.expiresAt);
      await waitBeforeRetry(Math.max(1, Math.min(pause, deadline - now, outcome.expiresAt - now + 1)), signal);
      pause = Math.min(pause * 2, LONGEST_RETRY_MS);
      outcome = await sessions.claimSession(request);
    }
  }

  /** Stops renewing and releases the claim: at once (`undefined`) with synchronous writes and no renewal in flight, else by the promise. */
  release(): Promise<void> | undefined {
    this.renewals.remove(this);
    const renewing = this.renewing;
    if (renewing) return renewing.then(() => this.sessions.releaseClaim(this.key, this.fence));
    if (!this.writes) return this.sessions.releaseClaim(this.key, this.fence);
    this.writes.releaseClaim(this.key, this.fence);
    return undefined;
  }
}

/** What a synchronous store read with a claim when no session exists under its key: shared, never written. */
const NO_SESSION: LoadedSession = Object.freeze({ session: undefined });

/** What the runner asks a store's `claimSession` for: `key` for the run `holder`, with the session read in the same step (`load`). */
function claimRequest(key: SessionKey, holder: string, leaseMs: number): ClaimSessionRequest {
  return { appName: key.appName, userId: key.userId, sessionId: key.sessionId, holder, leaseMs, load: true };
}
