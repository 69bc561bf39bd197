// Public API of @toolsmith/cli: the command itself, for running it in-process (tests, build scripts).
export { USAGE, main } from './main';
export type { CliIo, CliOutput } from './cli-io';
export { CliUsageError, ProjectLoadError, SchemaSourceError } from './cli-errors';
export {
  EXIT_ERROR,
  EXIT_OK,
  EXIT_STALE,
  SCHEMA_USAGE,
  diffManifests,
  parseSchemaArgs,
  runSchemaCommand,
} from './commands/schema-command';
export type { SchemaCommandOptions } from './commands/schema-command';
export { CLI_ERROR_CODES } from './cli-error-codes';
export type { CliErrorCode } from './cli-error-codes';
