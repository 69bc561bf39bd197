import { isProviderTool } from '@toolsmith/core';
import { providerTool } from './provider-tool';

describe('providerTool', () => {
  it('wraps a hosted tool config for the openai provider, named by its type, copied', () => {
    const config = { type: 'file_search' as const, vector_store_ids: ['vs_1'] };
    const tool = providerTool(config);
    expect(isProviderTool(tool)).toBe(true);
    expect(tool).toEqual({ kind: 'provider-tool', provider: 'openai', name: 'file_search', config: { type: 'file_search', vector_store_ids: ['vs_1'] } });
    expect(tool.config).not.toBe(config);
  });
});
