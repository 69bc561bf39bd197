import { ToolsmithError } from '../errors/toolsmith-error';
import type { ProviderTool } from '../model/provider-tool';
import { selectProviderTools } from './select-provider-tools';

const tool = (provider: string, name: string, config: Record<string, unknown>): ProviderTool => ({ kind: 'provider-tool', provider, name, config });

describe('selectProviderTools', () => {
  it('returns the configs of the provider’s own tools, untouched and in order', () => {
    const a = { googleSearch: {} };
    const b = { codeExecution: {} };
    const configs = selectProviderTools([tool('gemini', 'googleSearch', a), tool('gemini', 'codeExecution', b)], 'gemini', 'a Gemini model');
    expect(configs).toEqual([a, b]);
    expect(configs[0]).toBe(a);
    expect(selectProviderTools(undefined, 'gemini', 'a Gemini model')).toEqual([]);
  });

  it('refuses a tool of another provider with PROVIDER_TOOL_MISMATCH naming tool, providers and fix', () => {
    let error: unknown;
    try {
      selectProviderTools([tool('openai', 'web_search', { type: 'web_search' })], 'anthropic', 'an Anthropic model');
    } catch (e) {
      error = e;
    }
    expect(ToolsmithError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'PROVIDER_TOOL_MISMATCH',
      message: expect.stringMatching(/"web_search" belongs to provider "openai" .* an Anthropic model\. Use a model of that provider/),
      details: { toolName: 'web_search', toolProvider: 'openai', modelProvider: 'anthropic' },
    });
  });
});
