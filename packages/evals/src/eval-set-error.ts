import { ToolsmithError } from '@toolsmith/core';
import type { EvalsErrorCode } from './evals-error-codes';

/**
 * An eval set cannot be read, written or run as asked (`EVAL_SET_INVALID`, `EVAL_SET_NOT_FOUND`,
 * `EVAL_SET_UNSUPPORTED`, `EVAL_JUDGE_MISSING`), or `expectEvalSet` found a case below its threshold
 * (`EVAL_SET_FAILED`, with the report as `details`). Messages come from the package's messages file.
 */
export class EvalSetError extends ToolsmithError<EvalsErrorCode> {
  constructor(code: EvalsErrorCode, message: string, options: { cause?: unknown; details?: unknown } = {}) {
    super(code, message, options);
  }
}
