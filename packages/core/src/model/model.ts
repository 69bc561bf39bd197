import type { LlmRequest } from './llm-request';
import type { LlmResponse } from './llm-response';

/** Per-call options of {@link Model.generate}. */
export interface GenerateOptions {
  /** Aborts the HTTP request (or the scripted turn). */
  signal?: AbortSignal;
  /** Ask for streaming: yield `partial` responses before the complete one. */
  stream?: boolean;
}

/**
 * A language model. Implemented by the adapter packages (`@toolsmith/openai`, `@toolsmith/anthropic`,
 * `@toolsmith/gemini`) and by `ScriptedModel` for tests and offline demos.
 *
 * `generate` must throw a `ProviderError` (or `RateLimitError`) for provider failures, and must end
 * with exactly one response whose `turnComplete` is true.
 */
export interface Model {
  /** Provider id (`openai`, `anthropic`, `gemini`, `scripted`); provider tools are checked against it. */
  readonly provider: string;
  /** The model id, e.g. `gpt-4.1-mini`. */
  readonly modelName: string;
  generate(request: LlmRequest, options?: GenerateOptions): AsyncIterable<LlmResponse>;
}
