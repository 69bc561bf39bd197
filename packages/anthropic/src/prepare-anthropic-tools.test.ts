import { prepareAnthropicTools } from './prepare-anthropic-tools';
import { providerTool } from './provider-tool';

const declaration = {
  name: 'refund',
  description: 'Refunds an order.',
  parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'], $defs: { X: { type: 'string' } } },
};

describe('prepareAnthropicTools', () => {
  it('sends nothing when there are no tools (tool_choice alone is invalid)', () => {
    expect(prepareAnthropicTools({ tools: [], toolChoice: 'required' })).toEqual({});
  });

  it('sends the canonical schema as input_schema and an empty object schema for tools without parameters', () => {
    const { tools } = prepareAnthropicTools({ tools: [declaration, { name: 'ping', description: 'Ping.', parameters: { type: 'object' } }] });
    expect(tools).toEqual([
      { name: 'refund', description: 'Refunds an order.', input_schema: declaration.parameters },
      { name: 'ping', description: 'Ping.', input_schema: { type: 'object', properties: {} } },
    ]);
  });

  it.each([
    [undefined, true, undefined],
    ['auto', true, undefined],
    ['auto', false, { type: 'auto', disable_parallel_tool_use: true }],
    ['required', true, { type: 'any' }],
    ['none', false, { type: 'none' }],
    [{ type: 'tool', name: 'refund' }, true, { type: 'tool', name: 'refund' }],
  ] as const)('maps tool choice %j (parallel %s); plain auto, the API\'s default, is not sent', (toolChoice, parallel, expected) => {
    const { tool_choice } = prepareAnthropicTools({ tools: [declaration], toolChoice, config: { parallelToolCalls: parallel } });
    expect(tool_choice).toEqual(expected);
  });

  it('appends Anthropic server tools untouched and refuses other providers', () => {
    const search = providerTool({ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['example.com'] });
    expect(prepareAnthropicTools({ tools: [], providerTools: [search] }).tools).toEqual([search.config]);
    const foreign = { kind: 'provider-tool' as const, provider: 'openai', name: 'web_search_preview', config: {} };
    expect(() => prepareAnthropicTools({ tools: [], providerTools: [foreign] })).toThrow(/"web_search_preview" belongs to provider "openai"/);
  });
});
