/**
 * True for anything `await` would wait on: a promise of any realm, or another thenable (Bluebird's, a
 * library's own). Code that awaits only what needs it asks here, not `instanceof Promise`.
 */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
