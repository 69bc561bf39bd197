import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { registerTypeScript } from '@toolsmith/core/internal';
import { fromAdkEvalSet, isOldAdkTestFile } from './adk-evalset';
import { checkEvalSet } from './check-eval-set';
import type { EvalSet } from './eval-set';
import { EvalSetError } from './eval-set-error';
import { OLD_ADK_FORMAT, evalSetNotFoundMessage, invalidEvalSetMessage } from './messages';
import { thrownMessage } from '@toolsmith/core';

/** Options of {@link readEvalSetFile}. */
export interface ReadEvalSetFileOptions {
  /** For ADK files: what `final_response` texts become (see {@link FromAdkEvalSetOptions}); default `exact`. */
  adkAnswers?: 'exact' | 'ignore';
}

/**
 * Reads an eval set from a file. A `.json` file is ADK's format when it has `eval_set_id` (or
 * `evalSetId`), else Toolsmith's own (an {@link EvalSet} as JSON: argument patterns as
 * `{ "$pattern": "…" }`). Any other file is a module (a `.ts` one through ts-node) whose `evalSet` export,
 * else its default export, is the set (there, matchers may be `RegExp`s and functions). The set is
 * checked as {@link checkEvalSet} does (a judged answer is checked for when the set runs).
 *
 * @throws EvalSetError `EVAL_SET_NOT_FOUND` (no such file, not readable), `EVAL_SET_INVALID` (not JSON, a
 *   module that fails to load, not an eval set, ADK's older `.test.json` format: the message says how to migrate it), `EVAL_SET_UNSUPPORTED` (see {@link fromAdkEvalSet}).
 */
export function readEvalSetFile(file: string, options: ReadEvalSetFileOptions = {}): EvalSet {
  if (extname(file) !== '.json') return readEvalSetModule(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new EvalSetError('EVAL_SET_NOT_FOUND', evalSetNotFoundMessage(file, (error as Error).message), { cause: error });
  }
  let json: unknown;
  try {
    // A UTF-8 byte order mark (some Windows editors write one) is not JSON; it is not part of the text either.
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(file, [`is not JSON: ${(error as Error).message}`]), { cause: error });
  }
  if (isOldAdkTestFile(json)) throw new EvalSetError('EVAL_SET_INVALID', invalidEvalSetMessage(file, [OLD_ADK_FORMAT]));
  const root = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  if ('eval_set_id' in root || 'evalSetId' in root) return fromAdkEvalSet(json, { source: file, ...(options.adkAnswers ? { answers: options.adkAnswers } : {}) });
  checkEvalSet(json, { judgeModel: true, source: file });
  return json;
}

function readEvalSetModule(file: string): EvalSet {
  if (!existsSync(file)) throw new EvalSetError('EVAL_SET_NOT_FOUND', evalSetNotFoundMessage(file, 'no such file'));
  if (!statSync(file).isFile()) throw new EvalSetError('EVAL_SET_NOT_FOUND', evalSetNotFoundMessage(file, 'it is a folder, not a file'));
  const failed = (message: string, cause: unknown) => new EvalSetError('EVAL_SET_INVALID', message, { cause });
  registerTypeScript(file, failed);
  let exported: Record<string, unknown>;
  try {
    exported = require(file) as Record<string, unknown>;
  } catch (error) {
    throw failed(invalidEvalSetMessage(file, [`fails to load: ${thrownMessage(error)}`]), error);
  }
  const set = exported.evalSet ?? exported.default;
  checkEvalSet(set, { judgeModel: true, source: `${file} (its evalSet export)` });
  return set;
}
