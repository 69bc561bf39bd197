/**
 * Every code `@toolsmith/anthropic` reports itself, with what it means (codes it reports for core, such as
 * `RATE_LIMITED`, are core's: `CORE_ERROR_CODES`). docs/errors.md lists every one; a test checks both.
 */
export const ANTHROPIC_ERROR_CODES = {
  PAUSE_TURN_LIMIT: 'Anthropic paused a turn of server tools more often than `maxPauseContinuations` allows; the answer so far is kept (see docs/providers.md).',
} as const;

/** A code `@toolsmith/anthropic` reports itself (see {@link ANTHROPIC_ERROR_CODES}). */
export type AnthropicErrorCode = keyof typeof ANTHROPIC_ERROR_CODES;
