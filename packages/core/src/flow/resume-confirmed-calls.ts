import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import { type PendingConfirmation, findPendingCalls } from '../confirmation/pending-calls';
import { isPauseRequestName, isRecord } from '../confirmation/request-confirmation';
import type { Event } from '../events/event';
import type { ToolConfirmation } from '../state/event-actions';
import { confirmationPause } from './confirmation-pause';
import { credentialConfirmation } from './credential-confirmation';
import { applyDeferredStepActions } from './deferred-step-actions';
import { handleFunctionCalls } from './function-call-handler';

/** What {@link resumeConfirmedCalls} did. */
export interface ResumedCalls {
  /** The responses of the answered calls (confirmed ones ran; denied ones are `TOOL_CALL_REJECTED` errors), in call order. */
  event: Event;
  /** Other calls of the same model response still wait for an answer: the model must not be called yet. */
  stillWaiting: boolean;
  /** Emitted after `event`: a new pause of a resumed call (it asked for a credential again). */
  pauseEvents?: Event[];
}

/**
 * Runs the calls whose confirmation requests the user's message answers, at the start of `agent`'s
 * turn. The calls come from the session's records (never from the answer), and run through the
 * executor with `ctx.toolConfirmation` set. Returns `undefined` when the message answers no request
 * of this agent. The message was checked against the session before it was stored.
 */
export async function resumeConfirmedCalls(agent: LlmAgent, context: InvocationContext): Promise<ResumedCalls | undefined> {
  const answers = confirmationAnswers(context);
  if (answers.size === 0) return undefined;
  const events = context.session.events;
  // The records as they were before this invocation stored the answer; what has run since, from all events.
  const before = findPendingCalls(events.filter((event) => event.invocationId !== context.invocationId));
  const now = findPendingCalls(events);
  const resumed: PendingConfirmation[] = [];
  for (const record of before.confirmations.values()) {
    if (answers.has(record.requestId) && record.agentName === agent.name && !now.answered.has(record.originalFunctionCall.id)) resumed.push(record);
  }
  if (resumed.length === 0) return undefined;

  // The tools as offered before any answer is acted on: storing a credential may change a toolset's listing.
  const offered = await context.services.tools.offered(agent, () => context.readonlyContext());
  const confirmations = new Map<string, ToolConfirmation>();
  for (const record of resumed) {
    const answer = answers.get(record.requestId)!;
    if (record.auth) {
      // The answer as the user sent it: the stored (and userContent) copy has its credential redacted.
      confirmations.set(record.originalFunctionCall.id, await credentialConfirmation(context, record, context.withheldAnswers?.get(record.requestId) ?? answer));
      continue;
    }
    const confirmation: ToolConfirmation = { confirmed: answer.confirmed === true };
    if (record.prompt.hint !== undefined) confirmation.hint = record.prompt.hint;
    if (answer.payload !== undefined) confirmation.payload = answer.payload;
    confirmations.set(record.originalFunctionCall.id, confirmation);
  }
  const calls = resumed.map((record) => record.originalFunctionCall);
  const responses = await handleFunctionCalls({ agent, context, calls, offered, confirmations });
  // A resumed call may pause again (a credential the token endpoint refused is asked for again).
  const pause = confirmationPause({ agent, context, calls, responseEvent: responses });
  const [event, ...pauseEvents] = pause.events;
  const requestEvents = new Set(resumed.map((record) => record.requestEventId));
  const stillWaiting = pause.paused || [...now.confirmations.values()].some((record) => requestEvents.has(record.requestEventId));
  // The step is settled now: what its other calls asked for (a transfer, no summary, escalation) takes effect.
  if (!stillWaiting) applyDeferredStepActions(events, agent.name, resumed, event.actions);
  return pauseEvents.length > 0 ? { event, stillWaiting, pauseEvents } : { event, stillWaiting };
}

/** True when the user's message answers confirmation requests: only then can {@link resumeConfirmedCalls} run anything. */
export function answersConfirmations(context: InvocationContext): boolean {
  return context.userContent?.parts.some((part) => isPauseRequestName(part.functionResponse?.name)) ?? false;
}

/** Request id → the answer's response object, for the confirmation answers in the user's message. */
function confirmationAnswers(context: InvocationContext): Map<string, Record<string, unknown>> {
  const answers = new Map<string, Record<string, unknown>>();
  for (const part of context.userContent?.parts ?? []) {
    const response = part.functionResponse;
    if (isPauseRequestName(response?.name) && isRecord(response!.response)) answers.set(response!.id, response!.response);
  }
  return answers;
}
