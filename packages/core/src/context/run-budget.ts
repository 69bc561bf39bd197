import type { Event } from '../events/event';
import type { Usage } from '../model/llm-response';

/**
 * Limits on what one run (one `runner.run`) may spend, checked before each model call (and before a
 * compaction's summarizing call): once the run's usage so far is over a limit, the run ends with a
 * `RUN_BUDGET_EXCEEDED` error event instead of calling the model again. See docs/context.md.
 */
export interface RunBudget {
  /** Input tokens of the run's model calls together (`runUsage.inputTokens`). */
  maxInputTokens?: number;
  /** Output tokens of the run's model calls together (`runUsage.outputTokens`). */
  maxOutputTokens?: number;
  /** Input plus output tokens of the run's model calls together (`runUsage.totalTokens`, or input plus output tokens when that is larger or absent). */
  maxTotalTokens?: number;
  /** The run's cost, as `costOf` counts it, summed over its events with usage. Needs `costOf`. */
  maxCost?: number;
  /**
   * The cost of one event's `usage` (a model call, a compaction's summarizing call), in your unit
   * (e.g. US dollars from your provider's price list); the event's `author` says which agent, so which model, made it.
   * One that throws, or returns anything but a finite number of at least 0, ends the run with
   * `AGENT_CONFIG_INVALID` before its next model call (or at its end).
   */
  costOf?: (usage: Usage, event: Event) => number;
}

/** A limit of a {@link RunBudget} that a run passed: which one, its value, and what the run had used. */
export interface BudgetOverrun {
  /** The limit passed. */
  limit: 'maxInputTokens' | 'maxOutputTokens' | 'maxTotalTokens' | 'maxCost';
  /** The limit's value. */
  max: number;
  /** What the run had used when it was checked. */
  used: number;
}

const TOKEN_LIMITS = [
  ['maxInputTokens', 'inputTokens'],
  ['maxOutputTokens', 'outputTokens'],
  ['maxTotalTokens', 'totalTokens'],
] as const;

/** The first limit of `budget` that `usage` (the run's so far) and `cost` are over, or `undefined`. */
export function budgetOverrun(budget: RunBudget, usage: Usage | undefined, cost: number): BudgetOverrun | undefined {
  for (const [limit, key] of TOKEN_LIMITS) {
    const max = budget[limit];
    // A provider that reports no totalTokens: the total is input plus output (and never less than that).
    const used = key === 'totalTokens' ? Math.max(usage?.totalTokens ?? 0, (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0)) : (usage?.[key] ?? 0);
    if (max !== undefined && used > max) return { limit, max, used };
  }
  if (budget.maxCost !== undefined && cost > budget.maxCost) return { limit: 'maxCost', max: budget.maxCost, used: cost };
  return undefined;
}
