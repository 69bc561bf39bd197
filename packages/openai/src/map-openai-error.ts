import { ProviderError, RateLimitError, RunAbortedError, ToolsmithError } from '@toolsmith/core';
import { parseRetryAfter, providerErrorCodeForStatus } from '@toolsmith/core/adapter-kit';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { OPENAI_PROVIDER } from './provider-tool';

/** Where a failure happened, for {@link mapOpenAIError}. */
export interface OpenAIErrorContext {
  /** The call's abort signal: once aborted, any failure is reported as the abort. */
  signal?: AbortSignal;
  /** True once the response started streaming: a transport failure then means a cut stream. */
  streamStarted?: boolean;
}

/**
 * Maps what the OpenAI SDK (or the transport under it) threw to a Toolsmith error: `RunAbortedError`
 * when the call was cancelled, `RateLimitError` (with `retryAfterMs` from `retry-after-ms` /
 * `retry-after`) for 429, and `ProviderError` with a stable code otherwise: `AUTHENTICATION_FAILED`
 * (401/403), `BAD_REQUEST` (400/404/422), `SERVER_ERROR` (5xx), `PROVIDER_CONNECTION_FAILED`,
 * `PROVIDER_RESPONSE_INVALID` (a stream cut or unreadable). Other Toolsmith errors pass through unchanged.
 */
export function mapOpenAIError(error: unknown, context: OpenAIErrorContext = {}): ToolsmithError {
  if (context.signal?.aborted || error instanceof APIUserAbortError) {
    return ToolsmithError.isInstance(error) && error.code === 'RUN_ABORTED' ? error : new RunAbortedError(context.signal?.reason ?? error);
  }
  if (ToolsmithError.isInstance(error)) return error;
  const provider = OPENAI_PROVIDER;

  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError('PROVIDER_CONNECTION_FAILED', 'The request to OpenAI timed out.', { provider, cause: error });
  }
  if (error instanceof APIConnectionError) {
    const reason = error.cause instanceof Error ? error.cause.message : error.message;
    return new ProviderError('PROVIDER_CONNECTION_FAILED', `Could not reach OpenAI: ${reason}`, { provider, cause: error });
  }
  if (error instanceof APIError) {
    const detail = apiErrorMessage(error);
    const status = error.status;
    if (status === undefined) return mapOpenAIErrorCode(`${error.code ?? ''} ${error.type ?? ''}`, `OpenAI reported an error in the stream: ${detail}`);
    const message = `OpenAI request failed (${status}): ${detail}`;
    if (status === 429) {
      return new RateLimitError(message, { provider, statusCode: 429, cause: error, retryAfterMs: parseRetryAfter(error.headers) });
    }
    return new ProviderError(providerErrorCodeForStatus(status), message, { provider, statusCode: status, cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof SyntaxError || context.streamStarted) {
    return new ProviderError('PROVIDER_RESPONSE_INVALID', `OpenAI's response broke off or could not be read: ${reason}`, {
      provider,
      cause: error,
    });
  }
  return new ProviderError('PROVIDER_CONNECTION_FAILED', `The request to OpenAI failed: ${reason}`, { provider, cause: error });
}

/**
 * Maps an error reported inside a successful HTTP exchange (a stream `error` event, a `failed`
 * response), which has no HTTP status, by its OpenAI error code or type.
 */
export function mapOpenAIErrorCode(code: string | null | undefined, message: string): ToolsmithError {
  const provider = OPENAI_PROVIDER;
  const kind = code ?? '';
  if (/rate_limit/.test(kind)) return new RateLimitError(message, { provider });
  if (/server_error|overloaded/.test(kind)) return new ProviderError('SERVER_ERROR', message, { provider });
  if (/invalid_request|invalid_prompt/.test(kind)) return new ProviderError('BAD_REQUEST', message, { provider });
  return new ProviderError('PROVIDER_ERROR', message, { provider });
}

function apiErrorMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  return error.message || 'no details';
}
