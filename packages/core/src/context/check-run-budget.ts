import { AgentConfigError } from '../errors/agent-config-error';
import { invalidRunBudgetMessage } from '../errors/messages';
import type { RunBudget } from './run-budget';

/** `budget` checked (limits are numbers of at least 0; `maxCost` comes with `costOf`) and copied; throws `AGENT_CONFIG_INVALID`. */
export function checkRunBudget(budget: RunBudget): RunBudget {
  for (const key of ['maxInputTokens', 'maxOutputTokens', 'maxTotalTokens', 'maxCost'] as const) {
    const value = budget[key];
    if (value !== undefined && !(typeof value === 'number' && value >= 0 && Number.isFinite(value))) {
      throw new AgentConfigError(invalidRunBudgetMessage(`${key} must be a finite number of at least 0, got ${String(value)}`));
    }
  }
  if (budget.maxCost !== undefined && typeof budget.costOf !== 'function') throw new AgentConfigError(invalidRunBudgetMessage('maxCost needs costOf, the function that prices an event'));
  return { ...budget };
}
