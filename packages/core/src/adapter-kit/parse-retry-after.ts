/** Response headers as SDKs expose them: a fetch `Headers` object or a plain record. */
export type HeaderSource = Headers | Record<string, string | string[] | null | undefined>;

/** Longest wait we report; a larger (or absurd) header value is clamped so a runner never sleeps for days. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/** A decimal number, as `retry-after` (seconds) and `retry-after-ms` (milliseconds) are written: no sign, hex, exponent or list. */
const DECIMAL = /^\s*\d+(?:\.\d+)?\s*$/;

/** An HTTP date in one of its three forms (RFC 9110): `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`. */
const HTTP_DATE = /^\s*(?:[A-Za-z]{3,9}, \d{1,2}[ -][A-Za-z]{3}[ -]\d{2,4} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{3} [A-Za-z]{3} {1,2}\d{1,2} \d{2}:\d{2}:\d{2} \d{4})\s*$/;

/**
 * Reads how long a provider asks the client to wait, in milliseconds, from `retry-after-ms`
 * (milliseconds, sent by OpenAI and Azure) or `retry-after` (seconds, or an HTTP date). Only a decimal
 * number (`2`, `1.5`) or an HTTP date counts; anything else (empty, blank, negative, `0x10`, `1e3`,
 * `2, 3`, `NaN`) says nothing, and `retry-after-ms` that says nothing leaves the word to `retry-after`.
 * Returns `undefined` when neither header is present or readable.
 *
 * @example
 * ```ts
 * throw new RateLimitError(message, { provider: 'openai', retryAfterMs: parseRetryAfter(error.headers) });
 * ```
 */
export function parseRetryAfter(headers: HeaderSource | undefined | null, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = readHeader(headers, 'retry-after-ms');
  if (ms !== undefined && DECIMAL.test(ms)) return clamp(Number(ms));
  const retryAfter = readHeader(headers, 'retry-after');
  if (retryAfter === undefined) return undefined;
  if (DECIMAL.test(retryAfter)) return clamp(Number(retryAfter) * 1000);
  if (!HTTP_DATE.test(retryAfter)) return undefined;
  // asctime's form names no zone: it is GMT too.
  const date = Date.parse(retryAfter.includes('GMT') ? retryAfter : `${retryAfter.trim()} GMT`);
  if (Number.isNaN(date)) return undefined;
  return clamp(Math.max(0, date - now));
}

function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  // Plain records may use any casing (Node's IncomingHttpHeaders are lower-case, hand-built ones may not be).
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== name) continue;
    if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
    return value == null ? undefined : String(value);
  }
  return undefined;
}

function clamp(ms: number): number {
  return Math.min(Math.round(ms), MAX_RETRY_AFTER_MS);
}
