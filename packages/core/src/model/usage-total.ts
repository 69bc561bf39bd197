import type { Usage } from './llm-response';

/**
 * `total` plus `usage`, key by key: a count is in the sum when any of the two has it (a count one side
 * lacks adds nothing). Returns a new object; `total` may be undefined (nothing counted yet). Written out
 * key by key: it runs for every model event, and a loop over the keys made each read a megamorphic one.
 */
export function addUsage(total: Usage | undefined, usage: Usage): Usage {
  const sum: Usage = { ...total };
  if (typeof usage.inputTokens === 'number') sum.inputTokens = (sum.inputTokens ?? 0) + usage.inputTokens;
  if (typeof usage.outputTokens === 'number') sum.outputTokens = (sum.outputTokens ?? 0) + usage.outputTokens;
  if (typeof usage.totalTokens === 'number') sum.totalTokens = (sum.totalTokens ?? 0) + usage.totalTokens;
  if (typeof usage.cachedInputTokens === 'number') sum.cachedInputTokens = (sum.cachedInputTokens ?? 0) + usage.cachedInputTokens;
  if (typeof usage.reasoningTokens === 'number') sum.reasoningTokens = (sum.reasoningTokens ?? 0) + usage.reasoningTokens;
  return sum;
}
