import type { InnerCallRecord } from '../confirmation/inner-call-record';
import type { EventData } from '../events/event';
import type { ConfirmationPolicyVerdict } from '../confirmation/confirmation-policy';
import type { CallConfirmation } from '../confirmation/call-confirmation';
import { readConfirmationDecision } from '../confirmation/confirmation-decision';
import { REQUEST_CONFIRMATION, isRecord } from '../confirmation/request-confirmation';
import { ToolsmithError } from '../errors/toolsmith-error';

/**
 * The calls of an agent tool's inner session that a confirmation settled or the confirmation policy
 * judged, in the order their responses were stored: each response's own `confirmation` and `policy` (the
 * verdict on a call that waited is on its request), then what an agent tool nested in it recorded
 * (`innerCalls`), so the list is flat whatever the depth. A call the person decided on (every answer in an
 * inner session came through the relay) is listed with its decision, a plain approval included
 * (`{ decision, by: 'user' }` when its response records none). A nested agent tool's call whose request
 * relayed a call inside it is not listed itself: the decision was on that inner call, which its list names.
 */
export function innerCallRecords(events: readonly EventData[]): InnerCallRecord[] {
  const askedVerdicts = new Map<string, ConfirmationPolicyVerdict>();
  // Request id → its call's id; call id → the person's last decision on a request of its own; calls whose request relayed an inner call.
  const requestedCalls = new Map<string, string>();
  const decided = new Map<string, CallConfirmation>();
  const relayed = new Set<string>();
  const records: InnerCallRecord[] = [];
  for (const event of events) {
    if (event.partial) continue;
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      const args = call?.name === REQUEST_CONFIRMATION && isRecord(call.args) ? call.args : undefined;
      const original = isRecord(args?.originalFunctionCall) ? args.originalFunctionCall : undefined;
      if (call?.id && typeof original?.id === 'string') requestedCalls.set(call.id, original.id);
      const answer = event.author === 'user' && part.functionResponse?.name === REQUEST_CONFIRMATION ? part.functionResponse : undefined;
      const callId = answer && requestedCalls.get(answer.id);
      if (!answer || callId === undefined || relayed.has(callId)) continue;
      const decision = readConfirmationDecision(answer.id, answer.response);
      if (!(decision instanceof ToolsmithError)) decided.set(callId, { decision: decision.decision, by: 'user' });
    }
    if (event.author === 'user') continue;
    for (const [callId, request] of Object.entries(event.actions?.requestedToolConfirmations ?? {})) {
      if (request.relay) relayed.add(callId);
      else if (request.policy) askedVerdicts.set(callId, request.policy);
    }
    for (const part of event.content?.parts ?? []) {
      const response = part.functionResponse;
      if (!response) continue;
      const policy = response.policy ?? askedVerdicts.get(response.id);
      const confirmation = relayed.has(response.id) ? undefined : (response.confirmation ?? decided.get(response.id));
      if (confirmation || policy) {
        const record: InnerCallRecord = { agent: event.author, call: { id: response.id, name: response.name } };
        if (confirmation) record.confirmation = confirmation;
        if (policy) record.policy = policy;
        records.push(record);
      }
      if (response.innerCalls) records.push(...response.innerCalls);
    }
  }
  return records;
}
