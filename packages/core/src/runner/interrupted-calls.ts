import { findPendingCalls } from '../confirmation/pending-calls';
import { REQUEST_CONFIRMATION } from '../confirmation/request-confirmation';
import { ToolInterruptedError } from '../errors/tool-interrupted-error';
import { Event } from '../events/event';
import { errorResponse } from '../internal/tool-executor';
import type { FunctionCall, Part } from '../model/content';

/** A model's call that was stored without a response and is not legitimately waiting. */
export interface InterruptedCall {
  call: FunctionCall;
  /** The stored event that holds the call (its author and branch answer it). */
  event: Event;
}

/**
 * The calls of a session that were cut off: a model's call stored with no response after it, that is
 * not waiting for the user (a pending confirmation, or a long-running call waiting for updates). This
 * is what a process that died inside a tool call leaves behind, in any store.
 *
 * Only the current turn is read (back to the last complete model answer), because a finished turn
 * answered every call; a pending confirmation or long-running call is looked up in the whole session,
 * and only when there is an unanswered call at all, so the usual run pays for one short backward scan.
 */
export function findInterruptedCalls(events: readonly Event[]): InterruptedCall[] {
  return unansweredCalls(events) ?? [];
}

/** {@link findInterruptedCalls}, `undefined` for none: the usual turn (a new session, or one whose last turn ended) makes no set and no list. */
function unansweredCalls(events: readonly Event[]): InterruptedCall[] | undefined {
  let start = events.length;
  while (start > 0 && !endsTurn(events[start - 1])) start--;
  let responded: Set<string> | undefined;
  let calls: InterruptedCall[] | undefined;
  for (let i = start; i < events.length; i++) {
    const event = events[i];
    if (event.partial || !event.content) continue;
    for (const part of event.content.parts) {
      if (part.functionResponse) (responded ??= new Set()).add(part.functionResponse.id);
      else if (part.functionCall && event.author !== 'user') (calls ??= []).push({ call: part.functionCall, event });
    }
  }
  if (!calls) return undefined;
  const unanswered = responded ? calls.filter((entry) => !responded.has(entry.call.id)) : calls;
  if (unanswered.length === 0) return undefined;
  const pending = findPendingCalls(events);
  const waiting = new Set<string>(pending.longRunning.keys());
  for (const record of pending.confirmations.values()) {
    waiting.add(record.requestId);
    waiting.add(record.originalFunctionCall.id);
  }
  // A question closed unanswered (the call's final update came, or a newer question superseded it) was not cut off.
  const interrupted = unanswered.filter((entry) => !waiting.has(entry.call.id) && !(entry.call.name === REQUEST_CONFIRMATION && pending.answered.has(entry.call.id)));
  return interrupted.length > 0 ? interrupted : undefined;
}

/** What {@link interruptedCallEvents} returns when no call was cut off: shared, so frozen. */
const NONE: readonly Event[] = Object.freeze([]);

/**
 * One event per model response with interrupted calls, answering each of its cut-off calls with a
 * `TOOL_INTERRUPTED` error response (authored by the agent that made the calls, on its branch), so the
 * model and the client see what happened and the history is valid again. Nothing is run.
 */
export function interruptedCallEvents(events: readonly Event[], invocationId: string): readonly Event[] {
  const interrupted = unansweredCalls(events);
  if (!interrupted) return NONE;
  const byEvent = new Map<Event, Part[]>();
  for (const { call, event } of interrupted) {
    let parts = byEvent.get(event);
    if (!parts) byEvent.set(event, (parts = []));
    parts.push({ functionResponse: errorResponse(call, new ToolInterruptedError(call.name, call.id)) });
  }
  return [...byEvent].map(([event, parts]) => Event.create({ invocationId, author: event.author, branch: event.branch, content: { role: 'user', parts } }));
}

/** A complete model answer without calls: every call before it was answered when the model was asked. */
function endsTurn(event: Event): boolean {
  if (event.partial || event.author === 'user' || event.content?.role !== 'model') return false;
  for (const part of event.content.parts) if (part.functionCall || part.functionResponse) return false;
  return true;
}
