import type { EventActions } from '../state/event-actions';
import type { State } from '../state/state';
import type { ReadonlyContext } from '../tools/readonly-context';

/** Context given to model callbacks: the invocation, writable state and the actions of the coming event. */
export interface CallbackContext extends ReadonlyContext {
  /** Session state; writes land in the `stateDelta` of the model call's event, and are stored with it, until the callback settled (a later write is dropped). */
  readonly state: State;
  /**
   * The actions of the event this model call produces (the model's event, or its error event): set them to act on the
   * session, until the callback settled (a later write is dropped). State writes (`stateDelta`) and artifact versions
   * are kept with the event. On an answer with no function calls, `transferToAgent` is acted on after the model event
   * (the named agent continues the invocation; an unknown name ends the run `AGENT_NOT_FOUND`). On a response with
   * calls, the agent's turn goes on as the calls' own actions (on their function response event) decide: a
   * `transferToAgent` or `skipSummarization` set here is recorded on the model event but not acted on. `escalate` set
   * here, calls or not, stops an enclosing `SequentialAgent`/`LoopAgent` once the agent's turn ends. A `transferToAgent`
   * that is no agent name (not a string of 1–64 letters, digits, "_" or "-") ends the call `AGENT_NOT_FOUND` when the
   * callback settles, with none of these actions kept.
   */
  readonly actions: EventActions;
}
