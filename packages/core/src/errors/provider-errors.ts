import { ToolsmithError } from './toolsmith-error';

/** Stable codes of {@link ProviderError}. */
export type ProviderErrorCode =
  | 'PROVIDER_ERROR'
  | 'AUTHENTICATION_FAILED'
  | 'BAD_REQUEST'
  | 'SERVER_ERROR'
  | 'RATE_LIMITED'
  | 'PROVIDER_CONNECTION_FAILED'
  | 'PROVIDER_RESPONSE_INVALID';

/** Options of {@link ProviderError}. */
export interface ProviderErrorOptions {
  /** Provider id, e.g. `openai`. */
  provider: string;
  /** HTTP status, when there was one. */
  statusCode?: number;
  /** The SDK's original error. */
  cause?: unknown;
}

/**
 * A model provider failed the request. Adapters map their SDK's errors to this (or to
 * {@link RateLimitError}); the runner passes it through `onModelError` callbacks.
 */
export class ProviderError extends ToolsmithError {
  /** The provider id (`openai`, `anthropic`, `gemini`, …), as in {@link Model.provider}. */
  readonly provider: string;
  /** The HTTP status of the failed response; absent when there was none (a connection failure, an error inside a stream). */
  readonly statusCode?: number;
  /** True for 408, 409, 429 and 5xx, and for connection failures. */
  readonly isRetryable: boolean;

  constructor(code: ProviderErrorCode, message: string, options: ProviderErrorOptions) {
    super(code, message, { cause: options.cause });
    this.provider = options.provider;
    this.statusCode = options.statusCode;
    const s = options.statusCode;
    this.isRetryable =
      code === 'PROVIDER_CONNECTION_FAILED' || (s !== undefined && (s === 408 || s === 409 || s === 429 || s >= 500));
  }

  /** {@link ToolsmithError.toJSON} plus `provider` and `statusCode`. */
  override toJSON() {
    return { ...super.toJSON(), provider: this.provider, statusCode: this.statusCode };
  }
}

/** The provider rate-limited the request (HTTP 429). `retryAfterMs` comes from `retry-after` headers. */
export class RateLimitError extends ProviderError {
  /** Milliseconds the provider asked to wait before retrying (from its `retry-after` headers); absent when it said nothing. */
  readonly retryAfterMs?: number;

  constructor(message: string, options: ProviderErrorOptions & { retryAfterMs?: number }) {
    super('RATE_LIMITED', message, { ...options, statusCode: options.statusCode ?? 429 });
    this.retryAfterMs = options.retryAfterMs;
  }

  /** {@link ProviderError.toJSON} plus `retryAfterMs`. */
  override toJSON() {
    return { ...super.toJSON(), retryAfterMs: this.retryAfterMs };
  }
}
