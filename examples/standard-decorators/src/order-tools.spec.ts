// Run by vitest (`npx vitest run`), not by jest: vitest compiles it with standard decorators (see vitest.config.ts).
import { scanTools, useManifest } from '@toolsmith/core';
import { invokeTool } from '@toolsmith/core/testing';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runOrderSupport } from './main';
import { Clock } from './order-store';
import { OrderTools } from './order-tools';

// Under vitest the program's entry is vitest itself, so the manifest is named rather than found.
useManifest(join(__dirname, '..', 'toolsmith.schema.json'));

describe('OrderTools under vitest (standard decorators)', () => {
  it('scans its parameters from the manifest: names, types, the literal union, the optional one', () => {
    const tools = Object.fromEntries(scanTools(OrderTools).map((tool) => [tool.name, tool.parameters]));
    expect(tools.orders_getOrder).toEqual({
      type: 'object',
      properties: { orderId: { type: 'string', description: "The order's id, e.g. A-1001" } },
      required: ['orderId'],
      additionalProperties: false,
    });
    expect((tools.orders_cancelOrder.properties as Record<string, unknown>).reason).toMatchObject({ enum: ['changed_mind', 'found_cheaper', 'too_late'] });
    expect(tools.orders_listOrders.required).toBeUndefined();
  });

  it('builds the toolset with its listed dependencies and runs a tool', async () => {
    const clock = { now: () => '2026-12-01T00:00:00.000Z' };
    const result = await invokeTool(OrderTools, 'orders_cancelOrder', { orderId: 'A-1001', reason: 'too_late' }, {
      providers: [{ provide: Clock, useValue: clock }],
      toolConfirmation: { confirmed: true },
    });
    expect(result.error).toBeUndefined();
    expect(result.response).toMatchObject({ status: 'cancelled', order: { id: 'A-1001', status: 'cancelled', updatedAt: '2026-12-01T00:00:00.000Z' } });
  });

  it('refuses a reason outside the union before the tool runs', async () => {
    const result = await invokeTool(OrderTools, 'orders_cancelOrder', { orderId: 'A-1001', reason: 'bored' }, { toolConfirmation: { confirmed: true } });
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
  });

  it('runs the whole conversation through the runner', async () => {
    const lines = await runOrderSupport();
    expect(lines[0]).toBe('call orders_getOrder {"orderId":"A-1001"}');
    expect(lines).toContain('error orders_cancelOrder INVALID_ARGUMENTS');
    expect(lines).toContain('approve orders_cancelOrder: Cancel this order?');
    expect(lines.at(-1)).toBe('agent Order A-1001 is cancelled.');
  });
});
