import { InvalidCredentialAnswerError } from '../errors/auth-errors';
import { REDACTED } from '../redaction/secret-redaction';
import { isRecord } from './request-confirmation';

/**
 * The method of a credential service that says the typed-in credentials of the answer being run were
 * saved already, by whoever handed the runner the answer with its values `[redacted]` (DurableRunner's
 * workflows, whose service then skips the save): while it returns `true` the runner takes such an answer.
 */
export const CALLER_SAVED_CREDENTIALS = Symbol.for('toolsmith.callerSavedCredentials');

/** Whether `service` says the typed-in credentials being run were saved by the caller (see {@link CALLER_SAVED_CREDENTIALS}). */
export function savedByCaller(service: object): boolean {
  const saved = (service as { [CALLER_SAVED_CREDENTIALS]?: () => boolean })[CALLER_SAVED_CREDENTIALS];
  return typeof saved === 'function' && saved.call(service) === true;
}

/**
 * A refusal (`INVALID_CREDENTIAL_ANSWER`) of the first typed-in credential in `answers` (request id →
 * the answer's `response`, as withholdCredentials took them out) with a field whose value is `[redacted]`:
 * what the runner stores in place of a typed value, so such an answer was read back from a session (or
 * copied from a shown one), not typed in; saved, the tool would run with the marker as its key. Every such
 * field is named; `undefined` when there is none.
 */
export function redactedCredentialAnswer(answers: ReadonlyMap<string, unknown>): InvalidCredentialAnswerError | undefined {
  for (const [requestId, response] of answers) {
    const credential = isRecord(response) ? response.credential : undefined;
    if (!isRecord(credential)) continue;
    const marked = Object.keys(credential).filter((field) => credential[field] === REDACTED);
    if (marked.length === 0) continue;
    const fields = marked.map((field) => `"credential.${field}"`).join(', ');
    return new InvalidCredentialAnswerError(
      requestId,
      `${fields} ${marked.length === 1 ? 'is' : 'are'} "${REDACTED}", what a stored answer holds in place of the value typed in, not a credential: send the credential itself`,
    );
  }
  return undefined;
}
