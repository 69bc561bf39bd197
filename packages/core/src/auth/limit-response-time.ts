import { ResponseTimeoutError } from '../errors/auth-errors';
import { endpointOf } from '../errors/endpoint-of';

/** Statuses whose responses have no body (a `Response` cannot be built with one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * `fetchImpl` whose every request, its body read included, must be over within `timeoutMs`: past that
 * the underlying fetch is aborted and the request (or the body's read) fails with
 * {@link ResponseTimeoutError}, which names the endpoint (origin and path only). `onTimeout` hears of
 * each such error, for callers whose libraries swallow the failure. With `spentMs`, a request gets only
 * what is left of `timeoutMs` (a redirect chain followed one request at a time shares one deadline).
 * The caller's own `signal` still aborts as before.
 */
export function limitResponseTime(
  fetchImpl: typeof fetch,
  timeoutMs: number,
  onTimeout?: (error: ResponseTimeoutError) => void,
  /** The milliseconds already spent on the request for `url` (the earlier hops of a redirect chain its caller follows); default 0. */
  spentMs?: (url: string) => number,
): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const left = Math.max(0, timeoutMs - (spentMs?.(url) ?? 0));
    const deadline = new AbortController();
    let timedOut: ResponseTimeoutError | undefined;
    let expire!: (error: ResponseTimeoutError) => void;
    const expired = new Promise<never>((_resolve, reject) => (expire = reject));
    expired.catch(() => undefined);
    const timer = setTimeout(() => {
      timedOut = new ResponseTimeoutError(endpointOf(url), timeoutMs);
      onTimeout?.(timedOut);
      expire(timedOut);
      deadline.abort(timedOut);
    }, left);
    // A body nobody reads does not keep the process alive.
    timer.unref?.();
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    let response: Response;
    try {
      response = await Promise.race([fetchImpl(input, { ...init, signal }), expired]);
    } catch (error) {
      clearTimeout(timer);
      throw timedOut ?? error;
    }
    if (!response.body || NULL_BODY_STATUSES.has(response.status)) {
      clearTimeout(timer);
      return response;
    }
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = await Promise.race([reader.read(), expired]);
          if (chunk.done) {
            clearTimeout(timer);
            controller.close();
            return;
          }
          controller.enqueue(chunk.value);
        } catch (error) {
          clearTimeout(timer);
          controller.error(timedOut ?? error);
          await reader.cancel().catch(() => undefined);
        }
      },
      cancel: (reason) => {
        clearTimeout(timer);
        return reader.cancel(reason);
      },
    });
    const limited = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // (The URL the SDK's discovery reports; a Response built here has none of its own.)
    if (response.url) Object.defineProperty(limited, 'url', { value: response.url });
    return limited;
  };
}
