import type { Content, FunctionCall, Part } from '../model/content';
import type { RememberGrant } from './confirmation-decision';
import type { ConfirmationRequest } from './confirmation-requests';
import type { PendingConfirmation } from './pending-calls';
import { REQUEST_CONFIRMATION, originalCallFrom } from './request-confirmation';

/**
 * What a confirmation answer can be built from: the request call itself, a request listed by
 * `confirmationRequests(event)`, or a pending confirmation from `findPendingCalls(events)`.
 */
export type ConfirmationRequestRef = FunctionCall | ConfirmationRequest | PendingConfirmation;

/**
 * The user's decision on a confirmation request: one of the four decisions, or the older yes/no form
 * `{ confirmed, payload? }` (`true` approves, `false` rejects).
 *
 * - `{ decision: 'approve' }` runs the waiting call as the model made it.
 * - `{ decision: 'edit', args }` runs it with `args` instead, checked against the tool's schema first
 *   (`CONFIRMATION_EDIT_INVALID` refuses the answer otherwise); the model is shown the edit.
 * - `{ decision: 'reject', message? }` answers it with `TOOL_CALL_REJECTED`, quoting `message` to the model.
 * - `{ decision: 'respond', result }` answers it with `result` as the tool's result; the tool does not run.
 *
 * `payload` reaches the tool as `ctx.toolConfirmation.payload` when it runs. An approval with `remember`
 * (`{ scope: 'session' | 'user' | 'app', expiresAt?, condition? }`) also stores a grant in the runner's
 * `grantService`, so later calls it covers run without asking.
 */
export type ConfirmationAnswer =
  | { confirmed: boolean; payload?: unknown }
  | { decision: 'approve'; payload?: unknown; remember?: RememberGrant }
  | { decision: 'edit'; args: Record<string, unknown>; payload?: unknown }
  | { decision: 'reject'; message?: string; payload?: unknown }
  | { decision: 'respond'; result: unknown; payload?: unknown };

/**
 * Builds the message answering a {@link REQUEST_CONFIRMATION} call: a user `Content` with one
 * function response of the request's id and name, carrying the decision (see {@link ConfirmationAnswer}),
 * `payload?` and `originalFunctionCall`.
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
  const response: Record<string, unknown> = {};
  if ('decision' in answer) {
    response.decision = answer.decision;
    // `confirmed` too where it has a meaning, so a reader of the yes/no form understands approve and reject;
    // an edit or a response has none, so such a reader refuses them rather than run the model's call.
    if (answer.decision === 'approve' || answer.decision === 'reject') response.confirmed = answer.decision === 'approve';
    if (answer.decision === 'approve' && answer.remember !== undefined) response.remember = answer.remember;
    if (answer.decision === 'edit') response.args = answer.args;
    if (answer.decision === 'reject' && answer.message !== undefined) response.message = answer.message;
    if (answer.decision === 'respond') response.result = answer.result;
  } else response.confirmed = answer.confirmed;
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
