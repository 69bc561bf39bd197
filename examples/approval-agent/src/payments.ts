/** One refund that was actually paid out. */
export interface Refund {
  orderId: string;
  amount: number;
  /** Who approved it, for refunds that needed approval. */
  approvedBy?: string;
}

/** A stand-in payment system: a few orders, and the refunds really made (what approval protects). */
export class Payments {
  private readonly totals = new Map<string, number>([
    ['A-1001', 40],
    ['A-1002', 250],
    ['A-1003', 1200],
  ]);
  readonly refunds: Refund[] = [];

  /** Pays a refund; throws when the order does not exist or the amount exceeds what is left of it. */
  refund(refund: Refund): Refund {
    const total = this.totals.get(refund.orderId);
    if (total === undefined) throw new Error(`Order ${refund.orderId} does not exist`);
    const refunded = this.refunds.filter((r) => r.orderId === refund.orderId).reduce((sum, r) => sum + r.amount, 0);
    if (refund.amount > total - refunded) throw new Error(`Order ${refund.orderId} has only ${total - refunded} € left to refund`);
    this.refunds.push(refund);
    return refund;
  }
}
