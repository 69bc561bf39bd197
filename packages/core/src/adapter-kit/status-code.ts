import type { ProviderErrorCode } from '../errors/provider-errors';

/**
 * The {@link ProviderErrorCode} for an HTTP status of a provider API, the same for every adapter:
 * 401/403 `AUTHENTICATION_FAILED`, 429 `RATE_LIMITED`, 400/404/413/422 `BAD_REQUEST`, 503 and 529
 * (Anthropic's "overloaded") `PROVIDER_OVERLOADED`, other 5xx `SERVER_ERROR`, anything else
 * `PROVIDER_ERROR`. A provider that reports a condition differently (Gemini's invalid key is a 400,
 * OpenAI's used-up quota a 429 `insufficient_quota`) refines it from the error body; build the error
 * with `createProviderError`.
 *
 * @example
 * ```ts
 * new ProviderError(providerErrorCodeForStatus(error.status), message, { provider, statusCode: error.status });
 * ```
 */
export function providerErrorCodeForStatus(status: number): ProviderErrorCode {
  if (status === 401 || status === 403) return 'AUTHENTICATION_FAILED';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 400 || status === 404 || status === 413 || status === 422) return 'BAD_REQUEST';
  if (status === 503 || status === 529) return 'PROVIDER_OVERLOADED';
  if (status >= 500) return 'SERVER_ERROR';
  return 'PROVIDER_ERROR';
}
