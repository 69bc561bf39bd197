/**
 * Every code `@toolsmith/openai` reports itself, with what it means (codes it reports for core, such as
 * `RATE_LIMITED`, are core's: `CORE_ERROR_CODES`). docs/errors.md lists every one; a test checks both.
 */
export const OPENAI_ERROR_CODES = {
  STRICT_SCHEMA_UNSUPPORTED: 'A tool schema strict mode cannot express (maps, tuples, allOf of several schemas), refused when the Runner is built; `strict: false` sends it non-strict.',
  PROVIDER_TOOL_UNSUPPORTED: 'A native OpenAI tool the chosen API (Chat or Responses) does not take.',
} as const;

/** A code `@toolsmith/openai` reports itself (see {@link OPENAI_ERROR_CODES}). */
export type OpenAIErrorCode = keyof typeof OPENAI_ERROR_CODES;
