import type { Usage } from './llm-response';

const USAGE_KEYS = ['inputTokens', 'outputTokens', 'totalTokens', 'cachedInputTokens', 'reasoningTokens'] as const;

/**
 * `total` plus `usage`, key by key: a count is in the sum when any of the two has it (a count one side
 * lacks adds nothing). Returns a new object; `total` may be undefined (nothing counted yet).
 */
export function addUsage(total: Usage | undefined, usage: Usage): Usage {
  const sum: Usage = { ...total };
  for (const key of USAGE_KEYS) {
    const value = usage[key];
    if (typeof value === 'number') sum[key] = (sum[key] ?? 0) + value;
  }
  return sum;
}
