import { AgentConfigError, BaseTool } from '@toolsmith/core';
import type { JsonSchema } from '@toolsmith/core';
import type { DiscoveredToolset } from './discovered-toolset';
import { selectTools } from './tool-selection';

class NamedTool extends BaseTool {
  readonly description = '';
  readonly parameters: JsonSchema = { type: 'object', properties: {} };
  constructor(readonly name: string) {
    super();
  }
  run() {
    return { ok: true };
  }
}

class OrdersTools {}
class BillingTools {}
const orders: DiscoveredToolset = {
  token: OrdersTools,
  toolsetClass: OrdersTools,
  prefix: 'orders_',
  tools: [new NamedTool('orders_list'), new NamedTool('orders_cancel')],
};
const billing: DiscoveredToolset = { token: BillingTools, toolsetClass: BillingTools, tools: [new NamedTool('refund')] };
const discovered = [orders, billing];
const names = (entries: unknown[]) => entries.map((e) => (e as BaseTool).name);

describe('selectTools', () => {
  it('selects by class, by toolset prefix and by filter', () => {
    expect(names(selectTools('a', [BillingTools], discovered))).toEqual(['refund']);
    expect(names(selectTools('a', [{ prefix: 'orders_' }], discovered))).toEqual(['orders_list', 'orders_cancel']);
    const readOnly = selectTools('a', [{ filter: (tool, toolset) => toolset.toolsetClass === OrdersTools && !tool.name.endsWith('cancel') }], discovered);
    expect(names(readOnly)).toEqual(['orders_list']);
  });

  it('offers a tool once when several selectors pick it', () => {
    expect(names(selectTools('a', [OrdersTools, { prefix: 'orders_' }, { filter: () => true }], discovered))).toEqual([
      'orders_list',
      'orders_cancel',
      'refund',
    ]);
  });

  it('passes other tool entries through unchanged', () => {
    const extra = new NamedTool('extra');
    const toolset = { getTools: () => [] };
    expect(selectTools('a', [extra, toolset], discovered)).toEqual([extra, toolset]);
  });

  it('fails at startup for a class that is not a discovered toolset', () => {
    class Missing {}
    expect(() => selectTools('support', [Missing], discovered)).toThrow(AgentConfigError);
    expect(() => selectTools('support', [Missing], discovered)).toThrow(/Agent "support" lists Missing .* add it to the providers/);
  });

  it('fails at startup for a prefix no toolset has, listing the known ones', () => {
    expect(() => selectTools('support', [{ prefix: 'shipping_' }], discovered)).toThrow(/prefix "shipping_".*prefixes found: "orders_"/);
  });
});
