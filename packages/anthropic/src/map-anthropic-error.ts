import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ProviderError, thrownMessage } from '@toolsmith/core';
import type { ProviderErrorCode } from '@toolsmith/core';
import { createProviderError, parseRetryAfter, providerErrorCodeForStatus } from '@toolsmith/core/adapter-kit';
import { ANTHROPIC_PROVIDER } from './provider-tool';

/**
 * Maps an error thrown by the Anthropic SDK to a {@link ProviderError} of the class its kind needs:
 * `RateLimitError` (429) and `ProviderOverloadedError` (529 `overloaded_error`), both with `retryAfterMs`
 * from the `retry-after-ms` / `retry-after` headers; `QuotaExceededError` for "credit balance is too
 * low", `ContextLengthExceededError` for "prompt is too long" (or "exceed context limit"), `ContentFilterError` for "blocked by
 * content filtering policy" (Anthropic reports all three as a 400 `invalid_request_error`, told apart by
 * the message). Errors that arrive inside a stream (an SSE `error` event) have no HTTP status; their
 * `error.type` decides. Missing credentials are
 * `AUTHENTICATION_FAILED`; aborts are returned unchanged so the runner sees a cancellation, not a
 * provider failure; anything else is a broken response.
 */
export function mapAnthropicError(error: unknown): unknown {
  if (error instanceof APIUserAbortError) return error;
  if (ProviderError.isInstance(error)) return error;
  const options = { provider: ANTHROPIC_PROVIDER, cause: error };
  if (error instanceof APIConnectionError) {
    return new ProviderError('PROVIDER_CONNECTION_FAILED', `Could not reach Anthropic: ${error.message}`, options);
  }
  if (error instanceof APIError) {
    const status = error.status;
    const detail = error.apiMessage ?? error.message;
    // An SSE `error` event has no status of its own; the status its type stands for keeps `isRetryable` right.
    const statusCode = status ?? statusForType(error.type);
    const code =
      codeFromMessage(detail) ??
      // Anthropic's `overloaded_error` type says overloaded whatever status it came with (a 500 was seen too).
      (error.type === 'overloaded_error' ? 'PROVIDER_OVERLOADED' : statusCode !== undefined ? providerErrorCodeForStatus(statusCode) : 'PROVIDER_ERROR');
    const retryAfterMs = error.headers ? parseRetryAfter(error.headers) : undefined;
    if (code === 'RATE_LIMITED') return createProviderError(code, `Anthropic rate limit reached: ${detail}`, { ...options, statusCode, retryAfterMs });
    const where = status === undefined ? ' mid-stream' : ` (${status})`;
    return createProviderError(code, `Anthropic request failed${where}: ${detail}`, { ...options, statusCode, retryAfterMs });
  }
  const message = thrownMessage(error);
  // The SDK throws a plain error, before sending anything, when it finds no credentials.
  if (/authentication method|api[ _-]?key/i.test(message)) {
    return new ProviderError(
      'AUTHENTICATION_FAILED',
      `Anthropic credentials are missing: ${message} Pass \`apiKey\` to AnthropicModel or set ANTHROPIC_API_KEY.`,
      options,
    );
  }
  return new ProviderError('PROVIDER_RESPONSE_INVALID', `Anthropic response could not be read: ${message}`, options);
}

/** The kinds Anthropic reports as a plain 400 `invalid_request_error`, told apart by their message. */
function codeFromMessage(message: string): ProviderErrorCode | undefined {
  if (/credit balance is too low/i.test(message)) return 'QUOTA_EXCEEDED';
  if (/prompt is too long|exceeds? (?:the )?context limit/i.test(message)) return 'CONTEXT_LENGTH_EXCEEDED';
  if (/content filtering policy/i.test(message)) return 'CONTENT_FILTERED';
  return undefined;
}

/** The HTTP status Anthropic documents for each `error.type`. */
function statusForType(type: string | null): number | undefined {
  const statuses: Record<string, number> = {
    invalid_request_error: 400,
    authentication_error: 401,
    permission_error: 403,
    not_found_error: 404,
    request_too_large: 413,
    rate_limit_error: 429,
    api_error: 500,
    overloaded_error: 529,
  };
  return type ? statuses[type] : undefined;
}
