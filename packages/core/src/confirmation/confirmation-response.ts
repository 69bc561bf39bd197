import type { Content, FunctionCall, Part } from '../model/content';
import type { ConfirmationRequest } from './confirmation-requests';
import type { PendingConfirmation } from './pending-calls';
import { REQUEST_CONFIRMATION, originalCallFrom } from './request-confirmation';

/**
 * What a confirmation answer can be built from: the request call itself, a request listed by
 * `confirmationRequests(event)`, or a pending confirmation from `findPendingCalls(events)`.
 */
export type ConfirmationRequestRef = FunctionCall | ConfirmationRequest | PendingConfirmation;

/** The user's decision on a confirmation request. */
export interface ConfirmationAnswer {
  /** `true` runs the waiting call (with `ctx.toolConfirmation` set); `false` answers it with a `TOOL_CALL_REJECTED` error response. */
  confirmed: boolean;
  /** Data from the user (e.g. an edited amount); reaches the tool as `ctx.toolConfirmation.payload`. */
  payload?: unknown;
}

/**
 * Builds the message answering a {@link REQUEST_CONFIRMATION} call: a user `Content` with one
 * function response of the request's id and name, carrying `{ confirmed, payload?, originalFunctionCall }`.
 * Send it as `newMessage` of the next `runner.run`. The original call is echoed so the runner can
 * refuse an answer built for another request. To answer several requests at once, concatenate the
 * `parts` of their answers into one message.
 *
 * @example
 * ```ts
 * const [request] = confirmationRequests(event);
 * const newMessage = confirmationResponse(request, { confirmed: true });
 * // or, resuming from a stored session:
 * const [pending] = findPendingCalls(session.events).confirmations.values();
 * const answer = confirmationResponse(pending, { confirmed: false });
 * for await (const e of runner.run({ userId, sessionId, newMessage })) console.log(e.text());
 * ```
 */
export function confirmationResponse(request: ConfirmationRequestRef, answer: ConfirmationAnswer): Content {
  return { role: 'user', parts: [confirmationResponsePart(request, answer)] };
}

/** The single function-response part of {@link confirmationResponse}. */
export function confirmationResponsePart(request: ConfirmationRequestRef, answer: ConfirmationAnswer): Part {
  const { id, original } = requestOf(request);
  const response: Record<string, unknown> = { confirmed: answer.confirmed };
  if (answer.payload !== undefined) response.payload = answer.payload;
  response.originalFunctionCall = original;
  return { functionResponse: { id, name: REQUEST_CONFIRMATION, response } };
}

/** The request id and the waiting call, from whichever form the caller has. */
function requestOf(request: ConfirmationRequestRef): { id: string; original: FunctionCall } {
  if ('requestId' in request) return { id: request.requestId, original: request.originalFunctionCall };
  if ('call' in request) return { id: request.call.id, original: request.originalFunctionCall };
  return { id: request.id, original: originalCallFrom(request) };
}
