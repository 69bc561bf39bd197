import { readFileSync } from 'node:fs';
import { fromAdkEvalSet } from './adk-evalset';
import { checkEvalSet } from './check-eval-set';
import type { EvalSet } from './eval-set';
import { EvalSetError } from './eval-set-error';
import { evalSetNotFoundMessage, invalidEvalSetMessage } from './messages';

/** Options of {@link readEvalSetFile}. */
export interface ReadEvalSetFileOptions {
  /** For ADK files: what `final_response` texts become (see {@link FromAdkEvalSetOptions}); default `exact`. */
  adkAnswers?: 'exact' | 'ignore';
}

/**
 * Reads an eval set from a JSON file: ADK's format when it has `eval_set_id` (or `evalSetId`), else
 * Toolsmith's own (an {@link EvalSet} as JSON: argument patterns as `{ "$pattern": "…" }`). The set is
 * checked as {@link checkEvalSet} does (a judged answer is checked for when the set runs).
 *
 * @throws EvalSetError `EVAL_SET_NOT_FOUND` (no such file, not readable), `EVAL_SET_INVALID` (not JSON, not
 *   an eval set), `EVAL_SET_UNSUPPORTED` (see {@link fromAdkEvalSet}).
 */
export function readEvalSetFile(file: string, options: ReadEvalSetFileOptions = {}): EvalSet {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new EvalSetError('EVAL_SET_NOT_FOUND', evalSetNotFoundMessage(file, (error as Error).message), { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(file, [`is not JSON: ${(error as Error).message}`]), { cause: error });
  }
  const root = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  if ('eval_set_id' in root || 'evalSetId' in root) return fromAdkEvalSet(json, { source: file, ...(options.adkAnswers ? { answers: options.adkAnswers } : {}) });
  checkEvalSet(json, { judgeModel: true, source: file });
  return json;
}
