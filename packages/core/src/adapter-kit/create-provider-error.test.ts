import {
  ContentFilterError,
  ContextLengthExceededError,
  ProviderError,
  ProviderOverloadedError,
  QuotaExceededError,
  RateLimitError,
} from '../errors/provider-errors';
import { createProviderError } from './create-provider-error';

describe('createProviderError', () => {
  it.each([
    ['RATE_LIMITED', RateLimitError, 429, true],
    ['QUOTA_EXCEEDED', QuotaExceededError, 429, false],
    ['PROVIDER_OVERLOADED', ProviderOverloadedError, 529, true],
    ['CONTEXT_LENGTH_EXCEEDED', ContextLengthExceededError, 400, false],
    ['CONTENT_FILTERED', ContentFilterError, 400, false],
    ['BAD_REQUEST', ProviderError, 400, false],
    ['SERVER_ERROR', ProviderError, 500, true],
  ] as const)('builds %s as its class, retryable: %s', (code, type, statusCode, retryable) => {
    const error = createProviderError(code, 'm', { provider: 'acme', statusCode, retryAfterMs: 2_000 });
    expect(error).toBeInstanceOf(type);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code, provider: 'acme', statusCode, isRetryable: retryable });
    const json = error.toJSON() as { retryAfterMs?: number };
    // What the provider asked to wait is kept by every retried error (a 500's too), by none that is not retried.
    expect(json.retryAfterMs).toBe(retryable ? 2_000 : undefined);
  });

  it('marks an overloaded provider retryable without a status (an error event inside a stream)', () => {
    expect(createProviderError('PROVIDER_OVERLOADED', 'Overloaded', { provider: 'acme' }).isRetryable).toBe(true);
  });
});
