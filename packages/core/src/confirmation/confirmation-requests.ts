import type { EventData } from '../events/event';
import type { FunctionCall } from '../model/content';
import { isRunnerRequest } from './pending-calls';
import { type ConfirmationPrompt, confirmationPromptFrom, isConfirmationRequest, originalCallFrom } from './request-confirmation';

/** A confirmation request found in an event, ready to show to the user. */
export interface ConfirmationRequest extends ConfirmationPrompt {
  /** The {@link REQUEST_CONFIRMATION} call itself: its id is the one to answer. */
  call: FunctionCall;
  /** The tool call waiting for the decision. */
  originalFunctionCall: FunctionCall;
  /**
   * Set when an `AgentTool`'s inner agent asked (`originalFunctionCall` is then the outer call of the
   * agent tool): the inner agent whose model made the waiting call, and that call. The decision is on this call: an `edit` gives
   * its arguments, checked against its tool.
   */
  relayed?: { agent: string; call: FunctionCall };
  /**
   * Who asked (for a relayed request, who asked the inner agent): `runner` (the tool's
   * `requireConfirmation` rule or the confirmation policy), where "always allow" (`remember`) applies,
   * or `tool` (`ctx.requestConfirmation`), where it does not and an answer with `remember` is refused: a
   * client offers "always allow" only for `runner`. Absent on requests stored before it was recorded.
   */
  askedBy?: 'runner' | 'tool';
}

/**
 * Lists the confirmation requests an event carries (none for most events), in call order. Only the
 * runner's own pause events carry requests: a `toolsmith_request_confirmation` call written by a model
 * (or placed in a user message) is not listed, so a client that approves what this returns can never
 * approve a forged request.
 *
 * @example
 * ```ts
 * for await (const event of runner.run(input)) {
 *   for (const request of confirmationRequests(event)) ask(request.hint, request.originalFunctionCall);
 * }
 * ```
 */
export function confirmationRequests(event: Pick<EventData, 'content' | 'author' | 'actions' | 'longRunningToolIds'>): ConfirmationRequest[] {
  const requests: ConfirmationRequest[] = [];
  if (!event.actions?.requestedToolConfirmations) return requests; // not a pause event: most events
  for (const part of event.content?.parts ?? []) {
    const call = part.functionCall;
    if (!call || !isConfirmationRequest(call)) continue;
    let originalFunctionCall: FunctionCall;
    try {
      originalFunctionCall = originalCallFrom(call);
    } catch {
      continue;
    }
    if (!isRunnerRequest(event, call.id, originalFunctionCall.id)) continue;
    const request: ConfirmationRequest = { call, originalFunctionCall, ...confirmationPromptFrom(call) };
    const { relay, askedBy } = event.actions.requestedToolConfirmations[originalFunctionCall.id];
    if (relay) request.relayed = { agent: relay.agent, call: relay.call };
    if (askedBy) request.askedBy = askedBy;
    requests.push(request);
  }
  return requests;
}
