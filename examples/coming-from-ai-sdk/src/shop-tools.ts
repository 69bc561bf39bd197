import { Tool, Toolset, functionTool } from '@toolsmith/core';
import { z } from 'zod';

const orders = new Map([
  ['A-1001', { orderId: 'A-1001', total: 40, status: 'delivered' }],
  ['A-1002', { orderId: 'A-1002', total: 250, status: 'delivered' }],
]);

const OrderId = z.string().regex(/^A-\d{4}$/).describe('The order number, e.g. A-1001');

/** A plain function as a tool: the zod schema is the tool's parameters, and execute's argument type. */
export const lookUpOrder = functionTool({
  name: 'lookUpOrder',
  description: 'Looks up an order.',
  parameters: z.object({ orderId: OrderId }),
  execute: ({ orderId }) => orders.get(orderId) ?? { error: `No order ${orderId}` },
});

const Refund = z.object({ orderId: OrderId, amount: z.number().positive() });

/** A class of tools: `@Tool({ input })` takes the zod schema of the method's one argument. */
@Toolset()
export class RefundTools {
  @Tool({
    description: 'Refunds an order.',
    input: Refund,
    requireConfirmation: (args) => args.amount > 100,
    confirmationHint: (args) => `Refund ${args.amount} € on order ${args.orderId}?`,
  })
  refund(args: z.infer<typeof Refund>) {
    return { refunded: args.amount, orderId: args.orderId };
  }
}
