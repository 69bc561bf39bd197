import type { FunctionDeclaration } from './function-declaration';
import type { GenerationConfig, LlmRequest, ResponseSchema, ToolChoice } from './llm-request';
import type { LlmResponse } from './llm-response';
import type { ProviderExchangeObserver } from './provider-exchange';

/** Per-call options of {@link Model.generate}. */
export interface GenerateOptions {
  /** Aborts the HTTP request (or the scripted turn). */
  signal?: AbortSignal;
  /** Ask for streaming: yield `partial` responses before the complete one. */
  stream?: boolean;
  /**
   * Told of every attempt the adapter makes for this call: the request body as sent, the attempt number,
   * latency and mapped error (a `ProviderExchange`). Absent: adapters build nothing extra for it.
   */
  onProviderExchange?: ProviderExchangeObserver;
}

/** What an agent sends with every request, for {@link Model.checkRequestSettings}. */
export interface RequestSettings {
  /** The agent's name, for messages. */
  agentName: string;
  /** The agent's `toolChoice`; absent: the provider's default. */
  toolChoice?: ToolChoice;
  /** The agent's `generationConfig`; absent: the provider's defaults. */
  config?: GenerationConfig;
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
  /**
   * `gen_ai.provider.name` in traces, when OpenTelemetry's GenAI conventions name the provider otherwise
   * than {@link Model.provider} (Gemini: `gcp.gemini`, `gcp.vertex_ai`). Optional; `provider` is used without it.
   */
  readonly telemetryProviderName?: string;
  /** Calls the model: yields `partial` responses when streaming is asked for, then exactly one with `turnComplete: true`. */
  generate(request: LlmRequest, options?: GenerateOptions): AsyncIterable<LlmResponse>;
  /**
   * Checks that this model can be offered these tools, and throws a typed `ToolsmithError` naming the
   * tool, the schema path, the provider and the fix when it cannot (a schema its dialect cannot
   * express, a name or limit the provider refuses). Optional. The runner calls it when it is built, for
   * every static tool of every `LlmAgent`, and for toolsets' tools when they are listed, before the
   * request, so such problems never surface as a provider's 400 at the first request. Called often with
   * the same declaration objects: implementations cache per declaration.
   */
  checkTools?(declarations: readonly FunctionDeclaration[]): void;
  /**
   * Checks that this model can be asked for answers of this schema (an agent's `outputSchema`, sent as
   * {@link LlmRequest.responseSchema}), and throws a typed `ToolsmithError` naming the schema path and
   * the fix when its provider's structured output cannot express it. Optional; the runner calls it when
   * it is built. Implementations convert once per schema object and reuse the result for requests.
   */
  checkResponseSchema?(responseSchema: ResponseSchema): void;
  /**
   * Checks that this model can be sent an agent's request settings (its `toolChoice` and
   * `generationConfig`) together with the model's own options, and throws a typed `ToolsmithError`
   * naming both settings when its provider refuses the combination (e.g. Anthropic's extended thinking
   * with a forced tool choice). Optional; the runner calls it for every `LlmAgent` when it is built.
   */
  checkRequestSettings?(settings: RequestSettings): void;
}
