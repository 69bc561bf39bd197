import Anthropic from '@anthropic-ai/sdk';
import { AgentConfigError, type FunctionDeclaration, type GenerateOptions, type LlmRequest, type LlmResponse, type Model, type RequestSettings, type ResponseSchema } from '@toolsmith/core';
import { type AnswerSource, type RetryPolicy, callProvider, checkEventStreamStart, mapReceivedAnswer, readJsonAnswer, resolveRetryPolicy, withBilledUsage } from '@toolsmith/core/adapter-kit';
import { checkAnthropicMessageShape } from './check-anthropic-message-shape';
import { assembleAnthropicStream } from './anthropic-stream';
import { checkAnthropicThinking } from './check-anthropic-thinking';
import { checkAnthropicTools } from './check-anthropic-tools';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages';
import { mapAnthropicError } from './map-anthropic-error';
import { toAnthropicOutputFormat } from './anthropic-output-format';
import { mapAnthropicMessage } from './map-anthropic-response';
import { prepareAnthropicTools } from './prepare-anthropic-tools';
import { isPausedTurn, mergePausedTurn, sumUsage } from './paused-turn';
import { ANTHROPIC_PROVIDER } from './provider-tool';

/** Options of {@link AnthropicModel}. */
export interface AnthropicModelOptions {
  /** Model id, e.g. `claude-sonnet-5-5`. */
  model: string;
  /** Maximum output tokens per response (`max_tokens`, required by the API); `config.maxOutputTokens` overrides it per request. */
  maxTokens: number;
  /** A configured SDK client; when given, `apiKey`, `baseURL` and `maxRetries` are ignored. */
  client?: Anthropic;
  /** API key; defaults to the `ANTHROPIC_API_KEY` environment variable (read by the SDK). */
  apiKey?: string;
  /** API base URL, e.g. a proxy or a local test server; defaults to the SDK's (`ANTHROPIC_BASE_URL` or api.anthropic.com). */
  baseURL?: string;
  /** Retries the SDK makes on 408/409/429/5xx and connection errors, honouring `retry-after` (SDK default 2). */
  maxRetries?: number;
  /**
   * Retries of failed calls (408, 409, 429, 5xx, connection failures) before any response arrived,
   * honouring `retry-after`: the same policy for every adapter (see docs/providers.md). `false` for none;
   * default 2 retries, backoff from 500 ms. The SDK's own retries are off (a `client` you pass keeps its own).
   */
  retry?: Partial<RetryPolicy> | false;
  /**
   * How many times a turn the API paused (`stop_reason: "pause_turn"`, during long server-tool work such
   * as web search) is continued automatically, by sending the paused content back as is. The pauses and
   * continuations are one model step: one complete response with all of their content. Default 5; `0`
   * never continues. When the turn is still paused after that, the response ends with error
   * `PAUSE_TURN_LIMIT` and keeps the content so far (see docs/providers.md).
   */
  maxPauseContinuations?: number;
  /**
   * Extended thinking, sent as `thinking` with every request, e.g. `{ type: 'enabled', budget_tokens: 2048 }`.
   * Thinking blocks come back as thought parts with their signature, redacted thinking blocks as
   * `providerData` parts; both go back unchanged, as the API requires when tools are used (see docs/providers.md).
   */
  thinking?: Anthropic.ThinkingConfigParam;
  /**
   * Anthropic's context management (a beta), sent as `context_management` with every request, e.g.
   * `{ edits: [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 30_000 }, keep: { type: 'tool_uses', value: 3 } }] }`:
   * the API then clears old tool results (or thinking) from what the model reads, or with
   * `compact_20260112` summarizes older context into a `compaction` block. The request is made through the
   * SDK's beta Messages API, with the beta each edit needs in the `anthropic-beta` header
   * (`context-management-2025-06-27`; `compact-2026-01-12` for compaction). An edit of an unknown type, or
   * no edit, is refused (`AGENT_CONFIG_INVALID`). The session keeps the whole history and sends it every time (the API edits it each
   * time); a `compaction` block is kept as a `providerData` part and sent back unchanged, as the API
   * requires (see docs/context.md).
   */
  contextManagement?: AnthropicContextManagement;
}

/** {@link AnthropicModelOptions.contextManagement}: the API's `context_management` (the SDK's beta type). */
export type AnthropicContextManagement = Anthropic.Beta.BetaContextManagementConfig;

/** The beta each context-management edit needs (the `anthropic-beta` header). */
const CONTEXT_MANAGEMENT_BETAS: Record<string, string> = {
  clear_tool_uses_20250919: 'context-management-2025-06-27',
  clear_thinking_20251015: 'context-management-2025-06-27',
  compact_20260112: 'compact-2026-01-12',
};

/** Default of {@link AnthropicModelOptions.maxPauseContinuations}. */
const DEFAULT_MAX_PAUSE_CONTINUATIONS = 5;

/** What each answer should be, for the errors of a 2xx answer that is not (an HTML page from a proxy, a body that is not JSON). */
const MESSAGE_ANSWER: AnswerSource = { provider: ANTHROPIC_PROVIDER, providerName: 'Anthropic', expected: 'a message' };
const MESSAGE_STREAM: AnswerSource = { ...MESSAGE_ANSWER, expected: 'a message stream' };

/** A sent Messages API request, read by the adapter from its HTTP response (`asResponse`) or the SDK's stream with it (`withResponse`). */
interface SentRequest {
  asResponse(): Promise<Response>;
  withResponse(): Promise<{ data: unknown; response: Response }>;
}

/**
 * A {@link Model} backed by Anthropic's Messages API through the official `@anthropic-ai/sdk`.
 * Function declarations go out as `input_schema` tools, `tool_use` blocks come back as function calls,
 * and tool results go back as `tool_result` blocks; with `stream: true` it reads the SSE stream and
 * assembles tool inputs from `input_json_delta` fragments. Provider failures are thrown as
 * `ProviderError` / `RateLimitError`; an aborted `signal` cancels the HTTP request and throws `RunAbortedError`.
 *
 * @example
 * ```ts
 * const model = new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 1024 });
 * const agent = new LlmAgent({ name: 'assistant', model, tools: [WeatherTools] });
 * ```
 */
export class AnthropicModel implements Model {
  /** Implements {@link Model.provider}. */
  readonly provider = ANTHROPIC_PROVIDER;
  /** Implements {@link Model.modelName}. */
  readonly modelName: string;
  private readonly client: Anthropic;
  private readonly maxTokens: number;
  private readonly retry: RetryPolicy;
  private readonly maxPauseContinuations: number;
  private readonly thinking?: Anthropic.ThinkingConfigParam;
  private readonly contextManagement?: { config: AnthropicContextManagement; betas: string[] };

  constructor(options: AnthropicModelOptions) {
    this.modelName = options.model;
    this.maxTokens = options.maxTokens;
    this.maxPauseContinuations = options.maxPauseContinuations ?? DEFAULT_MAX_PAUSE_CONTINUATIONS;
    this.thinking = options.thinking;
    if (!Number.isInteger(this.maxPauseContinuations) || this.maxPauseContinuations < 0) {
      throw new AgentConfigError(
        `AnthropicModel option maxPauseContinuations must be a whole number of at least 0, got ${String(options.maxPauseContinuations)}.`,
      );
    }
    this.client =
      // Retries are Toolsmith's (one policy for every provider), not the SDK's.
      options.client ?? new Anthropic({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0 });
    this.retry = resolveRetryPolicy(options.retry, options.maxRetries);
    if (options.contextManagement) this.contextManagement = { config: options.contextManagement, betas: contextManagementBetas(options.contextManagement) };
  }

  /** Implements {@link Model.checkTools}: names and documented limits; throws `ProviderToolNameError` or `ToolLimitError`. */
  checkTools(declarations: readonly FunctionDeclaration[]): void {
    checkAnthropicTools(declarations);
  }

  /** Implements {@link Model.checkResponseSchema}: the output schema converted as it is sent; throws `AGENT_CONFIG_INVALID` when it cannot be. */
  checkResponseSchema(responseSchema: ResponseSchema): void {
    toAnthropicOutputFormat(responseSchema);
  }

  /**
   * Implements {@link Model.checkRequestSettings}: with `thinking`, a tool choice that forces tool use and
   * a `maxOutputTokens` not above `budget_tokens` are refused (`AGENT_CONFIG_INVALID`), as the API refuses them.
   */
  checkRequestSettings(settings: RequestSettings): void {
    checkAnthropicThinking(this.thinking, { ...this.maxTokensOf(settings.config), toolChoice: settings.toolChoice, owner: `Agent "${settings.agentName}"` });
  }

  /** `max_tokens` as sent, and where it came from. */
  private maxTokensOf(config: LlmRequest['config']): { maxTokens: number; maxTokensFrom: string } {
    const asked = config?.maxOutputTokens;
    return asked === undefined ? { maxTokens: this.maxTokens, maxTokensFrom: 'AnthropicModel option maxTokens' } : { maxTokens: asked, maxTokensFrom: 'generationConfig.maxOutputTokens' };
  }

  /**
   * Implements {@link Model.generate}. A turn the API paused (`pause_turn`) is continued here, up to
   * `maxPauseContinuations` times, and answered as one response: partial responses of every call,
   * then one complete response with the paused content and its continuations.
   */
  async *generate(request: LlmRequest, options: GenerateOptions = {}): AsyncGenerator<LlmResponse> {
    const segments: LlmResponse[] = [];
    for (let continuation = 0; ; continuation++) {
      // The paused content goes back unchanged, as the last (assistant) message: the API continues it.
      const pausedParts = segments.flatMap((segment) => segment.content?.parts ?? []);
      const contents = pausedParts.length ? [...request.contents, { role: 'model' as const, parts: pausedParts }] : request.contents;
      let complete: LlmResponse | undefined;
      try {
        for await (const response of this.call({ ...request, contents }, options)) {
          if (response.turnComplete) complete = response;
          else yield response;
        }
      } catch (error) {
        // A continuation that fails or is aborted: the paused calls before it were billed, and still count.
        throw withBilledUsage(error, sumUsage(segments.map((segment) => segment.usage)));
      }
      segments.push(complete!);
      if (!isPausedTurn(complete!) || continuation >= this.maxPauseContinuations) break;
    }
    const last = segments[segments.length - 1];
    yield segments.length === 1 && !isPausedTurn(last) ? last : mergePausedTurn(segments, this.maxPauseContinuations);
  }

  /** One Messages API call: partial responses when streaming, then exactly one complete response. */
  private call(request: LlmRequest, options: GenerateOptions): AsyncGenerator<LlmResponse> {
    const params = this.toParams(request);
    const stream = options.stream ?? false;
    return callProvider({
      provider: ANTHROPIC_PROVIDER,
      providerName: 'Anthropic',
      signal: options.signal,
      stream,
      // Read from the HTTP response, not the SDK's parsed one: the SDK hands a body that is not JSON over as text, or throws its parse error.
      request: async (signal) => {
        const response = await this.create(params, false, signal).asResponse();
        const answer = await readJsonAnswer(this.sent(MESSAGE_ANSWER), response);
        return mapReceivedAnswer(this.sent(MESSAGE_ANSWER), response, () => {
          checkAnthropicMessageShape(answer);
          return mapAnthropicMessage(answer);
        });
      },
      openStream: async (signal) => {
        const { data, response } = await this.create(params, true, signal).withResponse();
        await checkEventStreamStart(this.sent(MESSAGE_STREAM), response);
        return assembleAnthropicStream(data as AsyncIterable<Anthropic.RawMessageStreamEvent>);
      },
      mapError: mapAnthropicError,
      retry: this.retry,
      observe: options.onProviderExchange,
      body: () => this.body(params, stream),
    });
  }

  /** What an answer should be, with the credentials this client sends, to be redacted from any message quoting the answer. */
  private sent(source: AnswerSource): AnswerSource {
    return { ...source, secrets: [this.client.apiKey ?? undefined, this.client.authToken ?? undefined] };
  }

  /** The body as sent (`stream` only when true): with context management, its `context_management` and `betas` (the SDK moves `betas` into the `anthropic-beta` header). */
  private body(params: Omit<Anthropic.MessageCreateParams, 'stream'>, stream: boolean): object {
    const { contextManagement } = this;
    const sent = stream ? { ...params, stream } : params;
    return contextManagement ? { ...sent, context_management: contextManagement.config, betas: contextManagement.betas } : sent;
  }

  /**
   * One Messages API request: on the beta endpoint when context management is on. The beta types are a
   * superset of the stable ones for what this adapter sends; a beta-only block (`compaction`) is read
   * as any other block it does not know (kept whole, sent back unchanged).
   */
  private create(params: Omit<Anthropic.MessageCreateParams, 'stream'>, stream: boolean, signal: AbortSignal): SentRequest {
    const { contextManagement } = this;
    // `stream` is sent only when true: false is the API's default, and every token of a request is paid for.
    const sent = stream ? { ...params, stream } : params;
    if (!contextManagement) return this.client.messages.create(sent, { signal });
    const beta = { ...sent, context_management: contextManagement.config, betas: contextManagement.betas } as Anthropic.Beta.MessageCreateParams;
    return this.client.beta.messages.create(beta, { signal });
  }

  private toParams(request: LlmRequest): Omit<Anthropic.MessageCreateParams, 'stream'> {
    const { system, messages } = convertToAnthropicMessages(request.contents, request.systemInstruction);
    const params: Omit<Anthropic.MessageCreateParams, 'stream'> = {
      model: request.model ?? this.modelName,
      max_tokens: request.config?.maxOutputTokens ?? this.maxTokens,
      messages,
      ...prepareAnthropicTools(request),
    };
    if (system !== undefined) params.system = system;
    if (this.thinking) {
      // A request a callback or tool hook changed after the runner checked the agent's settings.
      if (params.tool_choice) checkAnthropicThinking(this.thinking, { ...this.maxTokensOf(request.config), toolChoice: request.toolChoice, owner: 'The request' });
      else checkAnthropicThinking(this.thinking, { ...this.maxTokensOf(request.config), owner: 'The request' });
      params.thinking = this.thinking;
    }
    if (request.config?.stopSequences?.length) params.stop_sequences = request.config.stopSequences;
    if (request.responseSchema) params.output_config = { format: toAnthropicOutputFormat(request.responseSchema) };
    return params;
  }
}

/** The betas the edits need, each once, in the order the edits name them. */
function contextManagementBetas(config: AnthropicContextManagement): string[] {
  const betas = new Set<string>();
  const known = Object.keys(CONTEXT_MANAGEMENT_BETAS).join(', ');
  const edits: unknown = (config as { edits?: unknown } | null)?.edits;
  if (edits !== undefined && !Array.isArray(edits)) {
    throw new AgentConfigError(`AnthropicModel option contextManagement.edits must be an array of edits ({ type, … }; types: ${known}), not ${JSON.stringify(edits) ?? typeof edits}.`);
  }
  for (const [index, edit] of (edits ?? []).entries()) {
    const type: unknown = typeof edit === 'object' && edit !== null ? (edit as { type?: unknown }).type : undefined;
    if (typeof type !== 'string') throw new AgentConfigError(`AnthropicModel option contextManagement.edits[${index}] must be an object with a type (${known}), not ${JSON.stringify(edit) ?? typeof edit}.`);
    const beta = Object.hasOwn(CONTEXT_MANAGEMENT_BETAS, type) ? CONTEXT_MANAGEMENT_BETAS[type] : undefined;
    if (!beta) throw new AgentConfigError(`AnthropicModel option contextManagement has an edit of unknown type "${type}" (known: ${known}).`);
    betas.add(beta);
  }
  if (betas.size === 0) throw new AgentConfigError('AnthropicModel option contextManagement needs at least one edit.');
  return [...betas];
}
