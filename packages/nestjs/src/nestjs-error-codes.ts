/**
 * Every code `@toolsmith/nestjs` reports itself, with what it means (codes it reports for core, such as
 * `RATE_LIMITED`, are core's: `CORE_ERROR_CODES`). docs/errors.md lists every one; a test checks both.
 */
export const NESTJS_ERROR_CODES = {
  HTTP_EXCEPTION: 'A Nest HttpException thrown by a tool, mapped to an error response with its status.',
  PLUGIN_NOT_REGISTERED: 'A plugin class named in the options is not registered with ToolsmithModule.',
  PROVIDER_NOT_FOUND: "A toolset's dependency is not a provider of the Nest module.",
  PROVIDER_NEEDS_RUN_SCOPE: 'A request-scoped provider was resolved outside a run.',
} as const;

/** A code `@toolsmith/nestjs` reports itself (see {@link NESTJS_ERROR_CODES}). */
export type NestjsErrorCode = keyof typeof NESTJS_ERROR_CODES;
