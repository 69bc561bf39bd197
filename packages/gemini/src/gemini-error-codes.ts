/**
 * Every code `@toolsmith/gemini` reports itself, with what it means (codes it reports for core, such as
 * `RATE_LIMITED`, are core's: `CORE_ERROR_CODES`). docs/errors.md lists every one; a test checks both.
 */
export const GEMINI_ERROR_CODES = {
  GEMINI_SCHEMA_UNSUPPORTED: 'A tool or output schema Gemini cannot take (e.g. a required recursive reference), refused when the Runner is built.',
  GEMINI_TOOL_NAME_INVALID: 'A tool or parameter name Gemini rejects (it must start with a letter or underscore), refused when the Runner is built.',
  PROMPT_BLOCKED: 'Gemini blocked the prompt (its promptFeedback names the reason).',
} as const;

/** A code `@toolsmith/gemini` reports itself (see {@link GEMINI_ERROR_CODES}). */
export type GeminiErrorCode = keyof typeof GEMINI_ERROR_CODES;
