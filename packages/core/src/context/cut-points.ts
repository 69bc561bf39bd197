import { findPendingCalls } from '../confirmation/pending-calls';
import type { Event } from '../events/event';

/**
 * True for the event that starts a turn: a user message with something besides function responses
 * (text, a file). Answers to confirmations and long-running calls continue a turn; they never start one.
 */
export function startsTurn(event: Event): boolean {
  if (event.author !== 'user' || event.partial || !event.content || event.content.parts.length === 0) return false;
  for (const part of event.content.parts) if (!part.functionResponse) return true;
  return false;
}

/**
 * The indexes of `events` where the history may be cut (everything before the index summarized or left
 * out, everything from it on sent as it is), in increasing order. A cut point starts a turn, and no
 * call before it:
 *
 * - has a response at or after it (a call and its result, parallel calls' results included, stay together);
 * - waits for the user's confirmation (the call, its request and the answer stay together);
 * - is a long-running call still waiting for its final response;
 * - is unanswered while the conversation has not moved on past it (no model event after it).
 *
 * An orphaned call (never answered, with later model events after it: the conversation moved on) does
 * not hold cuts back: it and everything around it can be cut away whole.
 */
export function cutPoints(events: readonly Event[]): number[] {
  const pending = findPendingCalls(events);
  const open = new Set<string>(pending.longRunning.keys());
  for (const record of pending.confirmations.values()) {
    open.add(record.requestId);
    open.add(record.originalFunctionCall.id);
  }
  // Where each call is made and where its last response is; the last model event (a call after it is not an orphan).
  const lastResponse = new Map<string, number>();
  let lastModelEvent = -1;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (event.partial || !event.content) continue;
    if (event.author !== 'user' && event.content.role === 'model') lastModelEvent = i;
    for (const part of event.content.parts) if (part.functionResponse) lastResponse.set(part.functionResponse.id, i);
  }
  const points: number[] = [];
  // `reach`: the first index a cut may use, given the calls seen so far (a cut must come after every
  // response of every call before it); `blocked`: a call before here holds every later cut back.
  let reach = 0;
  let blocked = false;
  for (let i = 0; i < events.length && !blocked; i++) {
    const event = events[i];
    if (i >= reach && i > 0 && startsTurn(event)) points.push(i);
    if (event.partial || !event.content) continue;
    for (const part of event.content.parts) {
      const call = part.functionCall;
      if (!call) continue;
      const answeredAt = lastResponse.get(call.id);
      if (open.has(call.id) || (answeredAt === undefined && i >= lastModelEvent)) blocked = true;
      else if (answeredAt !== undefined && answeredAt + 1 > reach) reach = answeredAt + 1;
    }
  }
  return points;
}

/**
 * The cut that keeps the last `keepTurns` turns: the latest cut point at or before the start of the
 * `keepTurns`-th last turn, after `after` (an earlier cut), or `undefined` when there is none.
 */
export function cutKeepingTurns(events: readonly Event[], keepTurns: number, after = 0): number | undefined {
  let wanted = events.length;
  let turns = 0;
  for (let i = events.length - 1; i >= 0 && turns < keepTurns; i--) {
    if (startsTurn(events[i])) {
      turns++;
      wanted = i;
    }
  }
  if (turns < keepTurns) return undefined;
  let cut: number | undefined;
  for (const point of cutPoints(events)) {
    if (point > wanted) break;
    if (point > after) cut = point;
  }
  return cut;
}
