import { randomUUID } from 'node:crypto';
import { type CallToolResult, type ClientCapabilities, CLIENT_CAPABILITIES_META_KEY, type InputRequiredResult, inputRequired, LOG_LEVEL_META_KEY, ProtocolError, ProtocolErrorCode, type Tool as McpToolInfo, Server } from '@modelcontextprotocol/server';
import { type ArtifactService, type BaseTool, type ToolErrorExposure, type FunctionResponse, type FunctionResponsePart, type MemoryService, type ReadonlyContext, InvalidArgumentsError, State, type ToolConfirmation, ToolCallRejectedError, ToolContext, ToolsmithError, reportableError, thrownMessage } from '@toolsmith/core';
import { DEFAULT_ARGUMENT_LIMITS, DEFAULT_TOOL_CALL_POLICY, createEventActions, errorResponse, executeToolCall, givenArgumentProblems, wrapResult } from '@toolsmith/core/internal';
import { McpConfirmationUnsupportedError, McpFormUnsupportedError, McpRequestStateError, McpResultTooLargeError } from './mcp-errors';
import { CONFIRMATION_INPUT_KEY, confirmationInputRequest, editsToCallArguments, formInputRequest, readConfirmationInput, readFormInput } from './confirmation-input';
import { type ElicitationSchema, toElicitationSchema } from './elicitation-form';
import type { ConfirmationState, RequestStateSealer } from './mcp-request-state';
import { TOOLSMITH_ERROR_META, toMcpOutputSchema } from './mcp-output-schema';
import type { McpStateStore } from './mcp-state-store';
import { elicitConfirmation } from './elicit-confirmation';
import type { McpRequestExtra } from './mcp-request-extra';
import { type McpProtocolEra, resolveMcpSession } from './mcp-request-session';
import { attachProgressSender, progressReporter } from './report-mcp-progress';
import { offeringParamsProblem } from './offering-params';
import { offeringCapabilities, offeringContext, registerOfferingHandlers, registerSubscriptionHandlers } from './mcp-offerings';
import type { ResourceSubscriptions } from './resource-subscriptions';
import type { NamedSessions } from './named-sessions';
import { collectResourceLinks, resourceLinksOf } from './mcp-resource-link';
import type { ServedOfferings } from './served-offerings';
import { type McpLogLevel, attachLogSender, passesLogLevel } from './send-mcp-log';
import { type McpSamplingRequest, type McpSamplingResult, attachSampler } from './request-mcp-sampling';

/** What one MCP server session needs to serve Toolsmith tools. */
export interface McpToolServerOptions {
  name: string;
  version: string;
  /** `appName` of every tool context. */
  appName: string;
  instructions?: string;
  /** The tools offered in a context (static tools, plus whatever toolsets answer). */
  resolveTools: (context: ReadonlyContext) => Promise<BaseTool[]>;
  /** Resources, resource templates, prompts and completions of the served classes. */
  offerings: ServedOfferings;
  /** Where the tools' state lives between calls. */
  state: McpStateStore;
  /** Who is told of changed resources (2025-11-25 sessions subscribe here). */
  subscriptions: ResourceSubscriptions;
  /** The 2026-07-28 sessions clients name in `_meta`: capped and expired. */
  namedSessions: NamedSessions;
  /** The protocol era this instance serves: `legacy` (2025-11-25 and before, sessions) or `modern` (2026-07-28, stateless). */
  era: McpProtocolEra;
  /** Seals and opens the `requestState` of 2026-07-28 confirmations (one per server, shared by its per-request instances). */
  requestStates: RequestStateSealer;
  /** The session of a connection without session ids (stdio): every request of it that names none is in this session. */
  connectionSessionId?: string;
  /** Interval of the "still running" progress notifications of long-running tools. */
  progressIntervalMs: number;
  /** How long to wait for the user's answer to a confirmation (elicitation). */
  confirmationTimeoutMs: number;
  /** Handed to every tool context, for `ctx.searchMemory`. */
  memoryService?: MemoryService;
  /** Handed to every tool context, for `ctx.saveArtifact` and friends. */
  artifactService?: ArtifactService;
  /** What a thrown error's response says (the runner's `toolErrorExposure`); default `'message'`. */
  toolErrorExposure?: ToolErrorExposure;
}

/**
 * A low-level MCP `Server` whose tools are Toolsmith tools, run through the same executor as the
 * runner uses (parse → validate → confirmation gate → run → wrap). The MCP session is the tool
 * context's session; a confirmation becomes an MCP elicitation; long-running tools send progress.
 */
export function createMcpToolServer(options: McpToolServerOptions): Server {
  const server = new ToolsmithMcpServer(
    { name: options.name, version: options.version },
    { capabilities: { tools: {}, logging: {}, ...offeringCapabilities(options.offerings) }, ...(options.instructions ? { instructions: options.instructions } : {}) },
  );
  // Legacy: one server per MCP session (HTTP) or per process (stdio), so the level the client set is this server's.
  // Modern (2026-07-28): no logging/setLevel; each request carries its level in `_meta`.
  let sessionLogLevel: McpLogLevel | undefined;
  if (options.era === 'legacy') {
    server.setRequestHandler('logging/setLevel', async (request) => {
      sessionLogLevel = request.params.level;
      return {};
    });
  }
  const minimumLogLevel = (extra: McpRequestExtra): McpLogLevel | undefined =>
    options.era === 'modern' ? (extra.mcpReq.envelope as Record<string, unknown> | undefined)?.[LOG_LEVEL_META_KEY] as McpLogLevel | undefined : sessionLogLevel;
  const policy = { ...DEFAULT_TOOL_CALL_POLICY, errorExposure: options.toolErrorExposure ?? DEFAULT_TOOL_CALL_POLICY.errorExposure };
  /** An error response held to the call's result budget, as the executor holds its own (and the runner every one). */
  const refusal = (call: { id: string; name: string }, error: ToolsmithError, tool: BaseTool | undefined) =>
    errorResponse(call, error, tool?.maxResultChars ?? policy.maxResultChars);
  /**
   * Who sends a request and in which session, for the request's life: `done` ends it (a per-request session's
   * state dropped, a named one's request counted out). A named session over a cap is refused here.
   */
  const enterSession = (extra: McpRequestExtra) => {
    const { userId, sessionId, ephemeral, named } = resolveMcpSession(options.era, extra, options.connectionSessionId);
    const leave = named ? options.namedSessions.enter(userId, sessionId) : undefined;
    return {
      userId,
      sessionId,
      done: () => {
        leave?.();
        if (ephemeral) options.state.endSession(sessionId);
      },
    };
  };

  if (options.era === 'legacy') registerSubscriptionHandlers(server, options.offerings, options.subscriptions);
  const connectedOnClose = server.onclose;
  server.onclose = () => {
    connectedOnClose?.();
    options.subscriptions.forget(server);
  };

  registerOfferingHandlers(server, options.offerings, async (extra) => {
    const { userId, sessionId, done } = enterSession(extra);
    try {
      const values = await options.state.values(userId, sessionId);
      return { context: offeringContext({ appName: options.appName, agentName: options.name, userId, sessionId, values, signal: extra.mcpReq.signal }), done };
    } catch (error) {
      done();
      throw error;
    }
  });

  server.setRequestHandler('tools/list', async (_request, extra) => {
    const { userId, sessionId, done } = enterSession(extra);
    try {
      const tools = await options.resolveTools(readonlyContext(options, userId, sessionId, await options.state.values(userId, sessionId)));
      return { tools: tools.map(describeTool) };
    } finally {
      done();
    }
  });

  server.setRequestHandler('tools/call', async (request, extra) => {
    const { userId, sessionId, done } = enterSession(extra);
    try {
      return await callTool(request.params, extra, userId, sessionId);
    } finally {
      done();
    }
  });

  /**
   * The answer a 2026-07-28 retry carries: its requestState checked (ours, unexpired, this user, tool and
   * arguments) and used up, then the decision read. Approve and edit run the tool (edit with the person's
   * arguments, validated as any); reject and respond answer without running it.
   */
  const readAnsweredConfirmation = async (
    echoed: string,
    extra: McpRequestExtra,
    userId: string,
    call: { id: string; name: string; args: Record<string, unknown> },
    tool: BaseTool | undefined,
    checkContext: () => ToolContext,
  ): Promise<{ confirmation: ToolConfirmation } | { response: FunctionResponse; record: boolean }> => {
    let state: ConfirmationState;
    try {
      // An edit to the very arguments the retry carries may differ from the asked ones (the client sent the edited call).
      const editing = editsToCallArguments(extra.mcpReq.inputResponses, call.args);
      state = options.requestStates.open(echoed, { userId, tool: call.name, args: editing ? undefined : call.args }, Date.now());
      if (editing && state.payloadSchema !== undefined) {
        throw new McpRequestStateError('MCP_REQUEST_STATE_MISMATCH', call.name, 'it was issued for other arguments (a form is answered, not edited)');
      }
    } catch (error) {
      if (error instanceof McpRequestStateError) return { response: refusal(call, error, tool), record: false };
      throw error;
    }
    const replayed = () => ({ response: refusal(call, new McpRequestStateError('MCP_REQUEST_STATE_REPLAYED', call.name, 'this answer was already accepted once'), tool), record: false });
    if (state.payloadSchema !== undefined) {
      // A form: its content (checked against the whole payloadSchema) is the confirmation's payload.
      const filled = readFormInput(call.id, extra.mcpReq.inputResponses, { ...state, payloadSchema: state.payloadSchema, confirmed: false });
      if (filled instanceof ToolsmithError) return { response: refusal(call, filled, tool), record: false };
      if (!(await options.state.consumeOnce(userId, state.nonce, state.expiresAt))) return replayed();
      if (!filled.confirmed) return { response: refusal(call, new ToolCallRejectedError(call.name), tool), record: true };
      return { confirmation: filled };
    }
    // Not editable: an edit is refused here (whatever arguments the retry carries), before the state is used up and before anything runs.
    const decision = readConfirmationInput(call.id, extra.mcpReq.inputResponses, call.args, state.editable !== false);
    if (decision instanceof ToolsmithError) return { response: refusal(call, decision, tool), record: false };
    if (decision.decision === 'edit' && decision.args && tool) {
      // A bad edit is refused before the state is used up: the person may answer again (as the runner keeps a request open).
      const checked = await givenArgumentProblems(tool, decision.args, DEFAULT_ARGUMENT_LIMITS, checkContext);
      if ('problems' in checked) return { response: refusal(call, new InvalidArgumentsError(tool.name, checked.problems), tool), record: false };
    }
    if (!(await options.state.consumeOnce(userId, state.nonce, state.expiresAt))) return replayed();
    if (decision.decision === 'reject') return { response: refusal(call, new ToolCallRejectedError(call.name, decision.message), tool), record: true };
    if (decision.decision === 'respond') return { response: { id: call.id, name: call.name, response: wrapResult(decision.result) }, record: true };
    if (decision.decision === 'edit' && decision.args) call.args = decision.args;
    const confirmation: ToolConfirmation = { confirmed: true };
    if (state.hint !== undefined) confirmation.hint = state.hint;
    const payload = decision.payload ?? state.payload;
    if (payload !== undefined) confirmation.payload = payload;
    return { confirmation };
  };

  const callTool = async (params: { name: string; arguments?: Record<string, unknown> }, extra: McpRequestExtra, userId: string, sessionId: string): Promise<CallToolResult | InputRequiredResult> => {
    const request = { params };
    const call = { id: `mcp-${String(extra.mcpReq.id)}`, name: request.params.name, args: request.params.arguments ?? {} };
    // One read of the state serves the listing and the call (a store read may be a round trip).
    const values = await options.state.values(userId, sessionId);
    let tools: BaseTool[];
    try {
      tools = await options.resolveTools(readonlyContext(options, userId, sessionId, values));
    } catch (thrown) {
      // A toolset that cannot answer fails this call, not the server.
      const reason = thrownMessage(thrown);
      const error = reportableError(thrown) ?? new ToolsmithError('MCP_TOOLS_UNAVAILABLE', `The tools could not be listed: ${reason}`, { cause: thrown });
      return toCallToolResult(refusal(call, error, undefined), undefined, []);
    }
    const tool = tools.find((candidate) => candidate.name === call.name);
    const progress = progressReporter(extra, tool?.isLongRunning === true, options.progressIntervalMs);

    const toolContext = (state: Record<string, unknown>, toolConfirmation?: ToolConfirmation) => {
      const actions = createEventActions();
      return new ToolContext({
        functionCallId: call.id,
        invocationId: randomUUID(),
        agentName: options.name,
        appName: options.appName,
        userId,
        sessionId,
        state: new State(state, actions.stateDelta),
        actions,
        signal: extra.mcpReq.signal,
        toolConfirmation,
        memoryService: options.memoryService,
        artifactService: options.artifactService,
      });
    };
    const attempt = async (state: Record<string, unknown>, toolConfirmation?: ToolConfirmation) => {
      const context = toolContext(state, toolConfirmation);
      if (progress) attachProgressSender(context, progress.report);
      collectResourceLinks(context);
      attachLogSender(context, async (message) => {
        if (!passesLogLevel(message.level, minimumLogLevel(extra))) return false;
        await extra.mcpReq.notify({ method: 'notifications/message', params: { level: message.level, logger: message.logger ?? call.name, data: message.data } });
        return true;
      });
      attachSampler(context, (request) => sampleClientModel(options.era, clientCapabilities(server, extra), extra, call.name, request, options.confirmationTimeoutMs));
      const outcome = await executeToolCall({
        call,
        tool,
        availableToolNames: () => tools.map((t) => t.name),
        context,
        policy,
        // As in the runner and invokeTool: a result cut to the budget is saved whole when there is somewhere to keep it.
        saveWholeResults: options.artifactService !== undefined,
      });
      return { outcome, context };
    };

    try {
      // 2026-07-28: a call that carries a requestState is the retry of a confirmation (input_required).
      let confirmation: ToolConfirmation | undefined;
      const echoed = options.era === 'modern' ? extra.mcpReq.requestState() : undefined;
      if (typeof echoed === 'string') {
        const answered = await readAnsweredConfirmation(echoed, extra, userId, call, tool, () => toolContext(values));
        if ('response' in answered) {
          if (answered.record) await options.state.record(userId, sessionId, answered.response, createEventActions());
          return toCallToolResult(answered.response, tool, []);
        }
        confirmation = answered.confirmation;
      }
      let { outcome, context } = await attempt(values, confirmation);
      if (outcome.confirmationRequested) {
        const requested = context.actions.requestedToolConfirmations?.[call.id] ?? { confirmed: false };
        if (!clientCapabilities(server, extra)?.elicitation) {
          return toCallToolResult(refusal(call, new McpConfirmationUnsupportedError(call.name), tool), tool, []);
        }
        // A form the tool asked for is checked before anyone is asked: one MCP cannot show refuses the call.
        let form: ElicitationSchema | undefined;
        if (requested.payloadSchema !== undefined) {
          try {
            form = toElicitationSchema(call.name, requested.payloadSchema);
          } catch (error) {
            if (error instanceof McpFormUnsupportedError) return toCallToolResult(refusal(call, error, tool), tool, []);
            throw error;
          }
        }
        if (options.era === 'modern') {
          // No server-sent requests in this era: the client asks its user and retries the call with the answer.
          const requestState = options.requestStates.seal({
            userId,
            tool: call.name,
            args: call.args,
            ...(requested.hint !== undefined ? { hint: requested.hint } : {}),
            ...(requested.payload !== undefined ? { payload: requested.payload } : {}),
            ...(requested.payloadSchema !== undefined ? { payloadSchema: requested.payloadSchema } : {}),
            ...(requested.editable === false ? { editable: false as const } : {}),
            ttlMs: options.confirmationTimeoutMs,
            now: Date.now(),
          });
          const input = form ? formInputRequest(call.name, requested, form) : confirmationInputRequest(call.name, call.args, requested);
          return inputRequired({ inputRequests: { [CONFIRMATION_INPUT_KEY]: input }, requestState });
        }
        const answered = await elicitConfirmation(extra, call, requested, form, options.confirmationTimeoutMs);
        if (answered instanceof ToolsmithError) return toCallToolResult(refusal(call, answered, tool), tool, []);
        // The user may have taken minutes to answer: the call runs on the state as it is now.
        const current = await options.state.values(userId, sessionId);
        ({ outcome, context } = await attempt(current, answered));
      }
      await options.state.record(userId, sessionId, outcome.response, context.actions);
      // A result that breaks the tool's output schema was already refused by the executor (TOOL_OUTPUT_INVALID);
      // one cut to the budget would break it too (clients check structured content), so it is answered as too large.
      const cut = tool && toMcpOutputSchema(tool.declaration().response) ? cutResult(outcome.response) : undefined;
      const response = cut ? refusal(call, new McpResultTooLargeError(call.name, cut.originalChars, tool!.maxResultChars ?? policy.maxResultChars, cut.artifact), tool) : outcome.response;
      return toCallToolResult(response, tool, resourceLinksOf(context));
    } finally {
      progress?.stop();
    }
  };

  return server;
}

/**
 * The SDK's `Server`, except that the params of a request for a resource, prompt or completion are
 * checked before the SDK's own check, which answers a wrong type with `-32603` and a raw schema dump:
 * here it is `-32602` (invalid params) with one sentence.
 */
class ToolsmithMcpServer extends Server {
  protected override _wrapHandler(method: string, handler: Parameters<Server['_wrapHandler']>[1]): ReturnType<Server['_wrapHandler']> {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      const problem = offeringParamsProblem(method, request.params);
      if (problem !== undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${problem}`);
      return wrapped(request, ctx);
    };
  }
}

/** What the client declared it can do: in the request's `_meta` (2026-07-28), else at `initialize`. */
function clientCapabilities(server: Server, extra: McpRequestExtra): ClientCapabilities | undefined {
  const declared = (extra.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return declared ?? server.getClientCapabilities();
}

/** Asks the client's model (`sampling/createMessage`) for a served tool; typed errors when it cannot or does not answer. */
async function sampleClientModel(era: McpProtocolEra, capabilities: ClientCapabilities | undefined, extra: McpRequestExtra, toolName: string, request: McpSamplingRequest, timeoutMs: number) {
  if (era === 'modern') {
    throw new ToolsmithError(
      'MCP_SAMPLING_UNSUPPORTED',
      `Tool "${toolName}" asked the client's model (MCP sampling), but this client speaks MCP 2026-07-28, where a server cannot send requests of its own.`,
    );
  }
  if (!capabilities?.sampling) {
    throw new ToolsmithError(
      'MCP_SAMPLING_UNSUPPORTED',
      `Tool "${toolName}" asked the client's model (MCP sampling), but this MCP client does not declare the "sampling" capability.`,
    );
  }
  try {
    // The SDK types the answer to a request with `tools` too; McpSamplingRequest sends none, so the answer is plain.
    return (await extra.mcpReq.send({ method: 'sampling/createMessage', params: request }, { timeout: timeoutMs })) as McpSamplingResult;
  } catch (error) {
    const reason = thrownMessage(error);
    throw new ToolsmithError('MCP_SAMPLING_FAILED', `Tool "${toolName}" asked the client's model (MCP sampling), which did not answer: ${reason}`, { cause: error });
  }
}

function readonlyContext(options: McpToolServerOptions, userId: string, sessionId: string, values: Record<string, unknown>): ReadonlyContext {
  return {
    appName: options.appName,
    userId,
    sessionId,
    invocationId: randomUUID(),
    agentName: options.name,
    // State writes go to its delta, never to `values`: the call's own State can share them.
    state: new State(values, {}),
  };
}

/**
 * The `tools/list` entry of a tool: its declaration (with the long-running note), canonical schema and,
 * when its response schema can be promised, an `outputSchema`.
 */
function describeTool(tool: BaseTool): McpToolInfo {
  const declaration = tool.declaration();
  const outputSchema = toMcpOutputSchema(declaration.response);
  return {
    name: declaration.name,
    description: declaration.description,
    inputSchema: declaration.parameters as McpToolInfo['inputSchema'],
    ...(outputSchema ? { outputSchema } : {}),
  };
}


/** The executor's stand-in for a result over the budget (`{ truncated, originalChars, head, tail, note, artifact? }`), if the response is one. */
function cutResult(response: FunctionResponse): { originalChars: number; artifact?: string } | undefined {
  if (response.isError) return undefined;
  const body = response.response as { truncated?: unknown; originalChars?: unknown; note?: unknown; artifact?: unknown };
  if (body.truncated !== true || typeof body.originalChars !== 'number' || typeof body.note !== 'string') return undefined;
  return typeof body.artifact === 'string' ? { originalChars: body.originalChars, artifact: body.artifact } : { originalChars: body.originalChars };
}

/**
 * Success: the response object as structured content (and as JSON text for clients that read text),
 * then the files the tool returned (see {@link toMcpFileContent}) and the resource links it added.
 * Failure: the message as text and the error body as structured content, except for a tool with an
 * `outputSchema`: clients check any structured content against it, errors too, so there the body
 * goes in `_meta` under {@link TOOLSMITH_ERROR_META}.
 */
function toCallToolResult(response: FunctionResponse, tool: BaseTool | undefined, links: CallToolResult['content']): CallToolResult {
  if (!response.isError) {
    const files = (response.parts ?? []).map((part, index) => toMcpFileContent(response.id, part, index));
    return { content: [{ type: 'text', text: JSON.stringify(response.response) }, ...files, ...links], structuredContent: response.response };
  }
  const error = response.response.error as { message?: string } | undefined;
  const result: CallToolResult = { isError: true, content: [{ type: 'text', text: error?.message ?? 'The tool failed.' }] };
  if (tool && toMcpOutputSchema(tool.declaration().response)) result._meta = { [TOOLSMITH_ERROR_META]: response.response.error };
  else result.structuredContent = response.response;
  return result;
}


/**
 * A file a tool returned, as MCP content: `image/*` as an image block, `audio/*` as an audio block, any
 * other type as an embedded resource (`blob`) under a `toolsmith://tool-files/<call id>/<name>` URI.
 */
function toMcpFileContent(callId: string, part: FunctionResponsePart, index: number): CallToolResult['content'][number] {
  const { mimeType, data, displayName } = part.inlineData;
  if (mimeType.startsWith('image/')) return { type: 'image', mimeType, data };
  if (mimeType.startsWith('audio/')) return { type: 'audio', mimeType, data };
  const uri = `toolsmith://tool-files/${encodeURIComponent(callId)}/${encodeURIComponent(displayName ?? `file-${index}`)}`;
  return { type: 'resource', resource: { uri, mimeType, blob: data } };
}
