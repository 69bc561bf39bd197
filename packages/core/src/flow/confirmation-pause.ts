import { randomUUID } from 'node:crypto';
import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import { type CredentialRequestArgs, REQUEST_CREDENTIAL } from '../auth/request-credential';
import { type ConfirmationRequestArgs, REQUEST_CONFIRMATION } from '../confirmation/request-confirmation';
import { Event } from '../events/event';
import type { FunctionCall, Part } from '../model/content';
import { type EventActions, type ToolConfirmation, createEventActions } from '../state/event-actions';

/**
 * Turns the calls of one model response that wait for the user's confirmation into one event of
 * {@link REQUEST_CONFIRMATION} calls (one per waiting call, each with its own id, listed in
 * `longRunningToolIds`), emitted after the responses of the calls that did run. The request event is
 * what the session remembers: resuming later, in any process, reads it back.
 *
 * `calls` are the model's calls, in order; `responseEvent` their merged responses (calls waiting for confirmation
 * have no response part). Returns the events to emit when the invocation pauses (the response event first when
 * it has parts, then the request event); `undefined` when no call waits: the response event alone goes on.
 */
export function confirmationPause(agent: LlmAgent, context: InvocationContext, calls: readonly FunctionCall[], responseEvent: Event): Event[] | undefined {
  const requested = responseEvent.actions.requestedToolConfirmations;
  if (!requested) return undefined;
  const answered = new Set(responseEvent.functionResponses().map((r) => r.id));
  // A call that asked for confirmation but still answered (e.g. it failed, or ran after a confirmation) does not wait.
  const waiting = calls.filter((call) => Object.prototype.hasOwnProperty.call(requested, call.id) && !answered.has(call.id));
  delete responseEvent.actions.requestedToolConfirmations;
  if (waiting.length === 0) return undefined;

  const waitingRequests: Record<string, ToolConfirmation> = {};
  const parts: Part[] = waiting.map((call) => {
    waitingRequests[call.id] = requested[call.id];
    return { functionCall: requestCall(call, requested[call.id]) };
  });
  const events: Event[] = [];
  let actions: EventActions;
  if (responseEvent.content && responseEvent.content.parts.length > 0) {
    events.push(responseEvent);
    actions = createEventActions();
  } else {
    actions = responseEvent.actions; // nothing ran that needs its own event; keep its actions on the request
  }
  actions.requestedToolConfirmations = waitingRequests;
  events.push(
    Event.create({
      invocationId: context.invocationId,
      author: agent.name,
      branch: context.branch,
      content: { role: 'model', parts },
      actions,
      longRunningToolIds: parts.map((part) => part.functionCall!.id),
    }),
  );
  return events;
}

function requestCall(original: FunctionCall, confirmation: ToolConfirmation): FunctionCall {
  const originalFunctionCall = { id: original.id, name: original.name, args: parsedArgs(original.args) };
  if (confirmation.auth) {
    // The public config only (no client secret, no verifier): this call is what the client sees.
    const args: CredentialRequestArgs = { originalFunctionCall, authConfig: confirmation.auth.authConfig };
    if (confirmation.auth.error) args.error = confirmation.auth.error;
    return { id: `credential-${randomUUID()}`, name: REQUEST_CREDENTIAL, args: args as unknown as Record<string, unknown> };
  }
  const toolConfirmation: ConfirmationRequestArgs['toolConfirmation'] = {};
  if (confirmation.hint !== undefined) toolConfirmation.hint = confirmation.hint;
  if (confirmation.payload !== undefined) toolConfirmation.payload = confirmation.payload;
  if (confirmation.payloadSchema !== undefined) toolConfirmation.payloadSchema = confirmation.payloadSchema;
  if (confirmation.editable === false) toolConfirmation.editable = false;
  const args: ConfirmationRequestArgs = {
    originalFunctionCall,
    toolConfirmation,
  };
  // A random id: an answer must name a request the runner actually made.
  return { id: `confirm-${randomUUID()}`, name: REQUEST_CONFIRMATION, args: args as unknown as Record<string, unknown> };
}

/** The executor validated these arguments, so JSON text parses; clients get an object to show. */
function parsedArgs(args: FunctionCall['args']): Record<string, unknown> {
  if (typeof args !== 'string') return args;
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
