import type { ReadonlyState } from '../state/state';

/** What toolsets and instruction functions may read about the current invocation. */
export interface ReadonlyContext {
  /** The runner's `appName`. */
  readonly appName: string;
  /** The user whose session this is. */
  readonly userId: string;
  /** The id of the session the invocation runs in. */
  readonly sessionId: string;
  /** Identifies the current invocation (one user message, handled until an answer or a pause) in events, logs and traces. */
  readonly invocationId: string;
  /** The name of the agent running now. */
  readonly agentName: string;
  /** Session state, including this invocation's `temp:` keys; read-only here. */
  readonly state: ReadonlyState;
}
