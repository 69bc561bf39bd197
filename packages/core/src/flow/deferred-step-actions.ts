import type { PendingConfirmation } from '../confirmation/pending-calls';
import type { EventData } from '../events/event';
import type { EventActions } from '../state/event-actions';

/**
 * When the last waiting call of a model response is settled, gives the resumed event the flow actions
 * (`transferToAgent`, `skipSummarization`, `escalate`) that the response's other calls set before the
 * pause: they did nothing then, because the step paused, and are read back from the stored events, so
 * any process applies them. Calls settled now run later than those, so their own actions win (as later
 * calls do in one step).
 */
export function applyDeferredStepActions(events: readonly EventData[], agentName: string, settled: readonly PendingConfirmation[], into: EventActions): void {
  const settledIds = new Set(settled.map((record) => record.originalFunctionCall.id));
  const requestEvents = new Set(settled.map((record) => record.requestEventId));
  // The model event is the last one before the request that made a settled call (ids may recur later in the conversation).
  let requestIndex = events.length;
  for (let i = events.length - 1; i >= 0; i--) {
    if (requestEvents.has(events[i].id)) {
      requestIndex = i;
      break;
    }
  }
  let modelIndex = -1;
  for (let i = requestIndex - 1; i >= 0 && modelIndex < 0; i--) {
    const event = events[i];
    if (event.author === agentName && event.content?.parts.some((part) => part.functionCall && settledIds.has(part.functionCall.id))) modelIndex = i;
  }
  if (modelIndex < 0) return;
  const stepIds = new Set(events[modelIndex].content!.parts.flatMap((part) => (part.functionCall ? [part.functionCall.id] : [])));

  const deferred: Pick<EventActions, 'transferToAgent' | 'skipSummarization' | 'escalate'> = {};
  for (let i = modelIndex + 1; i < events.length; i++) {
    const event = events[i];
    if (event.author !== agentName) continue;
    const ofStep = requestEvents.has(event.id) || (event.content?.parts.some((part) => part.functionResponse && stepIds.has(part.functionResponse.id)) ?? false);
    if (!ofStep) continue;
    if (event.actions.transferToAgent !== undefined) deferred.transferToAgent = event.actions.transferToAgent;
    if (event.actions.skipSummarization) deferred.skipSummarization = true;
    if (event.actions.escalate) deferred.escalate = true;
  }
  if (deferred.transferToAgent !== undefined && into.transferToAgent === undefined) into.transferToAgent = deferred.transferToAgent;
  if (deferred.skipSummarization) into.skipSummarization = true;
  if (deferred.escalate) into.escalate = true;
}
