import type { ReadonlyContext } from './readonly-context';

/**
 * What a `@Resource`, `@ResourceTemplate`, `@Prompt` or `@Complete` method gets as its last argument:
 * who asks and in which session (state to read), and a signal aborted when the request is cancelled.
 * Unlike a tool's context it writes no state: reading a resource or a prompt changes nothing.
 */
export interface OfferingContext extends ReadonlyContext {
  /** Aborted when the client cancels the request. */
  readonly signal: AbortSignal;
}
