import { IsISO8601, IsInt, IsOptional, IsString, Min } from 'class-validator';
import { Param } from '../decorators/param.decorator';
import { functionTool } from '../function-tool/function-tool';
import { Tool } from '../tools/tool';
import { ToolContext } from '../tools/tool-context';
import { Toolset } from '../tools/toolset';
import { invokeTool } from './invoke-tool';
import type { JsonShape } from './invoke-tool-types';

class RefundDto {
  @IsString() orderId!: string;
  @IsInt() @Min(1) amount!: number;
  @IsOptional() @IsISO8601() when?: string;
  get label(): string {
    return `${this.orderId}:${this.amount}`;
  }
}

@Toolset({ prefix: 'shop_' })
class ShopTools {
  @Tool()
  refund(args: RefundDto, ctx: ToolContext) {
    return { refunded: args.label, by: ctx.agentName };
  }

  @Tool()
  search(@Param('query') query: string, @Param('limit', { optional: true }) limit?: number) {
    return { query, limit: limit ?? 10 };
  }

  @Tool({ name: 'stock_level' })
  stock(@Param('sku') sku: string) {
    return { sku, level: 3 };
  }
}

// These tests are compiled by tsc (tsconfig.jest.json): each @ts-expect-error fails the build when the
// line below it compiles, so they prove what invokeTool refuses at compile time.
describe('invokeTool: the tool name and the arguments are checked at compile time', () => {
  it('takes a method name, the prefixed tool name, or any name ending with a method name', async () => {
    expect((await invokeTool(ShopTools, 'refund', { orderId: 'A-1', amount: 5 })).response).toEqual({ refunded: 'A-1:5', by: 'test-agent' });
    expect((await invokeTool(ShopTools, 'shop_refund', { orderId: 'A-1', amount: 5 })).response).toEqual({ refunded: 'A-1:5', by: 'test-agent' });
    // The method name finds the tool whatever its final name (here `@Tool({ name: 'stock_level' })`).
    const stock = await invokeTool(ShopTools, 'stock', { sku: 'X' });
    expect(stock.response).toEqual({ sku: 'X', level: 3 });
    expect((await invokeTool(ShopTools, 'shop_search', { query: 'mugs' })).response).toEqual({ query: 'mugs', limit: 10 });

    // @ts-expect-error: no method is called `refnud`
    const typo = await invokeTool(ShopTools, 'shop_refnud', { orderId: 'A-1', amount: 5 });
    expect(typo.error?.code).toBe('TOOL_NOT_FOUND');
    // Typed only as Function, the class takes any name (this is how a test calls a missing tool on purpose).
    expect((await invokeTool(ShopTools as Function, 'shop_refnud', {})).error?.code).toBe('TOOL_NOT_FOUND');
  });

  it("checks a DTO method's arguments: property types and unknown properties", async () => {
    await invokeTool(ShopTools, 'shop_refund', { orderId: 'A-1', amount: 5, when: '2026-12-24T00:00:00Z' });
    // A Date property arrives as JSON text or as a Date.
    const dates: Array<JsonShape<{ at: Date; days: Date[] }>> = [{ at: '2026-12-24', days: [] }, { at: new Date(0), days: ['2026-12-24', new Date(0)] }];
    expect(dates).toHaveLength(2);

    // @ts-expect-error: amount is a number
    const wrongType = await invokeTool(ShopTools, 'shop_refund', { orderId: 'A-1', amount: true });
    expect(wrongType.error?.code).toBe('INVALID_ARGUMENTS');
    // @ts-expect-error: the DTO has no `reason`
    const unknown = await invokeTool(ShopTools, 'shop_refund', { orderId: 'A-1', amount: 5, reason: 'late' });
    expect(unknown.error?.code).toBe('INVALID_ARGUMENTS');
    // A missing property compiles (one with a default is required in the type, not in the arguments): the runtime refuses it.
    const missing = await invokeTool(ShopTools, 'shop_refund', { orderId: 'A-1' });
    expect(missing.error?.code).toBe('INVALID_ARGUMENTS');
    // A getter is never an argument, and the injected ToolContext is no argument either.
    await invokeTool(ShopTools, 'shop_refund', { orderId: 'A-1', amount: 5 });

    // JSON text is not checked: the way to send invalid arguments on purpose, as a model would.
    const asText = await invokeTool(ShopTools, 'shop_refund', JSON.stringify({ orderId: 'A-1', amount: true }));
    expect(asText.error?.code).toBe('INVALID_ARGUMENTS');
  });

  it('takes any object for @Param methods (their argument names are not in the types) and for other targets', async () => {
    const loose = await invokeTool(ShopTools, 'shop_search', { query: 'mugs', other: 1 });
    expect(loose.error?.code).toBe('INVALID_ARGUMENTS');
    const instance = new ShopTools();
    expect((await invokeTool(instance, 'search', { query: 'cups' })).response).toEqual({ query: 'cups', limit: 10 });
    // @ts-expect-error: an instance's tool names are checked too
    expect((await invokeTool(instance, 'serch', { query: 'cups' })).error?.code).toBe('TOOL_NOT_FOUND');

    const ping = functionTool({ name: 'ping', description: 'Answers pong.', parameters: { type: 'object', properties: {} }, execute: () => ({ pong: true }) });
    expect((await invokeTool(ping, 'ping', {})).response).toEqual({ pong: true });
    expect((await invokeTool(ping, 'pong', {})).error?.code).toBe('TOOL_NOT_FOUND');
  });
});
