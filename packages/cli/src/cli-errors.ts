import { ToolsmithError } from '@toolsmith/core';

/** The command line is wrong (unknown command or flag, missing value); the message says how to call it. */
export class CliUsageError extends ToolsmithError {
  constructor(message: string) {
    super('CLI_USAGE', message);
  }
}

/**
 * `toolsmith schema` cannot describe something in the project (a destructured or rest parameter, a
 * type with no JSON form, two toolsets with one class name); the message names the place and the fix.
 */
export class SchemaSourceError extends ToolsmithError {
  constructor(message: string, cause?: unknown) {
    super('SCHEMA_SOURCE_UNSUPPORTED', message, cause === undefined ? {} : { cause });
  }
}

/** The TypeScript project cannot be loaded (no tsconfig, a broken tsconfig). */
export class ProjectLoadError extends ToolsmithError {
  constructor(message: string) {
    super('PROJECT_LOAD_FAILED', message);
  }
}
