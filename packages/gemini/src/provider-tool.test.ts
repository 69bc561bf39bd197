import { isProviderTool } from '@toolsmith/core';
import { providerTool } from './provider-tool';

describe('providerTool', () => {
  it('wraps a Gemini built-in tool for the gemini provider, named by its key, config untouched', () => {
    const tool = providerTool({ googleSearch: { timeRangeFilter: { startTime: '2026-01-01T00:00:00Z', endTime: '2026-02-01T00:00:00Z' } } });
    expect(isProviderTool(tool)).toBe(true);
    expect(tool).toEqual({
      kind: 'provider-tool',
      provider: 'gemini',
      name: 'googleSearch',
      config: { googleSearch: { timeRangeFilter: { startTime: '2026-01-01T00:00:00Z', endTime: '2026-02-01T00:00:00Z' } } },
    });
  });

  it('refuses an empty tool object', () => {
    expect(() => providerTool({})).toThrow(/googleSearch/);
  });
});
