import type { InnerCallRecord } from '../confirmation/inner-call-record';
import type { EventData } from '../events/event';
import type { ConfirmationPolicyVerdict } from '../confirmation/confirmation-policy';

/**
 * The calls of an agent tool's inner session that a confirmation settled or the confirmation policy
 * judged, in the order their responses were stored: each response's own `confirmation` and `policy` (the
 * verdict on a call that waited is on its request), then what an agent tool nested in it recorded
 * (`innerCalls`), so the list is flat whatever the depth.
 */
export function innerCallRecords(events: readonly EventData[]): InnerCallRecord[] {
  const askedVerdicts = new Map<string, ConfirmationPolicyVerdict>();
  const records: InnerCallRecord[] = [];
  for (const event of events) {
    if (event.author === 'user' || event.partial) continue;
    for (const [callId, request] of Object.entries(event.actions?.requestedToolConfirmations ?? {})) {
      if (request.policy) askedVerdicts.set(callId, request.policy);
    }
    for (const part of event.content?.parts ?? []) {
      const response = part.functionResponse;
      if (!response) continue;
      const policy = response.policy ?? askedVerdicts.get(response.id);
      if (response.confirmation || policy) {
        const record: InnerCallRecord = { agent: event.author, call: { id: response.id, name: response.name } };
        if (response.confirmation) record.confirmation = response.confirmation;
        if (policy) record.policy = policy;
        records.push(record);
      }
      if (response.innerCalls) records.push(...response.innerCalls);
    }
  }
  return records;
}
