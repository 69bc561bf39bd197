import type { EventActions } from './event-actions';
import { setStateKey } from './state-keys';

/**
 * Replaces `actions.stateDelta` by a plain copy of it, each of its values read once, and returns the copy:
 * a store reads the delta several times in an append (to split it by scope, to store the event, to apply
 * it to the session), and a getter or Proxy could answer each read otherwise, so the stored event's delta
 * would differ from the state applied. Every store calls it first in an append of an event that changes
 * state.
 */
export function settleStateDelta(actions: EventActions): Record<string, unknown> {
  const delta = actions.stateDelta;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(delta)) setStateKey(copy, key, delta[key]);
  actions.stateDelta = copy;
  return copy;
}
