import { AgentConfigError, type FunctionDeclaration, type GenerateOptions, type LlmRequest, type LlmResponse, type Model, ProviderError, type ResponseSchema, RunAbortedError } from '@toolsmith/core';
import { type AnswerSource, type ProviderCall, type RetryPolicy, callProvider, checkEventStreamStart, mapReceivedAnswer, readJsonAnswer, resolveRetryPolicy } from '@toolsmith/core/adapter-kit';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming as ChatBody } from 'openai/resources/chat/completions';
import type { ReasoningEffort } from 'openai/resources/shared';
import type { ResponseCreateParams, ResponseCreateParamsNonStreaming as ResponsesBody } from 'openai/resources/responses/responses';
import { checkOpenAITools } from './check-openai-tools';
import { convertToOpenAIChatMessages, convertToOpenAIResponsesInput } from './convert-to-openai-messages';
import type { OpenAIInputs } from './openai-file-parts';
import { checkResponsesShape } from './check-openai-answer-shape';
import { chatServerOf, mapOpenAIChatCompletion } from './map-openai-chat-completion';
import { mapOpenAIError } from './map-openai-error';
import { mapOpenAIResponse } from './map-openai-response';
import { readOpenAIChatStream } from './openai-chat-stream';
import { fetchUnwrappingArrayErrors } from './fetch-unwrapping-array-errors';
import { readOpenAIResponsesStream } from './openai-responses-stream';
import { toOpenAIChatResponseFormat, toOpenAIResponsesTextFormat } from './openai-response-format';
import { type OpenAIApi, type PreparedOpenAITools, prepareOpenAITools } from './prepare-openai-tools';
import { OPENAI_PROVIDER } from './provider-tool';

/** Options of {@link OpenAIModel}. */
export interface OpenAIModelOptions {
  /** Model id, e.g. `gpt-4.1-mini` (or the name a compatible server knows, e.g. `llama3.1`). */
  model: string;
  /** A configured `openai` client; when given, `apiKey`, `baseURL` and `maxRetries` are ignored. */
  client?: OpenAI;
  /** API key; defaults to `OPENAI_API_KEY`. Not needed with a `baseURL` of a local server. */
  apiKey?: string;
  /** Base URL of an OpenAI-compatible server (Ollama, vLLM, llama.cpp server), e.g. `http://localhost:11434/v1`; defaults to `OPENAI_BASE_URL`. */
  baseURL?: string;
  /** `chat` (Chat Completions, the default; what compatible servers speak) or `responses` (Responses API, hosted tools). */
  api?: OpenAIApi;
  /**
   * Strict mode (default `true`): OpenAI enforces each tool's schema. Constraints strict mode cannot carry
   * move into the description; schemas it cannot express are refused when the runner is built; `false`
   * sends every schema as is, not enforced.
   */
  strict?: boolean;
  /** Allow several function calls in one response (`parallel_tool_calls`); unset leaves the provider default. */
  parallelToolCalls?: boolean;
  /**
   * Responses API: whether OpenAI keeps responses (`store`); unset leaves OpenAI's default. With `false`,
   * the adapter asks for `reasoning.encrypted_content` as {@link OpenAIModelOptions.encryptedReasoning} says,
   * so reasoning models' reasoning items (always kept in the session and sent back) carry what OpenAI needs
   * without stored responses.
   */
  store?: boolean;
  /**
   * Responses API with `store: false`: whether to send `include: ["reasoning.encrypted_content"]`, which
   * OpenAI refuses for a model without reasoning ("Encrypted content is not supported with this model.").
   * Default: sent, except (unless `reasoning` is given) to the models known to have no reasoning (ids starting `gpt-3.5`, `gpt-4`
   * (`gpt-4o`, `gpt-4.1`, …), `chatgpt-`, `gpt-5-chat`/`gpt-5.x-chat`, also as `ft:` fine-tunes); and when OpenAI refuses
   * it with that 400 anyway (an Azure deployment's name, a new model), the request is sent once more
   * without it and this model leaves it out for that model id from then on. `true` or `false` decides.
   */
  encryptedReasoning?: boolean;
  /**
   * A reasoning model's settings: `effort` (Chat Completions: `reasoning_effort`; Responses API:
   * `reasoning.effort`) and, on the Responses API only, `summary` (`reasoning.summary`: `auto`, `concise`,
   * `detailed`), which has the model return summaries of its reasoning, kept as `thought` parts. Unset leaves
   * OpenAI's defaults (no summaries). `summary` with `api: 'chat'`, or a value that is not an object, is refused
   * (`AGENT_CONFIG_INVALID`). Given, it also says the model reasons: `store: false` then asks for encrypted
   * reasoning whatever its id (see {@link OpenAIModelOptions.encryptedReasoning}).
   */
  reasoning?: OpenAIReasoning;
  /** Shorthand for `retry: { maxRetries }`. */
  maxRetries?: number;
  /**
   * Retries of failed calls (408, 409, 429, 5xx, connection failures) before any response arrived,
   * honouring `retry-after`: the same policy for every adapter (see docs/providers.md). `false` for none;
   * default 2 retries, backoff from 500 ms. The SDK's own retries are off (a `client` you pass keeps its own).
   */
  retry?: Partial<RetryPolicy> | false;
  /**
   * Responses API only: OpenAI's server-side context management, sent as `context_management` with every
   * request, e.g. `[{ type: 'compaction', compact_threshold: 200_000 }]`. When the rendered context passes
   * the threshold, OpenAI compacts it and the response carries a `compaction` item (opaque, encrypted): it is
   * kept in the session as a `providerData` part and sent back in its place with every later request, as
   * the API requires (see docs/context.md). With `api: 'chat'` it is refused (`AGENT_CONFIG_INVALID`).
   */
  contextManagement?: OpenAIContextManagement[];
  /**
   * Chat Completions only: the model takes audio input (`input_audio`), so WAV and MP3 files, a user's or a
   * tool's, are sent as audio; else each is sent as a text note saying it was left out (a model without audio
   * input refuses `input_audio`, and the session would send it again on every later turn). Default: true when
   * the request's model id contains `audio` (`gpt-4o-audio-preview`, `gpt-audio`, …). With `api: 'responses'`
   * (which takes no audio), or not a boolean, it is refused (`AGENT_CONFIG_INVALID`).
   */
  audioInput?: boolean;
}

/** {@link OpenAIModelOptions.reasoning}: how hard a reasoning model thinks, and (Responses API) whether it returns summaries. */
export interface OpenAIReasoning {
  /** How much the model reasons before it answers (`none`, `minimal`, `low`, `medium`, `high`, `xhigh`, as the model takes). */
  effort?: NonNullable<ReasoningEffort>;
  /** Responses API only: summaries of the reasoning, returned as `thought` parts. */
  summary?: 'auto' | 'concise' | 'detailed';
}

/** One entry of {@link OpenAIModelOptions.contextManagement}, as the Responses API takes it (`context_management[]`). */
export type OpenAIContextManagement = ResponseCreateParams.ContextManagement;

/**
 * A {@link Model} on OpenAI's Chat Completions or Responses API through the official `openai` SDK,
 * also usable with any OpenAI-compatible server through `baseURL`. Derives OpenAI's strict-mode schema
 * dialect from each tool's canonical schema and maps OpenAI's errors to `ProviderError` /
 * `RateLimitError`.
 *
 * @example
 * ```ts
 * const model = new OpenAIModel({ model: 'gpt-4.1-mini' });                       // OPENAI_API_KEY
 * const local = new OpenAIModel({ model: 'llama3.1', baseURL: 'http://localhost:11434/v1', strict: false });
 * const hosted = new OpenAIModel({ model: 'gpt-4.1', api: 'responses' });           // for providerTool(...)
 * ```
 */
export class OpenAIModel implements Model {
  /** Always `openai`, also against OpenAI-compatible servers; this package's provider tools are checked against it. */
  readonly provider = OPENAI_PROVIDER;
  /** The `model` option, sent as the request's model id unless the request names another. */
  readonly modelName: string;
  /** Which API it calls: `chat` (Chat Completions, the default) or `responses` (Responses API, needed for hosted tools). */
  readonly api: OpenAIApi;
  private readonly client: OpenAI;
  private readonly retry: RetryPolicy;
  private readonly store?: boolean;
  private readonly encryptedReasoning?: boolean;
  private readonly reasoning?: OpenAIReasoning;
  /** Model ids OpenAI answered "Encrypted content is not supported with this model." for: sent without `include`. */
  private readonly refusedEncryptedReasoning = new Set<string>();
  private readonly strict: boolean;
  private readonly parallelToolCalls?: boolean;
  private readonly contextManagement?: OpenAIContextManagement[];
  private readonly audioInput?: boolean;
  /** The server this model talks to (`chatServerOf` its client's base URL): a call's `extra_content` goes back only to it. */
  private readonly server: string;

  constructor(options: OpenAIModelOptions) {
    this.modelName = options.model;
    this.api = options.api ?? 'chat';
    this.strict = options.strict ?? true;
    this.parallelToolCalls = options.parallelToolCalls;
    this.client = options.client ?? createClient(options);
    this.server = chatServerOf(this.client.baseURL);
    this.retry = resolveRetryPolicy(options.retry, options.maxRetries);
    this.store = options.store;
    this.encryptedReasoning = options.encryptedReasoning;
    if (options.reasoning !== undefined && (typeof options.reasoning !== 'object' || options.reasoning === null || (options.reasoning.summary !== undefined && this.api === 'chat'))) {
      throw new AgentConfigError(
        typeof options.reasoning !== 'object' || options.reasoning === null
          ? `OpenAIModel option reasoning must be an object ({ effort?, summary? }) (got ${JSON.stringify(options.reasoning)}).`
          : "OpenAIModel option reasoning.summary is a Responses API option (Chat Completions returns no summaries): use it with api: 'responses'.",
      );
    }
    this.reasoning = options.reasoning;
    if (options.contextManagement !== undefined && this.api !== 'responses') {
      throw new AgentConfigError('OpenAIModel option contextManagement is a Responses API option: use it with api: \'responses\'.');
    }
    this.contextManagement = options.contextManagement;
    if (options.audioInput !== undefined && (typeof options.audioInput !== 'boolean' || this.api !== 'chat')) {
      throw new AgentConfigError(
        typeof options.audioInput !== 'boolean'
          ? `OpenAIModel option audioInput must be true or false (got ${JSON.stringify(options.audioInput) ?? typeof options.audioInput}).`
          : "OpenAIModel option audioInput is a Chat Completions option (the Responses API takes no audio): use it with api: 'chat'.",
      );
    }
    this.audioInput = options.audioInput;
  }

  /**
   * Implements {@link Model.checkTools}: function names, OpenAI's documented limits and, in strict mode,
   * each schema's strict form. Throws `ProviderToolNameError`, `ToolLimitError` or `StrictSchemaError`.
   */
  checkTools(declarations: readonly FunctionDeclaration[]): void {
    checkOpenAITools(declarations, this.strict);
  }

  /**
   * Implements {@link Model.checkResponseSchema}: an agent's output schema in the form it is sent (in
   * strict mode, the strict transform); throws `StrictSchemaError` for what strict mode cannot express.
   */
  checkResponseSchema(responseSchema: ResponseSchema): void {
    toOpenAIChatResponseFormat(responseSchema, this.strict);
  }

  /** Sends the request; see {@link Model.generate}. Throws `StrictSchemaError`, `ProviderError`, `RateLimitError` or `RunAbortedError`. */
  async *generate(request: LlmRequest, options: GenerateOptions = {}): AsyncGenerator<LlmResponse> {
    const { signal, stream = false } = options;
    // Before the schemas are prepared: an aborted call reports the abort, not a schema problem.
    if (signal?.aborted) throw new RunAbortedError(signal.reason);
    const prepared = prepareOpenAITools({ request, api: this.api, strict: this.strict, parallelToolCalls: this.parallelToolCalls });
    yield* callProvider({
      provider: OPENAI_PROVIDER,
      providerName: 'OpenAI',
      signal,
      stream,
      ...(this.api === 'chat' ? this.chat(request, prepared, stream) : this.responses(request, prepared, stream)),
      mapError: (error, { streamStarted }) => mapOpenAIError(error, { streamStarted }),
      retry: this.retry,
      observe: options.onProviderExchange,
    });
  }

  /**
   * What the request's model takes besides text (Chat Completions): audio as `audioInput` says, else by its id;
   * images and documents unless `audioInput` is unset and the id names an audio model. The Responses API: no
   * audio, and images and documents whatever the id (it has no audio models).
   */
  private inputsOf(model: string): OpenAIInputs {
    if (this.api !== 'chat') return { audio: false, images: true };
    if (this.audioInput !== undefined) return { audio: this.audioInput, images: true };
    const audioModel = isAudioModel(model);
    return { audio: audioModel, images: !audioModel };
  }

  private chat(request: LlmRequest, prepared: PreparedOpenAITools<'chat'>, stream: boolean): OpenAICalls {
    const config = request.config ?? {};
    const model = request.model ?? this.modelName;
    const body: ChatBody = { model, messages: convertToOpenAIChatMessages(request, this.server, this.inputsOf(model)) };
    if (prepared.tools) body.tools = prepared.tools;
    if (prepared.toolChoice !== undefined) body.tool_choice = prepared.toolChoice;
    if (prepared.parallelToolCalls !== undefined) body.parallel_tool_calls = prepared.parallelToolCalls;
    if (config.temperature !== undefined) body.temperature = config.temperature;
    if (config.topP !== undefined) body.top_p = config.topP;
    if (config.maxOutputTokens !== undefined) body.max_completion_tokens = config.maxOutputTokens;
    if (config.stopSequences?.length) body.stop = config.stopSequences;
    if (this.reasoning?.effort !== undefined) body.reasoning_effort = this.reasoning.effort;
    if (request.responseSchema) body.response_format = toOpenAIChatResponseFormat(request.responseSchema, this.strict);
    const streamBody = () => ({ ...body, stream: true as const, stream_options: { include_usage: true } });
    return {
      // Read from the HTTP response, not the SDK's parsed one: the SDK's JSON parse error would look like a failed connection.
      request: async (signal) => {
        const response = await this.client.chat.completions.create(body, { signal }).asResponse();
        const answer = await readJsonAnswer(this.sent(CHAT_ANSWER), response);
        return mapReceivedAnswer(this.sent(CHAT_ANSWER), response, () => mapOpenAIChatCompletion(answer, { strictSchemas: prepared.strictSchemas, server: this.server }));
      },
      openStream: async (signal) => {
        const { data, response } = await this.client.chat.completions.create(streamBody(), { signal }).withResponse();
        await checkEventStreamStart(this.sent(CHAT_STREAM), response);
        return readOpenAIChatStream(data, { strictSchemas: prepared.strictSchemas, server: this.server });
      },
      body: () => (stream ? streamBody() : body),
    };
  }

  private responses(request: LlmRequest, prepared: PreparedOpenAITools<'responses'>, stream: boolean): OpenAICalls {
    const config = request.config ?? {};
    const model = request.model ?? this.modelName;
    const body: ResponsesBody = { model, input: convertToOpenAIResponsesInput(request.contents, { store: this.store }, this.inputsOf(model)) };
    if (request.systemInstruction) body.instructions = request.systemInstruction;
    if (prepared.tools) body.tools = prepared.tools;
    if (prepared.toolChoice !== undefined) body.tool_choice = prepared.toolChoice;
    if (prepared.parallelToolCalls !== undefined) body.parallel_tool_calls = prepared.parallelToolCalls;
    if (config.temperature !== undefined) body.temperature = config.temperature;
    if (config.topP !== undefined) body.top_p = config.topP;
    if (config.maxOutputTokens !== undefined) body.max_output_tokens = config.maxOutputTokens;
    if (this.store !== undefined) body.store = this.store;
    if (this.store === false && this.asksEncryptedReasoning(model)) body.include = ['reasoning.encrypted_content'];
    if (this.contextManagement) body.context_management = this.contextManagement;
    if (this.reasoning) body.reasoning = { ...this.reasoning };
    if (request.responseSchema) body.text = { format: toOpenAIResponsesTextFormat(request.responseSchema, this.strict) };
    const streamBody = () => ({ ...body, stream: true as const });
    return {
      request: async (signal) => {
        // Read from the HTTP response, not the SDK's parsed one: the SDK throws a TypeError on a body that is not a JSON object.
        const response = await this.withoutRefusedInclude(body, () => this.client.responses.create(body, { signal }).asResponse());
        const answer = await readJsonAnswer(this.sent(RESPONSES_ANSWER), response);
        return mapReceivedAnswer(this.sent(RESPONSES_ANSWER), response, () => {
          checkResponsesShape(answer);
          return mapOpenAIResponse(answer, prepared.strictSchemas);
        });
      },
      openStream: async (signal) => {
        const { data, response } = await this.withoutRefusedInclude(body, () => this.client.responses.create(streamBody(), { signal }).withResponse());
        await checkEventStreamStart(this.sent(RESPONSES_STREAM), response);
        return readOpenAIResponsesStream(data, prepared.strictSchemas);
      },
      body: () => (stream ? streamBody() : body),
    };
  }

  /** What an answer should be, with the key this client sends, to be redacted from any message quoting the answer. */
  private sent(source: AnswerSource): AnswerSource {
    return { ...source, secrets: [this.client.apiKey ?? undefined] };
  }

  /** Whether a `store: false` request to `model` asks for encrypted reasoning (see {@link OpenAIModelOptions.encryptedReasoning}). */
  private asksEncryptedReasoning(model: string): boolean {
    if (this.encryptedReasoning !== undefined) return this.encryptedReasoning;
    return !this.refusedEncryptedReasoning.has(model) && (this.reasoning !== undefined || !hasNoReasoning(model));
  }

  /**
   * Sends the request; when OpenAI refuses its `include` of encrypted reasoning for the model (a model
   * without reasoning that {@link hasNoReasoning} does not know), sends it once more without, and
   * remembers the model id. An explicit `encryptedReasoning: true` is not overridden.
   */
  private async withoutRefusedInclude<T>(body: ResponsesBody, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      if (!body.include || this.encryptedReasoning === true || !refusesEncryptedReasoning(error)) throw error;
      this.refusedEncryptedReasoning.add(body.model as string);
      delete body.include;
      return send();
    }
  }
}

/** What each answer should be, for the errors of a 2xx answer that is not (an HTML page from a proxy, a body that is not JSON). */
const CHAT_ANSWER: AnswerSource = { provider: OPENAI_PROVIDER, providerName: 'OpenAI', expected: 'a chat completion' };
const CHAT_STREAM: AnswerSource = { ...CHAT_ANSWER, expected: 'a chat completion stream' };
const RESPONSES_ANSWER: AnswerSource = { ...CHAT_ANSWER, expected: 'a response' };
const RESPONSES_STREAM: AnswerSource = { ...CHAT_ANSWER, expected: 'a response stream' };

/** The two ways of sending one request to an OpenAI API, and its body, for {@link callProvider}. */
type OpenAICalls = Pick<ProviderCall, 'request' | 'openStream' | 'body'>;

function createClient(options: OpenAIModelOptions): OpenAI {
  const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL;
  // Local OpenAI-compatible servers accept any key; the SDK refuses to start without one.
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY ?? (baseURL ? 'not-needed' : undefined);
  if (!apiKey) {
    throw new ProviderError(
      'AUTHENTICATION_FAILED',
      'No OpenAI API key: pass `apiKey` to OpenAIModel or set OPENAI_API_KEY (a `baseURL` of a local server needs none).',
      { provider: OPENAI_PROVIDER },
    );
  }
  // Retries are Toolsmith's (one policy for every provider), not the SDK's.
  return new OpenAI({ apiKey, baseURL, maxRetries: 0, fetch: fetchUnwrappingArrayErrors });
}

/**
 * Models OpenAI serves without reasoning, by id (an `ft:` fine-tune by its base model's): they refuse
 * `include: ["reasoning.encrypted_content"]`. pydantic-ai's model profiles draw the same line (reasoning:
 * the `o` series and `gpt-5` except `gpt-5-chat`).
 */
function hasNoReasoning(model: string): boolean {
  return /^(ft:)?(gpt-3\.5|gpt-4|chatgpt-|gpt-5(\.\d+)?-chat)/i.test(model);
}

/** OpenAI's 400 for encrypted reasoning asked of a model without reasoning (param `include`). */
function refusesEncryptedReasoning(error: unknown): boolean {
  return error instanceof OpenAI.APIError && error.status === 400 && error.param === 'include' && /encrypted content is not supported/i.test(error.message);
}

/**
 * OpenAI's audio models carry `audio` in their id (`gpt-4o-audio-preview`, `gpt-4o-mini-audio-preview`,
 * `gpt-audio`): they take text and audio, and refuse images ("This model does not support image_url content").
 */
function isAudioModel(model: string): boolean {
  return /audio/i.test(model);
}
