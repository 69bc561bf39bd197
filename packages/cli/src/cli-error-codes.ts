/**
 * Every code `@toolsmith/cli` reports itself, with what it means (codes it reports for core, such as
 * `RATE_LIMITED`, are core's: `CORE_ERROR_CODES`). docs/errors.md lists every one; a test checks both.
 */
export const CLI_ERROR_CODES = {
  CLI_USAGE: 'The command line is wrong (unknown command or flag, missing value).',
  PROJECT_LOAD_FAILED: 'The TypeScript project cannot be loaded (no tsconfig, a broken one).',
  SCHEMA_SOURCE_UNSUPPORTED: '`toolsmith schema` cannot describe something in the project (a destructured parameter, a type with no JSON form).',
} as const;

/** A code `@toolsmith/cli` reports itself (see {@link CLI_ERROR_CODES}). */
export type CliErrorCode = keyof typeof CLI_ERROR_CODES;
