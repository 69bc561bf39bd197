import { z } from 'zod';
import { Tool } from '../tools/tool';
import { ToolContext } from '../tools/tool-context';
import { Toolset } from '../tools/toolset';
import { functionTool } from './function-tool';

// arktype ships only ES modules: jest compiles them to CommonJS (jest.config.ts), and the types come from its ESM entry.
const { type } = require('arktype') as typeof import('arktype', { with: { 'resolution-mode': 'import' } });

// The types come from the Standard Schema, declared once: a mistake against them is a compile error
// (`tsc -p tsconfig.jest.json` checks these @ts-expect-error lines; were the types `any`, the lines
// would be unused, which fails the compile).
const Refund = z.object({ orderId: z.string(), amount: z.number(), note: z.string().optional() });

describe('Standard Schema types', () => {
  it('functionTool infers execute’s and the confirmation callbacks’ argument from the schema’s output', () => {
    const refund = functionTool({
      name: 'refund',
      description: 'Refunds an order.',
      parameters: Refund,
      execute: (args) => ({ refunded: args.amount, order: args.orderId.toUpperCase() }),
      requireConfirmation: (args) => args.amount > 100,
      confirmationHint: (args) => `Refund ${args.amount} € to ${args.orderId}?`,
    });
    expect(refund.name).toBe('refund');

    functionTool({
      name: 'refund',
      description: 'Refunds an order.',
      parameters: Refund,
      // @ts-expect-error -- the schema has no `total`
      execute: (args) => args.total,
    });
    functionTool({
      name: 'refund',
      description: 'Refunds an order.',
      parameters: Refund,
      execute: (args) => args.amount,
      // @ts-expect-error -- `amount` is a number
      requireConfirmation: (args) => args.amount.startsWith('1'),
    });
    functionTool({
      name: 'transformed',
      description: '',
      // A transform's output is what execute gets.
      parameters: z.object({ at: z.string() }).transform(({ at }) => ({ at, length: at.length })),
      execute: (args) => args.length.toFixed(0),
    });
    functionTool({
      name: 'ark',
      description: '',
      parameters: type({ city: 'string', days: 'number' }),
      // @ts-expect-error -- arktype's output type too: `days` is a number
      execute: (args) => args.days.toUpperCase(),
    });
  });

  it('@Tool({ input }) checks the method’s parameter against the schema’s output', () => {
    @Toolset()
    class Refunds {
      @Tool({ input: Refund, requireConfirmation: (args) => args.amount > 100 })
      refund(args: { orderId: string; amount: number; note?: string }, ctx: ToolContext) {
        return { args, user: ctx.userId };
      }

      // Taking less than the schema gives is fine.
      @Tool({ input: Refund })
      refundLess(args: { orderId: string }) {
        return args;
      }

      // @ts-expect-error -- the schema's `amount` is a number, the method wants a string
      @Tool({ input: Refund })
      refundText(args: { orderId: string; amount: string }) {
        return args;
      }

      // @ts-expect-error -- the method wants `total`, which the schema does not give
      @Tool({ input: Refund })
      refundTotal(args: { orderId: string; total: number }) {
        return args;
      }

      // @ts-expect-error -- the schema has no `total`
      @Tool({ input: Refund, requireConfirmation: (args) => args.total > 100 })
      refundRule(args: { orderId: string }) {
        return args;
      }
    }
    expect(typeof Refunds.prototype.refund).toBe('function');
  });
});
