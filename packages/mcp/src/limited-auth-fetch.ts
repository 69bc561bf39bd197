import { MAX_AUTH_RESPONSE_BYTES, ResponseTimeoutError, type ResponseTooLargeError, limitResponseBodies, limitResponseTime } from '@toolsmith/core/internal';

/** The deadline of each request to an authorization server or identity provider when `oauth.requestTimeoutMs` is not given. */
export const DEFAULT_AUTH_REQUEST_TIMEOUT_MS = 30_000;

/** What is wrong with an `oauth.requestTimeoutMs` value, or `undefined` when it is absent or a positive number. */
export function authRequestTimeoutProblem(value: unknown): string | undefined {
  if (value === undefined || (typeof value === 'number' && Number.isFinite(value) && value > 0)) return undefined;
  return `must be a positive number of milliseconds; got ${JSON.stringify(value)}`;
}

/** A fetch for an authorization server's answers, and the failure of the first answer over the size limit or the deadline. */
export interface LimitedAuthFetch<E extends Error> {
  fetchFn: typeof fetch;
  /** `fail('an answer was too large' | 'a request timed out', …)` once an answer went over a limit, else undefined. */
  failed(): E | undefined;
}

/**
 * A fetch that reads at most {@link MAX_AUTH_RESPONSE_BYTES} of each answer and gives each request,
 * its answer read in full, `timeoutMs` (then aborts it), and `failed()`: the caller's failure for the
 * first answer over either limit, with the core error as its cause (the SDK swallows some failures,
 * e.g. protected resource metadata it cannot read counts as none, so the caller checks after every step).
 */
export function limitedAuthFetch<E extends Error>(fail: (reason: string, cause: ResponseTooLargeError | ResponseTimeoutError) => E, timeoutMs: number): LimitedAuthFetch<E> {
  let first: ResponseTooLargeError | ResponseTimeoutError | undefined;
  const sized = limitResponseBodies((input, init) => fetch(input, init), MAX_AUTH_RESPONSE_BYTES, (error) => (first ??= error));
  const fetchFn = limitResponseTime(sized, timeoutMs, (error) => (first ??= error));
  return { fetchFn, failed: () => (first ? fail(first instanceof ResponseTimeoutError ? 'a request timed out' : 'an answer was too large', first) : undefined) };
}
