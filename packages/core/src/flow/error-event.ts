import type { InvocationContext } from '../agents/invocation-context';
import type { ToolsmithError } from '../errors/toolsmith-error';
import { Event } from '../events/event';
import { runFailedMessage } from '../errors/messages';
import { thrownMessage } from '../errors/thrown-message';
import { redactSecretText, redactSecrets } from '../redaction/secret-redaction';
import type { EventActions } from '../state/event-actions';
import { isErrorCode } from '../errors/reportable-error';
import { copiedAsJson } from '../internal/result-budget';

/**
 * An event reporting `error` (its stable code, message and details; no stack, no cause), with `actions` (the state
 * writes of the call it ends). A `RUN_ABORTED` event gets none, whoever threw it: it is never stored (see the runner's
 * record), so it must not say it wrote what the session never holds.
 */
export function errorEvent(context: InvocationContext, author: string, error: ToolsmithError, actions?: EventActions): Event {
  const fields = errorFields(error);
  const event = Event.of(context.invocationId, author, context.branch, undefined, fields.errorCode === 'RUN_ABORTED' ? undefined : actions);
  event.errorCode = fields.errorCode;
  event.errorMessage = fields.errorMessage;
  event.errorDetails = fields.errorDetails;
  return event;
}

/**
 * What an error event says of `error`: its code, its message (secret-looking text in it, such as an API key a
 * provider echoed, redacted) and, when it has any, its details as
 * plain JSON with secrets redacted (an event is stored and shown). Details that are not JSON (a cycle,
 * a BigInt) are left out: the code and message still say what went wrong.
 */
export function errorFields(error: ToolsmithError): { errorCode: string; errorMessage: string; errorDetails?: unknown } {
  let code: unknown;
  let message: unknown;
  let details: unknown;
  try {
    ({ code, message, details } = error);
  } catch (thrown) {
    // Something thrown that carries the Toolsmith error brand but cannot be read: the run still ends on an event.
    return unreadableErrorFields(`an error whose fields cannot be read (${thrownMessage(thrown)})`);
  }
  if (!isErrorCode(code) || typeof message !== 'string') return unreadableErrorFields('an error that cannot be reported as it is (its code must be 1 to 128 ASCII letters, digits and _.:-, with no secret-looking text; its message a string)');
  // isErrorCode refused a code that looks like a secret: only the message needs redacting.
  const fields = { errorCode: code, errorMessage: redactSecretText(message) };
  if (details === undefined) return fields;
  // Copied by the walk that checks a tool's error details (a Map or a Set is not JSON either, where
  // JSON.stringify would make it {}): what it refuses is left out here too, and what it copied is what is kept.
  const checked = copiedAsJson(details);
  return checked.problem !== undefined || checked.copy === undefined ? fields : { ...fields, errorDetails: redactSecrets(checked.copy) };
}

/** {@link errorFields} of an error that cannot be reported as it is: `INTERNAL_ERROR`, saying why. */
function unreadableErrorFields(reason: string): { errorCode: string; errorMessage: string } {
  return { errorCode: 'INTERNAL_ERROR', errorMessage: redactSecretText(runFailedMessage(reason)) };
}
