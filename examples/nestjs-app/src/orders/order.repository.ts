import { Injectable } from '@nestjs/common';
import { Order } from './order';

/** Seed data of the demo shop: two customers, a few orders. */
const SEED: readonly Order[] = [
  { id: 'A-1001', customerId: 'alice', status: 'shipped', items: [{ sku: 'kettle', quantity: 1 }], total: 4_900 },
  { id: 'A-1002', customerId: 'alice', status: 'placed', items: [{ sku: 'mug', quantity: 4 }], total: 3_200 },
  { id: 'B-2001', customerId: 'bob', status: 'placed', items: [{ sku: 'teapot', quantity: 1 }], total: 6_500 },
];

/**
 * Stores orders. In-memory here; a real app would back it with a database. It is an ordinary Nest
 * provider, injected into the `OrdersTools` toolset like into any other service.
 */
@Injectable()
export class OrderRepository {
  private readonly orders = new Map<string, Order>(SEED.map((o) => [o.id, structuredClone(o)]));

  /** The order with this id, or `undefined`. */
  find(id: string): Order | undefined {
    const order = this.orders.get(id);
    return order && structuredClone(order);
  }

  /** Every order of a customer, oldest first. */
  listByCustomer(customerId: string): Order[] {
    return [...this.orders.values()].filter((o) => o.customerId === customerId).map((o) => structuredClone(o));
  }

  /** Marks an order cancelled and returns it. */
  cancel(id: string): Order {
    const order = this.orders.get(id);
    if (!order) throw new Error(`Order ${id} does not exist.`);
    order.status = 'cancelled';
    return structuredClone(order);
  }
}
