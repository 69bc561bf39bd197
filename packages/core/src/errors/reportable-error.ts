import { types } from 'node:util';
import { redactSecretText } from '../redaction/secret-redaction';
import { ToolsmithError } from './toolsmith-error';

/** What an error code may be: an identifier of 1 to 128 ASCII letters, digits, `_`, `.`, `:` and `-`, starting with a letter or digit. */
const CODE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/** Codes found to be error codes, so each is checked once (a process reports few distinct codes). */
const knownCodes = new Set<string>();
const MAX_KNOWN_CODES = 1_000;

/**
 * True for a string an error code may be (see {@link reportableError}): an identifier of 1 to 128 ASCII
 * letters, digits, `_`, `.`, `:` and `-` (no whitespace, no invisible or look-alike character), and
 * nothing that looks like a secret (an API key, a token: a code is stored, traced and shown as it is).
 */
export function isErrorCode(code: unknown): code is string {
  if (typeof code !== 'string') return false;
  if (knownCodes.has(code)) return true;
  if (!CODE.test(code) || redactSecretText(code) !== code) return false;
  if (knownCodes.size < MAX_KNOWN_CODES) knownCodes.add(code);
  return true;
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
