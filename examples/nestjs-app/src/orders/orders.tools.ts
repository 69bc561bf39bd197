import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { Param, Tool, ToolContext, Toolset } from '@toolsmith/core';
import { CurrentCustomer } from './current-customer';
import { Order } from './order';
import { OrderRepository } from './order.repository';

/**
 * The orders service as tools for the model. A plain Nest provider: the repository and the (per-run)
 * current customer are injected by Nest; `ToolsmithModule` finds the class by its `@Toolset` decorator.
 * Nest's HTTP exceptions work as they do in a controller: the model gets status and message.
 */
@Toolset({ prefix: 'orders_' })
@Injectable()
export class OrdersTools {
  constructor(
    private readonly repository: OrderRepository,
    private readonly customer: CurrentCustomer,
  ) {}

  @Tool({ description: "Lists the current customer's orders with their status and total (in cents)." })
  list() {
    return { orders: this.repository.listByCustomer(this.customer.id) };
  }

  @Tool({ description: 'Gets one order of the current customer by its id.' })
  get(@Param('orderId', { description: 'Order id, e.g. A-1001' }) orderId: string) {
    return { order: this.ownOrder(orderId) };
  }

  @Tool({ description: 'Cancels an order that has not shipped yet. The customer must approve it.', requireConfirmation: true })
  cancel(@Param('orderId', { description: 'Order id, e.g. A-1001' }) orderId: string) {
    const order = this.ownOrder(orderId);
    if (order.status !== 'placed') throw new ConflictException(`Order ${orderId} is ${order.status} and can no longer be cancelled.`);
    return { order: this.repository.cancel(orderId) };
  }

  /**
   * Asks the customer first (`ctx.requestConfirmation`): the question is about this order, so it is not
   * editable (`editable: false`): an answer that edits the arguments is refused and the question stays open.
   */
  @Tool({ name: 'return', description: 'Starts the return of a shipped order: a courier collects it. The customer confirms it first.' })
  startReturn(@Param('orderId', { description: 'Order id, e.g. A-1001' }) orderId: string, ctx: ToolContext) {
    const order = this.ownOrder(orderId);
    if (order.status !== 'shipped' && order.status !== 'delivered') throw new ConflictException(`Order ${orderId} is ${order.status}: only a shipped order can be returned.`);
    if (!ctx.toolConfirmation) {
      ctx.requestConfirmation({ hint: `Have a courier collect order ${orderId} (${order.items.map((i) => `${i.quantity} × ${i.sku}`).join(', ')})?`, editable: false });
      return { status: 'waiting for the customer' };
    }
    return { order, status: `a courier collects ${orderId}` };
  }

  // Another customer's order answers exactly like a missing one, so ids cannot be probed.
  private ownOrder(orderId: string): Order {
    const order = this.repository.find(orderId);
    if (!order || order.customerId !== this.customer.id) throw new NotFoundException(`Order ${orderId} was not found.`);
    return order;
  }
}
