/**
 * Every code `@toolsmith/evals` reports itself, with what it means. docs/errors.md lists every one; a test
 * checks both.
 */
export const EVALS_ERROR_CODES = {
  EVAL_SET_INVALID: 'An eval set (an object, a JSON file or an ADK .evalset.json) is malformed; the message names the place.',
  EVAL_SET_NOT_FOUND: 'The eval set file does not exist or cannot be read.',
  EVAL_SET_UNSUPPORTED: 'An ADK eval set holds what Toolsmith cannot run (a conversation_scenario), or a set holds what ADK files cannot (writing).',
  EVAL_JUDGE_MISSING: 'A case expects a judged answer, but no judgeModel was given.',
  EVAL_SET_FAILED: 'expectEvalSet: a case passed in fewer runs than its threshold asks.',
} as const;

/** A code `@toolsmith/evals` reports itself (see {@link EVALS_ERROR_CODES}). */
export type EvalsErrorCode = keyof typeof EVALS_ERROR_CODES;
