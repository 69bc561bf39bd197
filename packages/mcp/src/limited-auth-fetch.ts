import { MAX_AUTH_RESPONSE_BYTES, type ResponseTooLargeError, limitResponseBodies } from '@toolsmith/core/internal';

/** A fetch for an authorization server's answers, and the failure of the first answer over the limit. */
export interface LimitedAuthFetch<E extends Error> {
  fetchFn: typeof fetch;
  /** `fail('an answer was too large', …)` once an answer went over the limit, else undefined. */
  overLimit(): E | undefined;
}

/**
 * A fetch that reads at most {@link MAX_AUTH_RESPONSE_BYTES} of each answer, and `overLimit()`: the caller's
 * failure for the first answer over it (the SDK swallows some failures, e.g. protected resource metadata it
 * cannot read counts as none, so the caller checks after every step).
 */
export function limitedAuthFetch<E extends Error>(fail: (reason: string, cause: ResponseTooLargeError) => E): LimitedAuthFetch<E> {
  let tooLarge: ResponseTooLargeError | undefined;
  const fetchFn = limitResponseBodies((input, init) => fetch(input, init), MAX_AUTH_RESPONSE_BYTES, (error) => (tooLarge ??= error));
  return { fetchFn, overLimit: () => (tooLarge ? fail('an answer was too large', tooLarge) : undefined) };
}
