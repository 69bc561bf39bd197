import type { EventActions } from '../state/event-actions';
import type { State } from '../state/state';
import type { ReadonlyContext } from '../tools/readonly-context';

/** Context given to model callbacks: the invocation, writable state and the actions of the coming event. */
export interface CallbackContext extends ReadonlyContext {
  /** Session state; writes land in the `stateDelta` of the model call's event, and are stored with it, until the callback settled (a later write is dropped). */
  readonly state: State;
  /** The actions of the event this model call produces (the model's event, or its error event): set them to act on the session, until the callback settled (a later write is dropped). */
  readonly actions: EventActions;
}
