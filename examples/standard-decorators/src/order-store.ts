import { Injectable } from '@toolsmith/core';

/** An order as the store keeps it. */
export interface Order {
  id: string;
  status: 'open' | 'shipped' | 'cancelled';
  items: string[];
  /** When the order was last changed (ISO 8601). */
  updatedAt: string;
}

/** The time, as a service: the store gets it injected, so a test may give a fixed one. */
@Injectable()
export class Clock {
  now(): string {
    return new Date().toISOString();
  }
}

/**
 * Where the orders live (a database in a real app). With standard decorators TypeScript records no
 * constructor parameter types, so the dependencies are listed in `inject`, in constructor order.
 */
@Injectable({ inject: [Clock] })
export class OrderStore {
  private readonly orders = new Map<string, Order>([
    ['A-1001', { id: 'A-1001', status: 'open', items: ['kettle'], updatedAt: '2026-11-20T09:00:00.000Z' }],
    ['A-1002', { id: 'A-1002', status: 'shipped', items: ['teapot', 'cups'], updatedAt: '2026-11-21T09:00:00.000Z' }],
  ]);

  constructor(private readonly clock: Clock) {}

  find(id: string): Order | undefined {
    return this.orders.get(id);
  }

  list(status?: Order['status']): Order[] {
    return [...this.orders.values()].filter((order) => status === undefined || order.status === status);
  }

  cancel(id: string): Order {
    const order = this.orders.get(id);
    if (!order) throw new Error(`No order ${id}`);
    const cancelled: Order = { ...order, status: 'cancelled', updatedAt: this.clock.now() };
    this.orders.set(id, cancelled);
    return cancelled;
  }
}
