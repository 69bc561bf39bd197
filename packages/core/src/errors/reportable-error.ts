import { ToolsmithError } from './toolsmith-error';

/** What an error code may be: a stable identifier of 1 to 128 characters, with no whitespace or control character. */
const CODE = /^[^\s\p{Cc}]{1,128}$/u;

/** True for a string an error code may be (see {@link reportableError}). */
export function isErrorCode(code: unknown): code is string {
  return typeof code === 'string' && CODE.test(code);
}

/**
 * `thrown` when it is a Toolsmith error that can be reported as it is: its `code` an error code (1 to 128
 * characters, no whitespace or control character), its `message` a string, and its `details` readable. Otherwise
 * `undefined`, and the caller reports `thrown` as a failure of its own kind (by its text, see
 * `thrownMessage`): something carrying the Toolsmith error brand whose fields throw when read, or a code
 * that is empty, blank or a megabyte long, must not end a run that would have answered a plain throw.
 */
export function reportableError(thrown: unknown): ToolsmithError | undefined {
  if (!ToolsmithError.isInstance(thrown)) return undefined;
  try {
    // `details` is read too: one that throws when read would fail the report as the other fields would.
    return isErrorCode(thrown.code) && typeof thrown.message === 'string' && (thrown.details, true) ? thrown : undefined;
  } catch {
    return undefined;
  }
}
