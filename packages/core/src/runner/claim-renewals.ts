/** What {@link ClaimRenewals} renews: a claim held by a run in this process. */
export interface RenewableClaim {
  /** Starts one renewal of the claim's lease (its outcome is the claim's own business). */
  renew(): void;
  /** The claim before this one in its {@link ClaimRenewals}' list, while it is in one (written by {@link ClaimRenewals} only). */
  previousRenewed: RenewableClaim | undefined;
  /** The claim after this one in its {@link ClaimRenewals}' list, while it is in one (written by {@link ClaimRenewals} only). */
  nextRenewed: RenewableClaim | undefined;
}

/**
 * The renewal timer of every claim held in this process with one lease length: one interval, armed
 * when a claim is added while none is, that renews every claim it holds each third of the lease and
 * stops at a tick that finds none. A claim is renewed within a third of the lease after it was taken,
 * then every third, as with a timer of its own; but a run that ends before then costs no timer at all,
 * and back-to-back runs share one.
 */
export class ClaimRenewals {
  private static readonly byLease = new Map<number, ClaimRenewals>();
  /** The renewals {@link ClaimRenewals.of} found last (always one of `byLease`, which are never removed). */
  private static last: ClaimRenewals | undefined;
  /**
   * The claims held now, a list linked through the claims themselves: adding and removing one writes
   * two or three fields, with nothing allocated or hashed (a set, which every run paid, hashes each claim).
   */
  private first: RenewableClaim | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  private constructor(private readonly leaseMs: number) {}

  /** The renewals of claims with a lease of `leaseMs`. */
  static of(leaseMs: number): ClaimRenewals {
    // A process's runs usually share one lease length: the renewals found last are checked before the map.
    const last = ClaimRenewals.last;
    if (last && last.leaseMs === leaseMs) return last;
    let renewals = ClaimRenewals.byLease.get(leaseMs);
    if (!renewals) ClaimRenewals.byLease.set(leaseMs, (renewals = new ClaimRenewals(leaseMs)));
    return (ClaimRenewals.last = renewals);
  }

  /** Renews `claim` from now on, until {@link ClaimRenewals.remove}. `claim` must be in no list. */
  add(claim: RenewableClaim): void {
    const first = this.first;
    claim.previousRenewed = undefined;
    claim.nextRenewed = first;
    if (first) first.previousRenewed = claim;
    this.first = claim;
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), Math.max(1, Math.floor(this.leaseMs / 3)));
    // The renewal never keeps a process alive on its own.
    this.timer.unref?.();
  }

  /** Stops renewing `claim` (nothing when it is not renewed). */
  remove(claim: RenewableClaim): void {
    const { previousRenewed: previous, nextRenewed: next } = claim;
    if (previous) previous.nextRenewed = next;
    else if (this.first === claim) this.first = next;
    else return; // not in the list (removed before)
    if (next) next.previousRenewed = previous;
    claim.previousRenewed = claim.nextRenewed = undefined;
  }

  private tick(): void {
    if (!this.first) {
      // No claim is held.
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    for (let claim: RenewableClaim | undefined = this.first; claim; ) {
      // Read before the renewal, whatever it does to the list.
      const next: RenewableClaim | undefined = claim.nextRenewed;
      claim.renew();
      claim = next;
    }
  }
}
