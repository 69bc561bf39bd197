import { Tool, ToolContext, Toolset } from '@toolsmith/core';
import { type Order, OrderStore } from './order-store';

/** Why a customer cancels an order. */
export type CancelReason = 'changed_mind' | 'found_cheaper' | 'too_late';

/** What a lookup answers. */
export interface OrderAnswer {
  /** `found`, or `not_found` when no order has that id. */
  status: 'found' | 'not_found';
  order?: Order;
}

/**
 * Order support as tools, for TypeScript's standard decorators: no `@Param` (parameter decorators do
 * not exist there). Each parameter is written once, as a TypeScript type with JSDoc; `toolsmith schema`
 * turns them into the build-time manifest `toolsmith.schema.json`, which the scanner finds next to the
 * code. The constructor's dependency is listed in `inject`.
 */
@Toolset({ prefix: 'orders_', inject: [OrderStore] })
export class OrderTools {
  constructor(private readonly store: OrderStore) {}

  /**
   * Looks up one order by its id.
   * @param orderId The order's id, e.g. A-1001
   */
  @Tool()
  getOrder(orderId: string): OrderAnswer {
    const order = this.store.find(orderId);
    return order ? { status: 'found', order } : { status: 'not_found' };
  }

  /**
   * Lists the orders, optionally only those with one status.
   * @param status Only orders with this status
   */
  @Tool()
  listOrders(status?: Order['status']): { orders: Order[] } {
    return { orders: this.store.list(status) };
  }

  /**
   * Cancels an open order. Needs the customer's approval.
   * @param orderId The order's id
   * @param reason Why the customer cancels
   */
  @Tool({ requireConfirmation: true, confirmationHint: 'Cancel this order?' })
  cancelOrder(orderId: string, reason: CancelReason, ctx: ToolContext): { status: 'cancelled'; order: Order } {
    const order = this.store.cancel(orderId);
    ctx.state.set('lastCancelReason', reason);
    return { status: 'cancelled', order };
  }
}
