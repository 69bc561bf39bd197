import { ResponseTooLargeError } from '../errors/auth-errors';

/** The largest answer Toolsmith reads from an authorization server (metadata, registration, token): 1 MiB. */
export const MAX_AUTH_RESPONSE_BYTES = 1024 * 1024;

/** Statuses whose responses have no body (a `Response` cannot be built with one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * `fetchImpl` whose responses' bodies are read incrementally and error with {@link ResponseTooLargeError}
 * past `maxBytes` (at once when `Content-Length` already says so): the rest is not read, the connection
 * is dropped. `onTooLarge` hears of each such error, for callers whose libraries swallow the body's error.
 */
export function limitResponseBodies(fetchImpl: typeof fetch, maxBytes: number, onTooLarge?: (error: ResponseTooLargeError) => void): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
    const url = response.url || (input instanceof Request ? input.url : String(input));
    const tooLarge = () => {
      const error = new ResponseTooLargeError(url, maxBytes);
      onTooLarge?.(error);
      return error;
    };
    const reader = response.body.getReader();
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    let read = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (declared > maxBytes) {
          controller.error(tooLarge());
          await reader.cancel().catch(() => undefined);
          return;
        }
        const chunk = await reader.read();
        if (chunk.done) return controller.close();
        read += chunk.value.byteLength;
        if (read > maxBytes) {
          controller.error(tooLarge());
          await reader.cancel().catch(() => undefined);
          return;
        }
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
