import type { EvalReport } from './eval-report';
import type { EvalSet } from './eval-set';
import { EvalSetError } from './eval-set-error';
import { formatEvalReport } from './format-eval-report';
import { evalSetFailedMessage } from './messages';
import { type RunEvalSetOptions, runEvalSet } from './run-eval-set';

/**
 * Runs `set` (see {@link runEvalSet}) and rejects when a case is below its threshold, with the whole
 * report (trajectory diffs included) as the error's message, so a test runner shows it; resolves with the
 * report when every case passed. For jest, vitest or node:test alike.
 *
 * @example
 * ```ts
 * it('still calls the right tools', async () => {
 *   await expectEvalSet(supportEvals, { agent });
 * });
 * ```
 *
 * @throws EvalSetError `EVAL_SET_FAILED` (the report is its `details`), and what {@link runEvalSet} throws.
 */
export async function expectEvalSet(set: EvalSet, options: RunEvalSetOptions): Promise<EvalReport> {
  const report = await runEvalSet(set, options);
  if (!report.pass) {
    const failed = report.cases.filter((c) => !c.pass).map((c) => c.id);
    throw new EvalSetError('EVAL_SET_FAILED', evalSetFailedMessage(failed, formatEvalReport(report)), { details: report });
  }
  return report;
}
