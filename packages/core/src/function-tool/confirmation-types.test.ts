import { Param } from '../decorators/param.decorator';
import { Tool } from '../tools/tool';
import { Toolset } from '../tools/toolset';
import { functionTool } from './function-tool';

// The argument `requireConfirmation` and `confirmationHint` receive has the tool's argument type: a
// mistake there is a compile error (`tsc -p tsconfig.jest.json` checks these @ts-expect-error lines: an
// `any` argument would leave them unused, which fails the compile).
interface RefundArgs {
  orderId: string;
  amount: number;
}

describe('confirmation callbacks get the tool’s argument type', () => {
  it('functionTool infers it from execute', async () => {
    const refund = functionTool({
      name: 'refund',
      description: 'Refunds an order.',
      parameters: { type: 'object', properties: { orderId: { type: 'string' }, amount: { type: 'number' } }, required: ['orderId', 'amount'] },
      execute: (args: RefundArgs) => ({ refunded: args.amount }),
      requireConfirmation: (args) => args.amount > 100,
      confirmationHint: (args) => `Refund ${args.amount} € to ${args.orderId}?`,
    });
    const rule = refund.requireConfirmation as (args: RefundArgs) => boolean;
    expect([rule({ orderId: 'A-1', amount: 50 }), rule({ orderId: 'A-1', amount: 500 })]).toEqual([false, true]);

    functionTool({
      name: 'refund',
      description: 'Refunds an order.',
      execute: (args: RefundArgs) => args.amount,
      // @ts-expect-error -- RefundArgs has no `total`
      requireConfirmation: (args) => args.total > 100,
      // @ts-expect-error -- `amount` is a number, it has no toUpperCase
      confirmationHint: (args) => args.amount.toUpperCase(),
    });
  });

  it('@Tool<TArgs> types them for a decorated method', () => {
    @Toolset()
    class Refunds {
      @Tool<RefundArgs>({ description: 'Refunds an order.', requireConfirmation: (args) => args.amount > 100, confirmationHint: (args) => `Refund ${args.orderId}?` })
      refund(@Param('orderId') orderId: string, @Param('amount') amount: number) {
        return { orderId, amount };
      }

      // @ts-expect-error -- RefundArgs has no `total`
      @Tool<RefundArgs>({ description: 'Refunds an order.', requireConfirmation: (args) => args.total > 100 })
      refundAll(@Param('orderId') orderId: string) {
        return { orderId };
      }
    }
    expect(new Refunds().refund('A-1', 5)).toEqual({ orderId: 'A-1', amount: 5 });
  });
});
