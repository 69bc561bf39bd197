import type { Usage } from './llm-response';

/**
 * `total` plus `usage`, key by key: a count is in the sum when any of the two has it (a count one side
 * lacks adds nothing). A sum past the largest number JavaScript holds stays at it (`Number.MAX_VALUE`,
 * about 1.8e308; `-Number.MAX_VALUE` below): JSON has no `Infinity`, and a count that is too large for
 * a number is still at least that large. Returns a new object; `total` may be undefined (nothing counted
 * yet). Written out key by key: it runs for every model event, and a loop over the keys made each read a
 * megamorphic one.
 */
export function addUsage(total: Usage | undefined, usage: Usage): Usage {
  // No spread of `undefined` (a run's first count): that spread took the slow path, and cost more than the rest of the sum.
  const sum: Usage = total === undefined ? {} : { ...total };
  if (typeof usage.inputTokens === 'number') sum.inputTokens = capped((sum.inputTokens ?? 0) + usage.inputTokens);
  if (typeof usage.outputTokens === 'number') sum.outputTokens = capped((sum.outputTokens ?? 0) + usage.outputTokens);
  if (typeof usage.totalTokens === 'number') sum.totalTokens = capped((sum.totalTokens ?? 0) + usage.totalTokens);
  if (typeof usage.cachedInputTokens === 'number') sum.cachedInputTokens = capped((sum.cachedInputTokens ?? 0) + usage.cachedInputTokens);
  if (typeof usage.reasoningTokens === 'number') sum.reasoningTokens = capped((sum.reasoningTokens ?? 0) + usage.reasoningTokens);
  return sum;
}

/** `sum` (of two finite counts), or the largest number of its sign when it overflowed to `±Infinity`. */
function capped(sum: number): number {
  return sum === Infinity ? Number.MAX_VALUE : sum === -Infinity ? -Number.MAX_VALUE : sum;
}
