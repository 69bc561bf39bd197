/** An async generator's own methods (an `async *` function returns one), as `for await` finds them on a generator no one changed. */
const { next: GENERATOR_NEXT, return: GENERATOR_RETURN } = (async function* () {})();

/**
 * Set on an iterator that forwards `next()` and `return()` to an async generator's own (the tracing wrapper
 * of a model's parts): a close it answers `{ done: false }` is that generator's, and may be finished as a
 * generator's is.
 */
export const FORWARDS_TO_ASYNC_GENERATOR: unique symbol = Symbol('toolsmith.forwardsToAsyncGenerator');

/**
 * True when `iterator`'s `next` and `return` (as read) are an async generator's own, or it forwards to them:
 * after `return()` answered `{ done: false }` (a `finally` that yields), `next()` goes on with that `finally`.
 * An iterator of any other making gives no such promise.
 */
export function isAsyncGeneratorIterator(iterator: object, next: unknown, close: unknown): boolean {
  return (next === GENERATOR_NEXT && close === GENERATOR_RETURN) || (iterator as { [FORWARDS_TO_ASYNC_GENERATOR]?: unknown })[FORWARDS_TO_ASYNC_GENERATOR] === true;
}
