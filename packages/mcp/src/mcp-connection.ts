import {
  type CallToolResult,
  Client,
  type CompleteRequest,
  type CompleteResult,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type ServerCapabilities,
  type ElicitRequestFormParams,
  type ElicitResult,
  type InputRequests,
  type AuthProvider,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  InsufficientScopeError,
  StreamableHTTPClientTransport,
  type Tool as McpToolInfo,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { ToolsmithError} from '@toolsmith/core';
import { DEFAULT_MAX_TOOL_FILE_BYTES, reportableError, thrownMessage } from '@toolsmith/core';
import { McpConnectionError } from './mcp-errors';
import { MCP_SESSION_META } from './mcp-request-session';
import type { McpElicitationForm, McpElicitationHandler } from './mcp-elicitation-handler';
import { approvingContent, isConfirmationForm } from './mcp-confirmation-form';
import { watchRequestStreams } from './mcp-request-streams';

/** How to start an MCP server as a child process and talk to it over its stdin/stdout. */
export interface McpStdioTransportOptions {
  /** The executable, e.g. `node` or `npx`. */
  command: string;
  /** Arguments passed to `command`, e.g. `['server.js']`; default none. */
  args?: string[];
  /** Added to the safe default environment the SDK passes on (PATH, HOME, …). */
  env?: Record<string, string>;
  /** Working directory of the child process. */
  cwd?: string;
  /** What to do with the child's stderr; `inherit` (the default) shows its logs. */
  stderr?: 'inherit' | 'ignore' | 'pipe';
}

/** A fixed set of HTTP connection details, resolved for one run. */
export interface McpHttpEndpoint {
  url: URL;
  headers: Record<string, string>;
  /** Adds the user's OAuth token to every request, and ends a refused one with the server's challenge. */
  authProvider?: AuthProvider;
  /** Wraps the transport's fetch (the app modes' step-up on `403 insufficient_scope`). */
  fetch?: (fetchImpl: typeof fetch) => typeof fetch;
}

/** What a connection needs to open (and re-open) its session. */
export interface McpConnectionOptions {
  /**
   * Describes the server in errors, e.g. `stdio:node` (a stdio server by its command's name only: its
   * arguments and environment may hold secrets) or `http://127.0.0.1:3000/mcp`.
   */
  label: string;
  /** Tells servers apart in the 2026-07-28 session ids, hashed, never shown (a stdio server's whole command line); default `label`. */
  identity?: string;
  /** Builds a fresh transport for each session. */
  createTransport: () => Transport;
  /** Timeout of each request, in milliseconds. */
  timeoutMs: number;
  /** Timeout of starting the server and the handshake, in milliseconds. */
  connectTimeoutMs: number;
  clientName: string;
  clientVersion: string;
  /** Which protocol era to speak: negotiated (`auto`), or only one. */
  protocol: McpProtocolChoice;
  /** Answers forms without asking the person (else, or when it returns `undefined`, the call pauses for them). */
  onElicitation?: McpElicitationHandler;
}

/**
 * Which protocol revision a {@link McpConnection} speaks: `auto` asks the server (`server/discover`) and
 * speaks 2026-07-28 when it can, else the 2025-era handshake; `2025-11-25` only the handshake (no
 * question first); `2026-07-28` only the stateless revision (a server without it fails to connect).
 */
export type McpProtocolChoice = 'auto' | '2025-11-25' | '2026-07-28';

/** Options of one request. */
export interface McpRequestOptions {
  signal?: AbortSignal;
  /**
   * Called with each progress notification the server sends for this request. Progress is asked for on
   * every request (a progress token), with or without this callback: each notification restarts the timeout.
   */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** The Toolsmith session id sent in the request's `_meta` (`toolsmith/sessionId`) when the era is 2026-07-28. */
  sessionId?: string;
}

/**
 * A server's request for the user's input instead of a tool's result: a 2025-era `elicitation/create`
 * sent during the call, or a 2026-07-28 `input_required` result. Only form elicitations can be asked.
 */
export interface McpInputRequest {
  /** `legacy`: the server elicited during the call (2025-11-25); `modern`: it answered `input_required` (2026-07-28). */
  era: 'legacy' | 'modern';
  /** The forms to fill in, by the server's key (`elicitation` for the one form of a 2025-era call). */
  forms: Record<string, ElicitRequestFormParams>;
  /** The server's opaque state, echoed verbatim when the call is sent again (2026-07-28 only). */
  requestState?: string;
}

/** The person's answers to a {@link McpInputRequest}, given when the call is sent again. */
export interface McpInputAnswers {
  /** Each form's answer, by the key of {@link McpInputRequest.forms}. */
  responses: Record<string, ElicitResult>;
  /** The request's `requestState`, as it came. */
  requestState?: string;
}

/**
 * What a call came back with: the tool's result, or the server's request for input. `cancelledQuestion`
 * on an error result: while the call was in flight, a 2025-era server asked a question McpToolset could
 * not tie to one call, so it cancelled it; that many calls were in flight then.
 */
export type McpCallOutcome = { kind: 'result'; result: CallToolResult; cancelledQuestion?: { callsInFlight: number } } | { kind: 'input'; request: McpInputRequest };

/** The key of the one form a 2025-era call elicits. */
export const LEGACY_FORM_KEY = 'elicitation';

/** A call in flight on this connection, for tying a 2025-era elicitation to it. */
interface CallInFlight {
  /** The server's name of the tool called. */
  tool: string;
  /** The answer to give the first elicitation of this call (it is being sent again after the person answered). */
  answer?: ElicitResult;
  answerGiven?: boolean;
  /** The form the server elicited during this call, before anybody answered. */
  asked?: ElicitRequestFormParams;
  /** The server elicited again during this call after it got the person's answer (one round per call). */
  askedAgain?: boolean;
  /**
   * The person approved this very call on a plain confirmation whose question was this text: the server's
   * confirmation form during it is answered "approve" when it asks exactly that question.
   */
  approvedQuestion?: string;
  /** The server's confirmation of the approved call asked another question than the person saw (its message): told "cancel". */
  unseenQuestion?: string;
  /** A question arrived while this call and others were in flight, and was cancelled (nobody can tell whose it was): how many calls were in flight. */
  cancelledQuestion?: number;
}

/**
 * One MCP client session to one server: connected lazily on first use, reused afterwards, and
 * re-opened once when the server dropped it. The protocol revision is negotiated on connect: 2026-07-28
 * (stateless) when the server speaks it, else the 2025-era `initialize` handshake. Every SDK failure
 * comes out as a {@link McpConnectionError}.
 */
export class McpConnection {
  private client?: Client;
  private connecting?: Promise<Client>;
  private closed = false;
  private readonly inFlight = new Set<CallInFlight>();

  constructor(private readonly options: McpConnectionOptions) {}

  /** Describes the server in errors. */
  get label(): string {
    return this.options.label;
  }

  /** Tells this server apart in the 2026-07-28 session ids ({@link mcpClientSessionId}); never shown. */
  get identity(): string {
    return this.options.identity ?? this.options.label;
  }

  /** The negotiated protocol revision (`2026-07-28`, `2025-11-25`, …), once connected. */
  get protocolVersion(): string | undefined {
    return this.client?.getNegotiatedProtocolVersion();
  }

  /** Every tool the server offers (all pages). Listing is idempotent, so any lost session is retried once. */
  async listTools(requestOptions: McpRequestOptions = {}): Promise<McpToolInfo[]> {
    return this.withSession(
      async (client) => {
        const tools: McpToolInfo[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor === undefined ? undefined : { cursor }, { ...this.requestOptions(requestOptions), cacheMode: 'bypass' });
          tools.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor);
        return tools;
      },
      () => true,
      requestOptions.signal,
    );
  }

  /** What the server declared it offers (`resources`, `prompts`, `completions`, …); connects first when needed. */
  async serverCapabilities(signal?: AbortSignal): Promise<ServerCapabilities> {
    return this.withSession((client) => Promise.resolve(client.getServerCapabilities() ?? {}), () => true, signal);
  }

  /** Every resource and resource template the server offers (all pages of each). Idempotent, so retried once on a lost session. */
  async listResources(requestOptions: McpRequestOptions = {}): Promise<{ resources: Resource[]; resourceTemplates: ResourceTemplate[] }> {
    return this.withSession(
      async (client) => {
        const options = { ...this.requestOptions(requestOptions), cacheMode: 'bypass' as const };
        const meta = this.sessionMeta(client, requestOptions);
        const resources: Resource[] = [];
        const resourceTemplates: ResourceTemplate[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listResources({ ...meta, ...(cursor === undefined ? {} : { cursor }) }, options);
          resources.push(...page.resources);
          cursor = page.nextCursor;
        } while (cursor);
        do {
          const page = await client.listResourceTemplates({ ...meta, ...(cursor === undefined ? {} : { cursor }) }, options);
          resourceTemplates.push(...page.resourceTemplates);
          cursor = page.nextCursor;
        } while (cursor);
        return { resources, resourceTemplates };
      },
      () => true,
      requestOptions.signal,
    );
  }

  /** Reads one resource (a listed one, or a URI a template matches): its contents, text or base64 bytes. */
  async readResource(uri: string, requestOptions: McpRequestOptions = {}): Promise<ReadResourceResult['contents']> {
    return this.withSession(
      async (client) => (await client.readResource({ uri, ...this.sessionMeta(client, requestOptions) }, { ...this.requestOptions(requestOptions), cacheMode: 'bypass' })).contents,
      () => true,
      requestOptions.signal,
    );
  }

  /** Every prompt the server offers (all pages). */
  async listPrompts(requestOptions: McpRequestOptions = {}): Promise<Prompt[]> {
    return this.withSession(
      async (client) => {
        const prompts: Prompt[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listPrompts(
            { ...this.sessionMeta(client, requestOptions), ...(cursor === undefined ? {} : { cursor }) },
            { ...this.requestOptions(requestOptions), cacheMode: 'bypass' },
          );
          prompts.push(...page.prompts);
          cursor = page.nextCursor;
        } while (cursor);
        return prompts;
      },
      () => true,
      requestOptions.signal,
    );
  }

  /** One prompt, filled in with `args`: its description and messages. */
  async getPrompt(name: string, args: Record<string, string>, requestOptions: McpRequestOptions = {}): Promise<GetPromptResult> {
    return this.withSession(
      (client) => client.getPrompt({ name, arguments: args, ...this.sessionMeta(client, requestOptions) }, this.requestOptions(requestOptions)),
      () => true,
      requestOptions.signal,
    );
  }

  /** The server's suggestions for one argument of a prompt or resource template (`completion/complete`). */
  async complete(params: CompleteRequest['params'], requestOptions: McpRequestOptions = {}): Promise<CompleteResult['completion']> {
    return this.withSession(
      async (client) => (await client.complete({ ...params, ...this.sessionMeta(client, requestOptions) }, this.requestOptions(requestOptions))).completion,
      () => true,
      requestOptions.signal,
    );
  }

  /** The `_meta` naming the Toolsmith session of a 2026-07-28 request (nothing on a 2025-era session, which is one already). */
  private sessionMeta(client: Client, requestOptions: McpRequestOptions): { _meta?: Record<string, unknown> } {
    if (client.getProtocolEra() !== 'modern' || requestOptions.sessionId === undefined) return {};
    return { _meta: { [MCP_SESSION_META]: requestOptions.sessionId } };
  }

  /**
   * Calls one tool. A call is retried on a new session only when the server cannot have run it (its
   * HTTP session was unknown, or the transport was already gone); a server that dies mid-call is
   * reported, not called twice. A server that asks for the user's input gets the `answers` when given
   * (the call is being sent again after the person answered), else the outcome is that request. When
   * the person approved this call on a plain confirmation whose question was `approvedQuestion`, the
   * server's confirmation of it (a form {@link isConfirmationForm} recognises) is answered "approve" (one
   * round) when its message is exactly that question; another message is a question nobody saw, which is
   * not answered for the person (`MCP_CONFIRMATION_CHANGED`: a 2025-era server is told "cancel", a
   * 2026-07-28 one gets no answer, and neither runs the tool). Any other input request is the outcome.
   */
  async callTool(name: string, args: Record<string, unknown>, requestOptions: McpRequestOptions = {}, answers?: McpInputAnswers, approvedQuestion?: string): Promise<McpCallOutcome> {
    return this.withSession((client) => this.callOnce(client, name, args, requestOptions, answers, approvedQuestion), isNotDelivered, requestOptions.signal);
  }

  private async callOnce(client: Client, name: string, args: Record<string, unknown>, requestOptions: McpRequestOptions, answers?: McpInputAnswers, approvedQuestion?: string): Promise<McpCallOutcome> {
    const modern = client.getProtocolEra() === 'modern';
    const call: CallInFlight = { tool: name };
    const legacyAnswer = answers?.responses[LEGACY_FORM_KEY];
    if (!modern && legacyAnswer) call.answer = legacyAnswer;
    if (!modern && approvedQuestion !== undefined) call.approvedQuestion = approvedQuestion;
    const params: Record<string, unknown> = { name, arguments: args };
    Object.assign(params, this.sessionMeta(client, requestOptions));
    if (modern && answers) {
      params.inputResponses = answers.responses;
      if (answers.requestState !== undefined) params.requestState = answers.requestState;
    }
    this.inFlight.add(call);
    let result: Record<string, unknown>;
    try {
      result = (await client.callTool(params as { name: string; arguments: Record<string, unknown> }, {
        ...this.requestOptions(requestOptions),
        allowInputRequired: true,
      })) as Record<string, unknown>;
    } finally {
      this.inFlight.delete(call);
    }
    // A 2025-era server confirmed the approved call with a question the person never saw, and was told "cancel".
    if (call.unseenQuestion !== undefined) throw this.unseenQuestionError(name, call.unseenQuestion);
    // A 2025-era server asked again after it got the answer, and was told "cancel": its result is not the tool's.
    if (call.askedAgain) {
      throw new McpConnectionError('MCP_INPUT_UNSUPPORTED', this.label, `tool "${name}" asked for input again after the person answered; McpToolset asks once per call`);
    }
    // A 2025-era server elicited during the call and was told "cancel": what it answered then is not the tool's result.
    if (call.asked) return { kind: 'input', request: { era: 'legacy', forms: { [LEGACY_FORM_KEY]: call.asked } } };
    if (result.resultType === 'input_required') {
      const request = this.inputRequest(name, result);
      // The server confirms the call the person approved (with the arguments they approved): approve it (one
      // round), if it asks the question the person saw; another question is not answered for them.
      const confirmation = approvedQuestion !== undefined && !answers ? confirmationOfCall(request) : undefined;
      if (confirmation && confirmation.form.message !== approvedQuestion) throw this.unseenQuestionError(name, confirmation.form.message);
      if (confirmation) return this.callOnce(client, name, args, requestOptions, approvingAnswers(request, confirmation));
      // The handler may answer every form at once: the call is sent again with its answers (one such round).
      const answered = answers || approvedQuestion !== undefined ? undefined : await this.answerByHandler(request, name);
      if (answered) return this.callOnce(client, name, args, requestOptions, answered);
      return { kind: 'input', request };
    }
    // A question nobody could tie to a call was cancelled during this one: an error the server then answered may be its doing.
    if (call.cancelledQuestion !== undefined && result.isError === true) {
      return { kind: 'result', result: result as CallToolResult, cancelledQuestion: { callsInFlight: call.cancelledQuestion } };
    }
    return { kind: 'result', result: result as CallToolResult };
  }

  /** The error of a call whose server confirmed it with a question the person who approved it did not see. */
  private unseenQuestionError(tool: string, question: string): McpConnectionError {
    return new McpConnectionError(
      'MCP_CONFIRMATION_CHANGED',
      this.label,
      `tool "${tool}" did not run: sent again after the person approved it, its server asked a question the person did not see (${JSON.stringify(question)}), and McpToolset answers no question for the person; nothing was approved. Call the tool again to ask the person that question.`,
      { details: { question } },
    );
  }

  /** The handler's answers to every form of a 2026-07-28 request, or `undefined` when it leaves one to the person. */
  private async answerByHandler(request: McpInputRequest, tool: string): Promise<McpInputAnswers | undefined> {
    const handler = this.options.onElicitation;
    if (!handler) return undefined;
    const responses: Record<string, ElicitResult> = {};
    for (const [key, form] of Object.entries(request.forms)) {
      const answer = await handler(form as McpElicitationForm, { server: this.label, tool });
      if (!answer) return undefined;
      responses[key] = answer as ElicitResult;
    }
    return request.requestState === undefined ? { responses } : { responses, requestState: request.requestState };
  }

  /** The forms of an `input_required` result; anything but a form elicitation cannot be asked of a person here. */
  private inputRequest(toolName: string, result: Record<string, unknown>): McpInputRequest {
    const forms: Record<string, ElicitRequestFormParams> = {};
    const requests = (result.inputRequests ?? {}) as InputRequests;
    for (const [key, request] of Object.entries(requests)) {
      const params = request.params as { mode?: string } | undefined;
      if (request.method !== 'elicitation/create' || (params?.mode !== undefined && params.mode !== 'form')) {
        const what = request.method === 'elicitation/create' ? `a ${params?.mode ?? ''} elicitation` : `"${request.method}"`;
        throw new McpConnectionError('MCP_INPUT_UNSUPPORTED', this.label, `tool "${toolName}" asked for ${what}, which McpToolset cannot answer (it answers form elicitations only)`);
      }
      forms[key] = request.params as ElicitRequestFormParams;
    }
    const request: McpInputRequest = { era: 'modern', forms };
    if (typeof result.requestState === 'string') request.requestState = result.requestState;
    return request;
  }

  /**
   * A 2025-era server's `elicitation/create`, sent during a call. The call being sent again after the
   * person answered gets that answer; otherwise the form is recorded on the one call in flight (so the
   * call pauses for the person) and the server is told "cancel". The one call in flight that already
   * gave its answer is asked again: it is told "cancel" and the call fails (one round per call). With
   * several calls in flight and no answer waiting, nobody can tell whose form it is: it is cancelled, and
   * each of those calls is marked, so an error it then gets is reported as what it is (`MCP_INPUT_CANCELLED`).
   */
  private async elicit(params: ElicitRequestFormParams | { mode: 'url' }): Promise<ElicitResult> {
    const calls = [...this.inFlight];
    const answering = calls.find((call) => call.answer && !call.answerGiven);
    if (answering) {
      answering.answerGiven = true;
      return answering.answer!;
    }
    // The call the person approved, confirmed by the server (its one call in flight): approve it if it asks
    // the question the person saw; another question nobody saw is told "cancel" (the call fails, nothing ran).
    if (calls.length === 1 && calls[0].approvedQuestion !== undefined && !calls[0].answerGiven && params.mode !== 'url' && isConfirmationForm(params as ElicitRequestFormParams)) {
      calls[0].answerGiven = true;
      const { message } = params as ElicitRequestFormParams;
      if (message === calls[0].approvedQuestion) return { action: 'accept', content: approvingContent(params as ElicitRequestFormParams) };
      calls[0].unseenQuestion = message;
      return { action: 'cancel' };
    }
    if (calls.length === 1 && calls[0].answerGiven) {
      calls[0].askedAgain = true;
      return { action: 'cancel' };
    }
    const handler = this.options.onElicitation;
    if (handler && params.mode !== 'url') {
      const answer = await handler(params as McpElicitationForm, { server: this.label, ...(calls.length === 1 ? { tool: calls[0].tool } : {}) });
      if (answer) return answer as ElicitResult;
    }
    const unanswered = calls.filter((call) => !call.answer && !call.asked);
    if (params.mode !== 'url' && unanswered.length === 1 && calls.length === 1) unanswered[0].asked = params as ElicitRequestFormParams;
    if (calls.length > 1) for (const call of calls) call.cancelledQuestion = Math.max(call.cancelledQuestion ?? 0, calls.length);
    return { action: 'cancel' };
  }

  /** Ends the session (and, for stdio, the server process). The connection may be used again later. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = this.connecting;
    this.connecting = undefined;
    const client = this.client ?? (await pending?.catch(() => undefined));
    this.client = undefined;
    this.closed = false;
    if (client) await closeClient(client);
  }

  private requestOptions(options: McpRequestOptions) {
    const { onProgress } = options;
    return {
      timeout: this.options.timeoutMs,
      signal: options.signal,
      // Progress means the server is alive: a long-running tool is not cut off while it reports. The SDK
      // asks the server for progress (a progress token) only when there is a callback, so there always is.
      onprogress: (progress: { progress: number; total?: number; message?: string }) => onProgress?.(progress),
      resetTimeoutOnProgress: true,
    };
  }

  private async withSession<T>(
    operation: (client: Client) => Promise<T>,
    mayRetry: (error: unknown) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const client = await this.session();
    try {
      return await operation(client);
    } catch (error) {
      // A connection that broke mid-request is not used again: the next request opens a new session.
      if (!signal?.aborted && isDroppedMidRequest(error)) await this.discard(client);
      if (signal?.aborted || !isSessionLost(error) || !mayRetry(error)) throw this.toError(error, signal);
      await this.discard(client);
    }
    try {
      return await operation(await this.session());
    } catch (error) {
      throw this.toError(error, signal);
    }
  }

  private async session(): Promise<Client> {
    if (this.client) return this.client;
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<Client> {
    const client = new Client(
      { name: this.options.clientName, version: this.options.clientVersion },
      {
        // Probe with server/discover: 2026-07-28 when the server speaks it, else the 2025-era handshake.
        versionNegotiation: { mode: VERSION_NEGOTIATION[this.options.protocol] },
        capabilities: { elicitation: { form: {} } },
        // input_required comes back to the caller, which pauses the run for the person.
        inputRequired: { autoFulfill: false },
      },
    );
    client.setRequestHandler('elicitation/create', (request) => this.elicit(request.params));
    // A server that exits or drops the connection ends this session; the next request opens a new one.
    client.onclose = () => {
      if (this.client === client) this.client = undefined;
    };
    const transport = this.options.createTransport();
    // A request whose response stream broke (and could not be resumed) ends the session: its requests fail
    // with MCP_CONNECTION_CLOSED at once, and the next request opens a new session.
    if (transport instanceof StreamableHTTPClientTransport) watchRequestStreams(transport, () => void this.discard(client));
    try {
      await client.connect(transport, { timeout: this.options.connectTimeoutMs });
    } catch (error) {
      await closeClient(client);
      // Getting the app's token failed (OAuth client credentials): that is the error, not the connection.
      const refused = authorizationFailureIn(error, this.label);
      if (refused) throw refused;
      const reason = thrownMessage(error);
      throw new McpConnectionError('MCP_CONNECTION_FAILED', this.label, `could not connect: ${reason}`, { cause: error });
    }
    if (this.closed) {
      await closeClient(client);
      throw new McpConnectionError('MCP_CONNECTION_CLOSED', this.label, 'the connection was closed while connecting');
    }
    this.client = client;
    return client;
  }

  private async discard(client: Client): Promise<void> {
    if (this.client === client) this.client = undefined;
    await closeClient(client);
  }

  private toError(error: unknown, signal: AbortSignal | undefined): ToolsmithError {
    const reported = reportableError(error);
    if (reported) return reported;
    const refused = authorizationFailureIn(error, this.label);
    if (refused) return refused;
    const label = this.label;
    const reason = thrownMessage(error);
    if (signal?.aborted) return new McpConnectionError('MCP_CANCELLED', label, 'the request was cancelled', { cause: error });
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      return new McpConnectionError('MCP_TIMEOUT', label, `no answer within ${this.options.timeoutMs} ms`, { cause: error });
    }
    if (isSessionLost(error) || isDroppedMidRequest(error)) {
      return new McpConnectionError('MCP_CONNECTION_CLOSED', label, `the session was lost: ${reason}`, { cause: error });
    }
    if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult) {
      return new McpConnectionError('MCP_PROTOCOL_ERROR', label, `the server sent a result that is not valid MCP: ${reason}`, { cause: error });
    }
    if (error instanceof ProtocolError) return new McpConnectionError('MCP_PROTOCOL_ERROR', label, reason, { cause: error });
    // A result that fails the SDK's schema comes out as the zod error itself (it has `issues`).
    if (error instanceof Error && Array.isArray((error as { issues?: unknown }).issues)) {
      return new McpConnectionError('MCP_PROTOCOL_ERROR', label, 'the server sent a result that is not valid MCP', { cause: error });
    }
    return new McpConnectionError('MCP_CONNECTION_FAILED', label, reason, { cause: error });
  }
}

/** The one form of a 2026-07-28 request that is the server's confirmation of the call ({@link isConfirmationForm}), with its key; else `undefined`. */
function confirmationOfCall(request: McpInputRequest): { key: string; form: ElicitRequestFormParams } | undefined {
  const keys = Object.keys(request.forms);
  return keys.length === 1 && isConfirmationForm(request.forms[keys[0]]) ? { key: keys[0], form: request.forms[keys[0]] } : undefined;
}

/** The answers that approve a 2026-07-28 request's confirmation of the call ({@link confirmationOfCall}). */
function approvingAnswers(request: McpInputRequest, confirmation: { key: string; form: ElicitRequestFormParams }): McpInputAnswers {
  const responses: Record<string, ElicitResult> = { [confirmation.key]: { action: 'accept', content: approvingContent(confirmation.form) } };
  return request.requestState === undefined ? { responses } : { responses, requestState: request.requestState };
}

/** The SDK's negotiation mode for each {@link McpProtocolChoice}. */
const VERSION_NEGOTIATION = { auto: 'auto', '2025-11-25': 'legacy', '2026-07-28': { pin: '2026-07-28' } } as const;

/**
 * The largest message read from a stdio server: a result whose files reach the default file limit, in
 * base64, plus room for the rest. The SDK's own default (10 MiB) would end the connection on about
 * 7.5 MiB of files, long before the runner's limit (`TOOL_FILES_TOO_LARGE`) could say so.
 */
const STDIO_MAX_MESSAGE_BYTES = Math.ceil(DEFAULT_MAX_TOOL_FILE_BYTES / 3) * 4 + 8 * 1024 * 1024;

/** Builds the transport factory and label of a stdio server. */
export function stdioTransport(options: McpStdioTransportOptions): Pick<McpConnectionOptions, 'label' | 'identity' | 'createTransport'> {
  return {
    // Errors reach the model and the stored events: the command's name only, never its path, arguments or environment.
    label: `stdio:${options.command.split(/[\\/]/).pop() || 'server'}`,
    identity: `stdio:${[options.command, ...(options.args ?? [])].join(' ')}`, // as the label was: the same session ids as before
    createTransport: () =>
      new StdioClientTransport({
        command: options.command,
        args: options.args,
        env: options.env ? { ...getDefaultEnvironment(), ...options.env } : undefined,
        cwd: options.cwd,
        stderr: options.stderr ?? 'inherit',
        maxBufferSize: STDIO_MAX_MESSAGE_BYTES,
      }),
  };
}

/** Builds the transport factory and label of a Streamable HTTP server. */
export function httpTransport(endpoint: McpHttpEndpoint): Pick<McpConnectionOptions, 'label' | 'createTransport'> {
  return {
    label: `${endpoint.url.origin}${endpoint.url.pathname}`,
    createTransport: () =>
      new StreamableHTTPClientTransport(endpoint.url, {
        requestInit: { headers: endpoint.headers },
        ...(endpoint.fetch ? { fetch: endpoint.fetch((input, init) => fetch(input, init)) } : {}),
        // A 403 insufficient_scope comes back as an error: the toolset asks the user for the wider scope through the run's pause.
        ...(endpoint.authProvider ? { authProvider: endpoint.authProvider, onInsufficientScope: 'throw' as const } : {}),
      }),
  };
}

/**
 * The `MCP_AUTHORIZATION_FAILED` error an auth provider threw during a request, however the SDK wrapped
 * it; or one for a server that answered `401` again to the token it was just given.
 */
function authorizationFailureIn(error: unknown, label: string): McpConnectionError | undefined {
  for (let current = error, depth = 0; current && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof McpConnectionError && current.code === 'MCP_AUTHORIZATION_FAILED') return current;
    if (current instanceof SdkHttpError && current.code === SdkErrorCode.ClientHttpAuthentication) {
      return new McpConnectionError('MCP_AUTHORIZATION_FAILED', label, 'the server refused the token it was just given (401 again)', { cause: current });
    }
    // (A toolset that asks its user finds the challenge in the cause chain and asks for the wider scope.)
    if (InsufficientScopeError.isInstance(current)) {
      const scope = current.requiredScope ? ` "${current.requiredScope}"` : '';
      return new McpConnectionError('MCP_AUTHORIZATION_FAILED', label, `the server refused the token for lack of scope${scope} (403 insufficient_scope)`, { cause: current });
    }
  }
  return undefined;
}

/** The session is gone: the transport closed, or the HTTP server no longer knows the session id. */
function isSessionLost(error: unknown): boolean {
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) return true;
  return isNotDelivered(error);
}

/** The socket closed under the request while it was out (the server died or the link dropped). */
function isDroppedMidRequest(error: unknown): boolean {
  // fetch's TypeError ("fetch failed", maybe wrapped by the SDK) names the socket's failure in its causes.
  // (Not `instanceof Error`: fetch's errors may come from another realm.)
  let cause = error as { cause?: unknown; code?: unknown } | undefined;
  for (let depth = 0; typeof cause === 'object' && cause !== null && depth < 4; cause = cause.cause as typeof cause, depth++) {
    const code = cause.code;
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return true;
  }
  return false;
}

/** The request never reached a live session, so the server cannot have acted on it. */
function isNotDelivered(error: unknown): boolean {
  if (error instanceof SdkHttpError) return error.status === 404;
  return error instanceof SdkError && error.code === SdkErrorCode.NotConnected;
}

async function closeClient(client: Client): Promise<void> {
  client.onclose = undefined;
  const transport = client.transport;
  // Tell an HTTP server the session is over (it may answer 405; either way we are done with it).
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
    await transport.terminateSession().catch(() => undefined);
  }
  await client.close().catch(() => undefined);
}
