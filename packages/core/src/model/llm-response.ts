import type { Content } from './content';
import type { FinishReason } from './finish-reason';

/** Token counts, as reported by the provider. */
export interface Usage {
  /** Input (prompt) tokens, including cached ones and, for Anthropic, those written to its cache. */
  inputTokens?: number;
  /** Generated tokens, including reasoning (thinking) tokens where the provider bills them as output. */
  outputTokens?: number;
  /** Input plus output tokens, as the provider reports it (or their sum when it reports none). */
  totalTokens?: number;
  /** The part of `inputTokens` read from the provider's prompt cache; absent when the provider reports none. */
  cachedInputTokens?: number;
  /** The part of `outputTokens` spent on reasoning (thinking); absent when the provider reports none. */
  reasoningTokens?: number;
}

/**
 * One item of a model's answer. A non-streaming call yields one response with `turnComplete: true`.
 * A streaming call yields `partial: true` responses (text deltas, and `partialFunctionCall` parts with a
 * call's growing argument text; never finished function calls) and then one complete, aggregated
 * response with `turnComplete: true` that holds the whole content, function calls with their assembled
 * arguments, usage and finish reason.
 */
export interface LlmResponse {
  /** What the model said: the text delta of a `partial` response, or the whole message of the complete one. */
  content?: Content;
  /** True for a streamed delta (text, or a call's growing arguments); the complete response that follows holds all of it again. */
  partial?: boolean;
  /** True on the one final response of a call, which holds the whole content, function calls, usage and finish reason. */
  turnComplete?: boolean;
  /** Why the model stopped; set on the complete response. */
  finishReason?: FinishReason;
  /** Token counts of the call, set on the complete response when the provider reports them. */
  usage?: Usage;
  /** The provider's id of this response (e.g. a chat completion or message id): for traces and support requests. */
  responseId?: string;
  /** A provider-reported failure inside an otherwise successful HTTP exchange (e.g. a safety block); `code` is a non-empty string. */
  error?: { code: string; message: string };
  /** Provider-specific data an adapter wants back on the next request (opaque to core). */
  providerMetadata?: Record<string, unknown>;
}
