import {
  ContentFilterError,
  ContextLengthExceededError,
  ProviderError,
  ProviderOverloadedError,
  QuotaExceededError,
  RateLimitError,
} from '../errors/provider-errors';
import type { ProviderErrorCode, ProviderErrorOptions } from '../errors/provider-errors';

/**
 * The provider error of the class its code stands for: `RATE_LIMITED` a {@link RateLimitError},
 * `QUOTA_EXCEEDED` a {@link QuotaExceededError}, `PROVIDER_OVERLOADED` a {@link ProviderOverloadedError},
 * `CONTEXT_LENGTH_EXCEEDED` a {@link ContextLengthExceededError}, `CONTENT_FILTERED` a
 * {@link ContentFilterError}, any other code a plain {@link ProviderError}. `retryAfterMs` is kept by every
 * retryable error (a 429, 503, 500, 408, …: see {@link ProviderError.isRetryable}). An adapter decides the code (from the HTTP status
 * with {@link providerErrorCodeForStatus}, refined by the error body) and builds the error with this.
 *
 * @example
 * ```ts
 * const code = body.code === 'insufficient_quota' ? 'QUOTA_EXCEEDED' : providerErrorCodeForStatus(status);
 * throw createProviderError(code, message, { provider: 'acme', statusCode: status, retryAfterMs: parseRetryAfter(headers) });
 * ```
 */
export function createProviderError(code: ProviderErrorCode, message: string, options: ProviderErrorOptions): ProviderError {
  switch (code) {
    case 'RATE_LIMITED':
      return new RateLimitError(message, options);
    case 'QUOTA_EXCEEDED':
      return new QuotaExceededError(message, options);
    case 'PROVIDER_OVERLOADED':
      return new ProviderOverloadedError(message, options);
    case 'CONTEXT_LENGTH_EXCEEDED':
      return new ContextLengthExceededError(message, options);
    case 'CONTENT_FILTERED':
      return new ContentFilterError(message, options);
    default:
      return new ProviderError(code, message, options);
  }
}
