import type { BudgetOverrun } from '../context/run-budget';
import { runBudgetExceededMessage } from './messages';
import { ToolsmithError } from './toolsmith-error';

/** A run's usage passed a limit of the runner's `budget`; the run ends before the next model call. */
export class RunBudgetExceededError extends ToolsmithError {
  /** The limit passed, its value, and what the run had used. */
  readonly overrun: BudgetOverrun;

  constructor(overrun: BudgetOverrun) {
    super('RUN_BUDGET_EXCEEDED', runBudgetExceededMessage(overrun.limit, overrun.max, overrun.used), { details: { ...overrun } });
    this.overrun = overrun;
  }
}
