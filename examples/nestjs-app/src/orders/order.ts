/** Where an order is in its life. */
export type OrderStatus = 'placed' | 'shipped' | 'delivered' | 'cancelled';

/** One customer order. */
export interface Order {
  id: string;
  customerId: string;
  status: OrderStatus;
  items: { sku: string; quantity: number }[];
  /** In cents. */
  total: number;
}
