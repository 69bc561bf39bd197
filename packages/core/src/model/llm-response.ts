import type { Content } from './content';
import type { FinishReason } from './finish-reason';

/** Token counts, as reported by the provider. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cachedInputTokens?: number;
}

/**
 * One item of a model's answer. A non-streaming call yields one response with `turnComplete: true`.
 * A streaming call yields `partial: true` responses (text deltas; never function calls) and then one
 * complete, aggregated response with `turnComplete: true` that holds the whole content, function calls
 * with their assembled arguments, usage and finish reason.
 */
export interface LlmResponse {
  content?: Content;
  partial?: boolean;
  turnComplete?: boolean;
  finishReason?: FinishReason;
  usage?: Usage;
  /** The provider's id of this response (e.g. a chat completion or message id): for traces and support requests. */
  responseId?: string;
  /** A provider-reported failure inside an otherwise successful HTTP exchange (e.g. a safety block). */
  error?: { code: string; message: string };
  /** Provider-specific data an adapter wants back on the next request (opaque to core). */
  providerMetadata?: Record<string, unknown>;
}
