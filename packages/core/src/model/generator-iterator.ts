import { types } from 'node:util';

/** An async generator's own methods (an `async *` function returns one), as `for await` finds them on a generator no one changed. */
export const { next: GENERATOR_NEXT, return: GENERATOR_RETURN, [Symbol.asyncIterator]: GENERATOR_ASYNC_ITERATOR } = (async function* () {})();

/** Iterators that forward `next()` and `return()` to an async generator's own (the tracing wrapper of a model's parts). Kept apart: nothing is read from an iterator to tell. */
const forwarders = new WeakSet<object>();

/**
 * Marks `forwarding` as forwarding to `iterator` when that is an async generator no one changed: a generator
 * object (an internal slot, told without touching the object) whose `next` and `return`, as the forwarder read
 * them, are an async generator's own. Nothing is read from `iterator` here.
 */
export function markForwarding(forwarding: object, iterator: unknown, next: unknown, close: unknown): void {
  if (next === GENERATOR_NEXT && close === GENERATOR_RETURN && types.isGeneratorObject(iterator)) forwarders.add(forwarding);
}

/**
 * True when `iterator`'s `next` and `return` (as read, by whoever reads them anyway) are an async generator's
 * own, or it forwards to them ({@link markForwarding}): after `return()` answered `{ done: false }` (a `finally`
 * that yields), `next()` goes on with that `finally`. An iterator of any other making gives no such promise.
 */
export function isAsyncGeneratorIterator(iterator: object, next: unknown, close: unknown): boolean {
  return (next === GENERATOR_NEXT && close === GENERATOR_RETURN) || forwarders.has(iterator);
}
