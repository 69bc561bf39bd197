/** Response headers as SDKs expose them: a fetch `Headers` object or a plain record. */
export type HeaderSource = Headers | Record<string, string | string[] | null | undefined>;

/** Longest wait we report; a larger (or absurd) header value is clamped so a runner never sleeps for days. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Reads how long a provider asks the client to wait, in milliseconds, from `retry-after-ms`
 * (milliseconds, sent by OpenAI and Azure) or `retry-after` (seconds, or an HTTP date). Returns
 * `undefined` when neither header is present or readable.
 *
 * @example
 * ```ts
 * throw new RateLimitError(message, { provider: 'openai', retryAfterMs: parseRetryAfter(error.headers) });
 * ```
 */
export function parseRetryAfter(headers: HeaderSource | undefined | null, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = readHeader(headers, 'retry-after-ms');
  if (ms !== undefined) {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return clamp(value);
  }
  const retryAfter = readHeader(headers, 'retry-after');
  if (retryAfter === undefined) return undefined;
  const seconds = Number(retryAfter);
  if (retryAfter.trim() !== '' && Number.isFinite(seconds)) return seconds >= 0 ? clamp(seconds * 1000) : undefined;
  const date = Date.parse(retryAfter);
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
