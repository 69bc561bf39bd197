/**
 * Every code `@toolsmith/devtools` reports itself, with what it means (codes it reports for core, such as
 * `RATE_LIMITED`, are core's: `CORE_ERROR_CODES`). docs/errors.md lists every one; a test checks both.
 */
export const DEVTOOLS_ERROR_CODES = {
  AGENT_MODULE_NOT_FOUND: '`toolsmith web/api/run <module>`: the module does not exist.',
  AGENT_MODULE_LOAD_FAILED: '`toolsmith web/api/run <module>`: loading the module failed.',
  NO_AGENT_EXPORTED: 'The module exports no agent or Runner.',
  BAD_REQUEST: 'The dev API request is malformed.',
  NOT_FOUND: 'The dev API has nothing at that path.',
  NOT_PENDING: 'The dev API was asked to answer a call that is not pending.',
  INTERNAL_ERROR: 'The dev API failed unexpectedly.',
} as const;

/** A code `@toolsmith/devtools` reports itself (see {@link DEVTOOLS_ERROR_CODES}). */
export type DevtoolsErrorCode = keyof typeof DEVTOOLS_ERROR_CODES;
