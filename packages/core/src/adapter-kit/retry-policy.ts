import { ProviderError } from '../errors/provider-errors';
import { RunAbortedError } from '../errors/run-aborted-error';

/**
 * When a failed model call is tried again. The same policy for every provider adapter (their SDKs'
 * own retries are turned off): only errors `ProviderError.isRetryable` marks (408, 409, 429, 5xx,
 * connection failures, overloaded; never a used-up quota), only before any response was received (a
 * stream is re-sent only when it failed before its first partial response), at most `maxRetries` times, waiting what `retry-after` asks or else an exponential backoff
 * with jitter.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. Default 2 (3 attempts in all). `0` turns retries off. */
  maxRetries: number;
  /** Backoff before the first retry when the provider says nothing; doubles each time (with jitter). Default 500 ms. */
  initialDelayMs: number;
  /** Longest wait between attempts, `retry-after` included. Default 30,000 ms. */
  maxDelayMs: number;
}

/** The default retry policy: 2 retries, backoff from 500 ms, waits capped at 30 s. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 2, initialDelayMs: 500, maxDelayMs: 30_000 });

/** The policy from an adapter's options: `false` for none, a partial policy over the default. */
export function resolveRetryPolicy(option: Partial<RetryPolicy> | false | undefined, maxRetries?: number): RetryPolicy {
  if (option === false) return { ...DEFAULT_RETRY_POLICY, maxRetries: 0 };
  return { ...DEFAULT_RETRY_POLICY, ...(maxRetries !== undefined ? { maxRetries } : {}), ...option };
}

/** How long to wait before retry number `retry` (0-based) after `error`, or `undefined` when it must not be retried. */
export function retryDelayMs(policy: RetryPolicy, retry: number, error: unknown, random: () => number = Math.random): number | undefined {
  if (retry >= policy.maxRetries || !ProviderError.isInstance(error) || !(error as ProviderError).isRetryable) return undefined;
  // Any retryable error carries the provider's retry-after, when it sent one.
  const retryAfter = (error as ProviderError).retryAfterMs;
  if (typeof retryAfter === 'number' && !Number.isNaN(retryAfter)) return Math.min(Math.max(0, retryAfter), policy.maxDelayMs);
  const backoff = policy.initialDelayMs * 2 ** retry;
  return Math.min(policy.maxDelayMs, backoff * (0.5 + random() / 2));
}

/** Waits `ms`, or rejects with `RunAbortedError` as soon as `signal` aborts. */
export function waitBeforeRetry(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(new RunAbortedError(signal.reason));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RunAbortedError(signal!.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
