import type { Usage } from './llm-response';

const BILLED_USAGE = Symbol.for('toolsmith.billedUsage');

/**
 * Records on the error that ends a model call the tokens the provider already billed for that call
 * before it failed: a call an adapter makes of several requests (an Anthropic turn paused with
 * `pause_turn` and continued) can fail, or be aborted, after some of them were answered. The runner
 * puts them on the error event's `usage`, so `Event.runUsage` and the spans count them. Returns `error` (a value that is not an object is returned as is).
 *
 * @example
 * ```ts
 * throw withBilledUsage(mapError(error), usageOfTheAnsweredRequests);
 * ```
 */
export function withBilledUsage<E>(error: E, usage: Usage | undefined): E {
  if (usage && typeof error === 'object' && error !== null) Object.defineProperty(error, BILLED_USAGE, { value: { ...usage }, enumerable: false, configurable: true });
  return error;
}

/** The usage {@link withBilledUsage} recorded on `error`, if any. */
export function billedUsageOf(error: unknown): Usage | undefined {
  return typeof error === 'object' && error !== null ? (error as { [BILLED_USAGE]?: Usage })[BILLED_USAGE] : undefined;
}
