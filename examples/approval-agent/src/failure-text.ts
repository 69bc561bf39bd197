import { ToolsmithError } from '@toolsmith/core';

/**
 * What the demo prints when it fails: a Toolsmith error's code and message, which say what happened and
 * what to do (a second `--resume` while one runs gets `POSTGRES_DATA_DIR_LOCKED`, naming the process that
 * holds the directory); anything else as Node prints it, stack included, since that is a bug to look into.
 */
export function failureText(error: unknown): string {
  if (ToolsmithError.isInstance(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? (error.stack ?? String(error)) : String(error);
}
