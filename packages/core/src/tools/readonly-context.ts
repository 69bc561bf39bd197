import type { ReadonlyState } from '../state/state';

/** What toolsets and instruction functions may read about the current invocation. */
export interface ReadonlyContext {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly invocationId: string;
  readonly agentName: string;
  readonly state: ReadonlyState;
}
