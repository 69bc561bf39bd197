import { EventData } from '../events/event';
import { FunctionCall } from '../model/content';
import { ConfirmationPrompt, confirmationPromptFrom, isConfirmationRequest, originalCallFrom } from './request-confirmation';

/** A confirmation request found in an event, ready to show to the user. */
export interface ConfirmationRequest extends ConfirmationPrompt {
  /** The {@link REQUEST_CONFIRMATION} call itself: its id is the one to answer. */
  call: FunctionCall;
  /** The tool call waiting for the decision. */
  originalFunctionCall: FunctionCall;
}

/**
 * Lists the confirmation requests an event carries (none for most events), in call order.
 *
 * @example
 * ```ts
 * for await (const event of runner.run(input)) {
 *   for (const request of confirmationRequests(event)) ask(request.hint, request.originalFunctionCall);
 * }
 * ```
 */
export function confirmationRequests(event: Pick<EventData, 'content'>): ConfirmationRequest[] {
  const requests: ConfirmationRequest[] = [];
  for (const part of event.content?.parts ?? []) {
    const call = part.functionCall;
    if (!call || !isConfirmationRequest(call)) continue;
    requests.push({ call, originalFunctionCall: originalCallFrom(call), ...confirmationPromptFrom(call) });
  }
  return requests;
}
