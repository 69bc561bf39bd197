/** What {@link ClaimRenewals} renews: a claim held by a run in this process. */
export interface RenewableClaim {
  /** Starts one renewal of the claim's lease (its outcome is the claim's own business). */
  renew(): void;
}

/** Never renewed: the entry that keeps {@link ClaimRenewals}' set from emptying. */
const KEPT: RenewableClaim = { renew() {} };

/**
 * The renewal timer of every claim held in this process with one lease length: one interval, armed
 * when a claim is added while none is, that renews every claim it holds each third of the lease and
 * stops at a tick that finds none. A claim is renewed within a third of the lease after it was taken,
 * then every third, as with a timer of its own; but a run that ends before then costs no timer at all,
 * and back-to-back runs share one.
 */
export class ClaimRenewals {
  private static readonly byLease = new Map<number, ClaimRenewals>();
  /** The claims held now, and {@link KEPT}, which keeps the set from emptying (V8 makes a set a new table each time its last entry goes, which every run paid). */
  private readonly held = new Set<RenewableClaim>([KEPT]);
  private timer: ReturnType<typeof setInterval> | undefined;

  private constructor(private readonly leaseMs: number) {}

  /** The renewals of claims with a lease of `leaseMs`. */
  static of(leaseMs: number): ClaimRenewals {
    let renewals = ClaimRenewals.byLease.get(leaseMs);
    if (!renewals) ClaimRenewals.byLease.set(leaseMs, (renewals = new ClaimRenewals(leaseMs)));
    return renewals;
  }

  /** Renews `claim` from now on, until {@link ClaimRenewals.remove}. */
  add(claim: RenewableClaim): void {
    this.held.add(claim);
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), Math.max(1, Math.floor(this.leaseMs / 3)));
    // The renewal never keeps a process alive on its own.
    this.timer.unref?.();
  }

  /** Stops renewing `claim`. */
  remove(claim: RenewableClaim): void {
    this.held.delete(claim);
  }

  private tick(): void {
    if (this.held.size === 1) {
      // Only KEPT: no claim is held.
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    for (const claim of this.held) if (claim !== KEPT) claim.renew();
  }
}
