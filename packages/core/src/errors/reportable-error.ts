import { types } from 'node:util';
import { redactSecretText } from '../redaction/secret-redaction';
import { ToolsmithError } from './toolsmith-error';

/** What an error code may be: a stable identifier of 1 to 128 characters, with no whitespace or control character. */
const CODE = /^[^\s\p{Cc}]{1,128}$/u;

/**
 * True for a string an error code may be (see {@link reportableError}): 1 to 128 characters, no
 * whitespace or control character, and nothing that looks like a secret (an API key, a token: a code is
 * stored, traced and shown as it is).
 */
export function isErrorCode(code: unknown): code is string {
  return typeof code === 'string' && CODE.test(code) && redactSecretText(code) === code;
}

/**
 * `thrown` when it is a Toolsmith error that can be reported as it is, and read again with the same
 * answers: an error of the package's own making (not a Proxy), whose `code`, `message` and `details` are
 * its own data (no getter), its `code` an error code ({@link isErrorCode}) and its `message` a string.
 * Otherwise `undefined`, and the caller reports `thrown` as a failure of its own kind, by its text (see
 * `thrownMessage`): something carrying the Toolsmith error brand whose fields throw or change when read,
 * or whose code is empty, blank, a megabyte long or a secret, must not end a run that would have answered
 * a plain throw, nor reach the session, a span or a client.
 *
 * @example
 * ```ts
 * const error = reportableError(thrown) ?? new ToolsmithError('INTERNAL_ERROR', thrownMessage(thrown));
 * ```
 */
export function reportableError(thrown: unknown): ToolsmithError | undefined {
  if (typeof thrown !== 'object' || thrown === null || types.isProxy(thrown) || !ToolsmithError.isInstance(thrown)) return undefined;
  try {
    const code = ownData(thrown, 'code');
    const message = ownData(thrown, 'message');
    if (code === ACCESSOR || message === ACCESSOR || ownData(thrown, 'details') === ACCESSOR) return undefined;
    return isErrorCode(code) && typeof message === 'string' ? thrown : undefined;
  } catch {
    return undefined;
  }
}

/** Marks a member that is a getter or setter: read again, it may answer otherwise. */
const ACCESSOR: unique symbol = Symbol('accessor');

/** `value`'s own data member `key` (`undefined` when it has none), or {@link ACCESSOR}. */
function ownData(value: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  if (descriptor === undefined) return undefined;
  return 'value' in descriptor ? descriptor.value : ACCESSOR;
}
