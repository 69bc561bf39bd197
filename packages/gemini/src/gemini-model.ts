import { GoogleGenAI } from './google-genai';
import type { GenerateContentConfig, GenerateContentParameters, GoogleGenAI as GoogleGenAIClient, HttpOptions } from '@google/genai' with { 'resolution-mode': 'import' };
import { type FunctionDeclaration, type GenerateOptions, type LlmRequest, type LlmResponse, type Model, ProviderError, type ResponseSchema } from '@toolsmith/core';
import { type RetryPolicy, callProvider, resolveRetryPolicy } from '@toolsmith/core/adapter-kit';
import { checkGeminiTools } from './check-gemini-tools';
import { convertToGeminiContents } from './convert-to-gemini-contents';
import { assembleGeminiStream } from './gemini-stream';
import { mapGeminiError } from './map-gemini-error';
import { readGeminiResponse } from './read-gemini-response';
import { mapGeminiResponse } from './map-gemini-response';
import { toGeminiResponseFields } from './gemini-response-schema';
import { type GeminiSchemaDialect, prepareGeminiTools } from './prepare-gemini-tools';
import { GEMINI_PROVIDER } from './provider-tool';

/** Options of {@link GeminiModel}. */
export interface GeminiModelOptions {
  /** Model id, e.g. `gemini-2.5-flash`. */
  model: string;
  /** A configured SDK client; when given, `apiKey`, `baseUrl` and `httpOptions` are ignored. */
  client?: GoogleGenAIClient;
  /** API key; defaults to the `GEMINI_API_KEY` (or `GOOGLE_API_KEY`) environment variable. Without one (and without `client`) the constructor throws `AUTHENTICATION_FAILED`. */
  apiKey?: string;
  /** API base URL, e.g. a proxy or a local test server (shorthand for `httpOptions.baseUrl`). */
  baseUrl?: string;
  /** The SDK's HTTP options (headers, timeout, `retryOptions`, API version, …). */
  httpOptions?: HttpOptions;
  /** Shorthand for `retry: { maxRetries }`. */
  maxRetries?: number;
  /**
   * Retries of failed calls (408, 409, 429, 5xx, connection failures) before any response arrived,
   * honouring `retry-after`: the same policy for every adapter (see docs/providers.md). `false` for none;
   * default 2 retries, backoff from 500 ms. Gemini's SDK does not retry unless `httpOptions.retryOptions` is set (a `client` you pass keeps its own).
   */
  retry?: Partial<RetryPolicy> | false;
  /**
   * How tool parameters are sent: `json-schema` (default) as `parametersJsonSchema`, the canonical JSON
   * Schema as is; `openapi` as the classic OpenAPI-subset `parameters`, for models that need it.
   */
  schemaDialect?: GeminiSchemaDialect;
  /**
   * Where the files of tool results (`toolFile`, `toolResult`) go: `true` (default) inside the function
   * response (`functionResponse.parts`, Gemini's multimodal function responses, which take PNG, JPEG and
   * WebP images, PDFs and plain text; other files Gemini takes in a message go after the function responses);
   * `false` as `inlineData` parts after the function responses, for models that take no files in function
   * responses. A file Gemini does not take in a message is sent as a text note saying it was left out (see
   * docs/providers.md).
   */
  toolFilesInFunctionResponse?: boolean;
}

/**
 * A {@link Model} backed by Google's Gemini API through the official `@google/genai` SDK
 * (`generateContent`, or `streamGenerateContent` over SSE with `stream: true`). Function calls without
 * an id get a stable generated one, `thoughtSignature`s are sent back unchanged, and provider failures
 * are thrown as `ProviderError` / `RateLimitError`; an aborted `signal` cancels the HTTP request and
 * throws `RunAbortedError`.
 *
 * @example
 * ```ts
 * const model = new GeminiModel({ model: 'gemini-2.5-flash', apiKey: process.env.GEMINI_API_KEY });
 * const agent = new LlmAgent({ name: 'assistant', model, tools: [WeatherTools] });
 * ```
 */
export class GeminiModel implements Model {
  /** Implements {@link Model.provider}. */
  readonly provider = GEMINI_PROVIDER;
  /** Implements {@link Model.modelName}. */
  readonly modelName: string;
  /** Implements {@link Model.telemetryProviderName}: `gcp.gemini`, or `gcp.vertex_ai` for a Vertex AI `client`. */
  readonly telemetryProviderName: 'gcp.gemini' | 'gcp.vertex_ai';
  private readonly client: GoogleGenAIClient;
  private readonly schemaDialect: GeminiSchemaDialect;
  private readonly toolFilesInFunctionResponse: boolean;
  private readonly retry: RetryPolicy;

  constructor(options: GeminiModelOptions) {
    this.modelName = options.model;
    this.schemaDialect = options.schemaDialect ?? 'json-schema';
    this.toolFilesInFunctionResponse = options.toolFilesInFunctionResponse ?? true;
    this.retry = resolveRetryPolicy(options.retry, options.maxRetries);
    this.telemetryProviderName = options.client?.vertexai ? 'gcp.vertex_ai' : 'gcp.gemini';
    if (options.client) {
      this.client = options.client;
      return;
    }
    const apiKey = options.apiKey ?? (process.env.GEMINI_API_KEY || process.env.GOOGLE_API_KEY);
    // Without a key the SDK falls back to Google Cloud default credentials (a metadata-server lookup)
    // and fails only at the first request; a missing key is a setup mistake, so say so now.
    if (!apiKey) {
      throw new ProviderError(
        'AUTHENTICATION_FAILED',
        'No Gemini API key: pass `apiKey` to GeminiModel or set GEMINI_API_KEY (or pass a configured `client`, e.g. for Vertex AI).',
        { provider: GEMINI_PROVIDER },
      );
    }
    const httpOptions = options.baseUrl ? { ...options.httpOptions, baseUrl: options.baseUrl } : options.httpOptions;
    this.client = new GoogleGenAI({ apiKey, httpOptions });
  }

  /**
   * Implements {@link Model.checkTools}: names, documented limits and each schema in this model's
   * dialect. Throws `GeminiToolNameError`, `ToolLimitError` or `GeminiSchemaError`.
   */
  checkTools(declarations: readonly FunctionDeclaration[]): void {
    checkGeminiTools(declarations, this.schemaDialect);
  }

  /** Implements {@link Model.checkResponseSchema}: the output schema converted for this model's dialect; throws `GeminiSchemaError` when it cannot be. */
  checkResponseSchema(responseSchema: ResponseSchema): void {
    toGeminiResponseFields(responseSchema, this.schemaDialect);
  }

  /** Implements {@link Model.generate}. */
  async *generate(request: LlmRequest, options: GenerateOptions = {}): AsyncGenerator<LlmResponse> {
    const parameters = this.toParameters(request);
    // The SDK takes its signal in the request's config.
    const withSignal = (abortSignal: AbortSignal): GenerateContentParameters => ({ ...parameters, config: { ...parameters.config, abortSignal } });
    yield* callProvider({
      provider: GEMINI_PROVIDER,
      providerName: 'Gemini',
      signal: options.signal,
      stream: options.stream ?? false,
      request: async (signal) => {
        const response = await this.client.models.generateContent(withSignal(signal));
        return readGeminiResponse(() => mapGeminiResponse(response));
      },
      openStream: async (signal) => assembleGeminiStream(await this.client.models.generateContentStream(withSignal(signal))),
      mapError: mapGeminiError,
      retry: this.retry,
      observe: options.onProviderExchange,
      body: () => parameters,
    });
  }

  private toParameters(request: LlmRequest): GenerateContentParameters {
    const config: GenerateContentConfig = { ...prepareGeminiTools(request, this.schemaDialect) };
    if (request.systemInstruction) config.systemInstruction = { parts: [{ text: request.systemInstruction }] };
    const generation = request.config ?? {};
    if (generation.temperature !== undefined) config.temperature = generation.temperature;
    if (generation.topP !== undefined) config.topP = generation.topP;
    if (generation.maxOutputTokens !== undefined) config.maxOutputTokens = generation.maxOutputTokens;
    if (generation.stopSequences?.length) config.stopSequences = generation.stopSequences;
    if (request.responseSchema) Object.assign(config, toGeminiResponseFields(request.responseSchema, this.schemaDialect));
    return { model: request.model ?? this.modelName, contents: convertToGeminiContents(request.contents, { toolFilesInFunctionResponse: this.toolFilesInFunctionResponse }), config };
  }
}
