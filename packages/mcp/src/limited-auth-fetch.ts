import { MAX_AUTH_RESPONSE_BYTES, ResponseTimeoutError, type ResponseTooLargeError, endpointOf, limitResponseBodies, limitResponseTime } from '@toolsmith/core/internal';

/** The deadline of each request to an authorization server or identity provider when `oauth.requestTimeoutMs` is not given. */
export const DEFAULT_AUTH_REQUEST_TIMEOUT_MS = 30_000;

/** What is wrong with an `oauth.requestTimeoutMs` value (core's check), or `undefined` when it is absent or in range. */
export { requestTimeoutProblem as authRequestTimeoutProblem } from '@toolsmith/core/internal';

/** A fetch for an authorization server's answers, and the failure of the first answer over the size limit or the deadline. */
export interface LimitedAuthFetch<E extends Error> {
  fetchFn: typeof fetch;
  /**
   * `fail('an answer was too large' | 'a request timed out' | 'a request was redirected more than 5 times: …', …)`
   * once an answer went over a limit, else undefined.
   */
  failed(): E | undefined;
}

/** The redirects the SDK follows for one request (its `fetchWithinOrigin`); the next redirect is answered as it is. */
const MAX_FOLLOWED_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * A fetch that reads at most {@link MAX_AUTH_RESPONSE_BYTES} of each answer and gives each request,
 * the redirects the SDK follows for it (one fetch per hop) and its answer read in full included,
 * `timeoutMs` (then aborts it), and `failed()`: the caller's failure for the first answer over either
 * limit, with the core error as its cause, or for a request redirected more often than the SDK follows
 * (the SDK swallows some failures, e.g. protected resource metadata it cannot read counts as none, so
 * the caller checks after every step).
 */
export function limitedAuthFetch<E extends Error>(fail: (reason: string, cause?: ResponseTooLargeError | ResponseTimeoutError) => E, timeoutMs: number): LimitedAuthFetch<E> {
  let first: ResponseTooLargeError | ResponseTimeoutError | undefined;
  let redirectedTooOften: string | undefined;
  /** The redirect chains under way, by the URL of their next hop: when the first request started, how many redirects so far, its endpoint. */
  const chains = new Map<string, { startedAt: number; redirects: number; endpoint: string }>();
  const sized = limitResponseBodies((input, init) => fetch(input, init), MAX_AUTH_RESPONSE_BYTES, (error) => (first ??= error));
  const timed = limitResponseTime(
    sized,
    timeoutMs,
    (error) => (first ??= error),
    (url) => {
      const chain = chains.get(url);
      return chain ? performance.now() - chain.startedAt : 0;
    },
  );
  const fetchFn: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const chain = chains.get(url) ?? { startedAt: performance.now(), redirects: 0, endpoint: endpointOf(url) };
    const answer = timed(input, init); // (reads the chain's start before its first await)
    chains.delete(url);
    const response = await answer;
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location !== null && URL.canParse(location, url)) {
      if (chain.redirects >= MAX_FOLLOWED_REDIRECTS) redirectedTooOften ??= `a request was redirected more than ${MAX_FOLLOWED_REDIRECTS} times: ${chain.endpoint}`;
      else chains.set(new URL(location, url).href, { ...chain, redirects: chain.redirects + 1 });
    }
    return response;
  };
  return {
    fetchFn,
    failed: () => {
      if (first) return fail(first instanceof ResponseTimeoutError ? 'a request timed out' : 'an answer was too large', first);
      return redirectedTooOften === undefined ? undefined : fail(redirectedTooOften);
    },
  };
}

