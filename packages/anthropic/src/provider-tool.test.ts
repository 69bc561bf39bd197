import { isProviderTool } from '@toolsmith/core';
import { providerTool } from './provider-tool';

describe('providerTool', () => {
  it('wraps an Anthropic server tool definition for the anthropic provider, config untouched', () => {
    const config = { type: 'code_execution_20250825', name: 'code_execution' };
    const tool = providerTool(config);
    expect(isProviderTool(tool)).toBe(true);
    expect(tool).toEqual({ kind: 'provider-tool', provider: 'anthropic', name: 'code_execution', config });
    expect(tool.config).not.toBe(config);
  });
});
