import { confirmationRequests } from '../../confirmation/confirmation-requests';
import type { Event } from '../../events/event';
import type { Content, FunctionCall } from '../../model/content';
import type { LlmRequest } from '../../model/llm-request';
import type { Runner } from '../runner';

/** Sends `newMessage` in a new run of session u1/s1 and collects the events. */
export async function send(runner: Runner, newMessage: Content, sessionId = 's1'): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId, newMessage })) events.push(event);
  return events;
}

/** The single REQUEST_CONFIRMATION call among `events` (fails the test when there is not exactly one). */
export function onlyRequest(events: readonly Event[]): FunctionCall {
  const requests = events.flatMap((event) => confirmationRequests(event));
  if (requests.length !== 1) throw new Error(`expected one confirmation request, got ${requests.length}`);
  return requests[0].call;
}

/** Every function response the model was shown in `request`, in order. */
export function shownResponses(request: LlmRequest) {
  return request.contents.flatMap((content) => content.parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : [])));
}
