import type { EventActions } from '../state/event-actions';
import type { State } from '../state/state';
import type { ReadonlyContext } from '../tools/readonly-context';

/** Context given to model callbacks: the invocation, writable state and the actions of the coming event. */
export interface CallbackContext extends ReadonlyContext {
  readonly state: State;
  readonly actions: EventActions;
}
