import { ProviderError, RunAbortedError, ToolsmithError, thrownMessage } from '@toolsmith/core';
import type { ProviderErrorCode } from '@toolsmith/core';
import { createProviderError, parseRetryAfter, providerErrorCodeForStatus } from '@toolsmith/core/adapter-kit';
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
 * when the call was cancelled; by the error body's `code`/`type` first, `QuotaExceededError` for
 * `insufficient_quota` (a 429 no wait fixes), `ContextLengthExceededError` for
 * `context_length_exceeded`, `ContentFilterError` for a request the safety system refused,
 * `ProviderOverloadedError` for an overloaded server; else by HTTP status: `RateLimitError` (with
 * `retryAfterMs` from `retry-after-ms` / `retry-after`) for 429, and `ProviderError` with a stable code
 * otherwise: `AUTHENTICATION_FAILED` (401/403), `BAD_REQUEST` (400/404/422), `PROVIDER_OVERLOADED` (503),
 * `SERVER_ERROR` (other 5xx), `PROVIDER_CONNECTION_FAILED`, `PROVIDER_RESPONSE_INVALID` (a stream cut or
 * unreadable). Other Toolsmith errors pass through unchanged.
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
    const code = codeFromBody(`${error.code ?? ''} ${error.type ?? ''}`, detail) ?? providerErrorCodeForStatus(status);
    return createProviderError(code, message, { provider, statusCode: status, cause: error, retryAfterMs: parseRetryAfter(error.headers) });
  }
  const reason = thrownMessage(error);
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
 * response), which has no HTTP status, by its OpenAI error code or type (and message).
 */
export function mapOpenAIErrorCode(code: string | null | undefined, message: string): ToolsmithError {
  const kind = code ?? '';
  const refined = codeFromBody(kind, message);
  if (refined) return createProviderError(refined, message, { provider: OPENAI_PROVIDER });
  if (/rate_limit/.test(kind)) return createProviderError('RATE_LIMITED', message, { provider: OPENAI_PROVIDER });
  if (/server_error/.test(kind)) return new ProviderError('SERVER_ERROR', message, { provider: OPENAI_PROVIDER });
  if (/invalid_request|invalid_prompt/.test(kind)) return new ProviderError('BAD_REQUEST', message, { provider: OPENAI_PROVIDER });
  return new ProviderError('PROVIDER_ERROR', message, { provider: OPENAI_PROVIDER });
}

/**
 * The failure kinds OpenAI names in the error body (`code` and `type`, joined) that a user must act on
 * differently from what the HTTP status alone says; `undefined` leaves it to the status.
 */
function codeFromBody(kind: string, message: string): ProviderErrorCode | undefined {
  if (/insufficient_quota|billing_hard_limit_reached/.test(kind)) return 'QUOTA_EXCEEDED';
  if (/context_length_exceeded/.test(kind) || /maximum context length|exceeds the context window/i.test(message)) return 'CONTEXT_LENGTH_EXCEEDED';
  if (/content_filter|content_policy_violation|bio_policy/.test(kind)) return 'CONTENT_FILTERED';
  if (/invalid_prompt/.test(kind) && /usage polic|flagged/i.test(message)) return 'CONTENT_FILTERED';
  if (/overloaded/.test(kind) || /overloaded/i.test(message)) return 'PROVIDER_OVERLOADED';
  return undefined;
}

function apiErrorMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  return error.message || 'no details';
}
