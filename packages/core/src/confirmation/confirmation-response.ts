import { Content, FunctionCall, Part } from '../model/content';
import { REQUEST_CONFIRMATION, originalCallFrom } from './request-confirmation';

/** The user's decision on a confirmation request. */
export interface ConfirmationAnswer {
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
 * const newMessage = confirmationResponse(request.call, { confirmed: true });
 * for await (const e of runner.run({ userId, sessionId, newMessage })) console.log(e.text());
 * ```
 */
export function confirmationResponse(requestCall: FunctionCall, answer: ConfirmationAnswer): Content {
  return { role: 'user', parts: [confirmationResponsePart(requestCall, answer)] };
}

/** The single function-response part of {@link confirmationResponse}. */
export function confirmationResponsePart(requestCall: FunctionCall, answer: ConfirmationAnswer): Part {
  const original = originalCallFrom(requestCall);
  const response: Record<string, unknown> = { confirmed: answer.confirmed };
  if (answer.payload !== undefined) response.payload = answer.payload;
  response.originalFunctionCall = original;
  return { functionResponse: { id: requestCall.id, name: REQUEST_CONFIRMATION, response } };
}
