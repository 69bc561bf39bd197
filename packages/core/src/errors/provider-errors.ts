import { ToolsmithError } from './toolsmith-error';

/** Stable codes of {@link ProviderError}. */
export type ProviderErrorCode =
  | 'PROVIDER_ERROR'
  | 'AUTHENTICATION_FAILED'
  | 'BAD_REQUEST'
  | 'SERVER_ERROR'
  | 'RATE_LIMITED'
  | 'QUOTA_EXCEEDED'
  | 'PROVIDER_OVERLOADED'
  | 'CONTEXT_LENGTH_EXCEEDED'
  | 'CONTENT_FILTERED'
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
  /**
   * Milliseconds the provider asked to wait before trying again (`retry-after-ms`, `retry-after`, Gemini's
   * `RetryInfo`), for an error that is retried; left out of an error that is not ({@link ProviderError.isRetryable}).
   */
  retryAfterMs?: number;
}

/** Codes a retry cannot fix, whatever the HTTP status (a quota error comes as a 429). */
const NEVER_RETRIED: ReadonlySet<ProviderErrorCode> = new Set<ProviderErrorCode>(['QUOTA_EXCEEDED', 'CONTEXT_LENGTH_EXCEEDED', 'CONTENT_FILTERED']);

/**
 * A model provider failed the request. Adapters map their SDK's errors to this, or to the subclass
 * for a failure the user must act on differently: {@link RateLimitError}, {@link QuotaExceededError},
 * {@link ProviderOverloadedError}, {@link ContextLengthExceededError}, {@link ContentFilterError}. The
 * runner passes it through `onModelError` callbacks.
 */
export class ProviderError extends ToolsmithError {
  /** The provider id (`openai`, `anthropic`, `gemini`, …), as in {@link Model.provider}. */
  readonly provider: string;
  /** The HTTP status of the failed response; absent when there was none (a connection failure, an error inside a stream). */
  readonly statusCode?: number;
  /**
   * True for 408, 409, 429 and 5xx, for connection failures and for `PROVIDER_OVERLOADED`; never for
   * `QUOTA_EXCEEDED`, `CONTEXT_LENGTH_EXCEEDED` or `CONTENT_FILTERED` (the same request fails again).
   */
  readonly isRetryable: boolean;
  /**
   * Milliseconds the provider asked to wait before retrying (from its `retry-after` headers or body), on a
   * retryable error of any status (a 429, a 503, a 500 or 408 that says when); absent when it said nothing.
   */
  readonly retryAfterMs?: number;

  constructor(code: ProviderErrorCode, message: string, options: ProviderErrorOptions) {
    super(code, message, { cause: options.cause });
    this.provider = options.provider;
    this.statusCode = options.statusCode;
    const s = options.statusCode;
    this.isRetryable =
      !NEVER_RETRIED.has(code) &&
      (code === 'PROVIDER_CONNECTION_FAILED' ||
        code === 'PROVIDER_OVERLOADED' ||
        (s !== undefined && (s === 408 || s === 409 || s === 429 || s >= 500)));
    if (this.isRetryable && options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }

  /** {@link ToolsmithError.toJSON} plus `provider`, `statusCode` and (when the provider said) `retryAfterMs`. */
  override toJSON() {
    return { ...super.toJSON(), provider: this.provider, statusCode: this.statusCode, ...(this.retryAfterMs !== undefined ? { retryAfterMs: this.retryAfterMs } : {}) };
  }
}

/** The provider rate-limited the request (HTTP 429). `retryAfterMs` comes from `retry-after` headers. */
export class RateLimitError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions) {
    super('RATE_LIMITED', message, { ...options, statusCode: options.statusCode ?? 429 });
  }
}

/**
 * The account's quota or credit is used up (OpenAI's 429 `insufficient_quota`, Anthropic's "credit
 * balance is too low"). Not retried: it lasts until billing changes.
 */
export class QuotaExceededError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions) {
    super('QUOTA_EXCEEDED', message, options);
  }
}

/**
 * The provider is overloaded (Anthropic's 529 `overloaded_error`, an HTTP 503, Gemini's `UNAVAILABLE`).
 * Retried by the retry policy, after `retryAfterMs` when the provider sent one.
 */
export class ProviderOverloadedError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions) {
    super('PROVIDER_OVERLOADED', message, options);
  }
}

/**
 * The request is longer than the model's context window (OpenAI's `context_length_exceeded`, Anthropic's
 * "prompt is too long", Gemini's "input token count … exceeds the maximum"). Not retried: shorten the
 * history (e.g. a smaller `maxHistory`) or pick a model with a larger window.
 */
export class ContextLengthExceededError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions) {
    super('CONTEXT_LENGTH_EXCEEDED', message, options);
  }
}

/**
 * The provider's safety system refused the request (OpenAI's flagged `invalid_prompt`, Azure's
 * `content_filter`, Anthropic's "Output blocked by content filtering policy"). Not retried: the same
 * request is refused again. (A response the model itself refused is not an error: its finish reason is
 * `content-filter`.)
 */
export class ContentFilterError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions) {
    super('CONTENT_FILTERED', message, options);
  }
}
