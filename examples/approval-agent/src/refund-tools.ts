import { Param, Tool, ToolContext, Toolset } from '@toolsmith/core';
import { Payments } from './payments';

/** Refunds above this many euros wait for a human's approval. */
export const APPROVAL_THRESHOLD = 100;

/** The refund desk: small refunds at once, larger ones only after approval. */
@Toolset()
export class RefundTools {
  constructor(private readonly payments: Payments) {}

  @Tool({
    description: `Refunds an amount (in euros) of an order to the customer. Refunds above ${APPROVAL_THRESHOLD} € need a manager's approval.`,
    // The gate is decided on the validated arguments, before the method runs.
    requireConfirmation: (args: { amount: number }) => args.amount > APPROVAL_THRESHOLD,
    confirmationHint: (args: { orderId: string; amount: number }) =>
      `Refund ${args.amount} € for order ${args.orderId}: above the ${APPROVAL_THRESHOLD} € limit, a manager must approve.`,
  })
  refund(
    @Param('orderId', { description: 'Order id, e.g. A-1001' }) orderId: string,
    @Param('amount', { description: 'Amount to refund, in euros' }) amount: number,
    ctx: ToolContext,
  ) {
    // Set only when this call ran after an approval; the approver's name comes in the answer's payload.
    const approvedBy = (ctx.toolConfirmation?.payload as { approver?: string } | undefined)?.approver;
    this.payments.refund({ orderId, amount, ...(approvedBy ? { approvedBy } : {}) });
    return { status: 'refunded', orderId, amount, ...(approvedBy ? { approvedBy } : {}) };
  }
}
