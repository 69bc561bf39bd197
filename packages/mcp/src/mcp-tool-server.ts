import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResult,
  ElicitResultSchema,
  ListToolsRequestSchema,
  ProgressToken,
  Tool as McpToolInfo,
} from '@modelcontextprotocol/sdk/types.js';
import {
  BaseTool,
  FunctionResponse,
  ReadonlyContext,
  ToolConfirmation,
  ToolContext,
  ToolsmithError,
  createEventActions,
  executeToolCall,
} from '@toolsmith/core';
import { McpConfirmationUnsupportedError } from './mcp-errors';
import { McpSessionState } from './mcp-session-state';
import { McpProgress, attachProgressSender } from './report-mcp-progress';

/** What one MCP server session needs to serve Toolsmith tools. */
export interface McpToolServerOptions {
  name: string;
  version: string;
  /** `appName` of every tool context. */
  appName: string;
  instructions?: string;
  /** The tools offered in a context (static tools, plus whatever toolsets answer). */
  resolveTools: (context: ReadonlyContext) => Promise<BaseTool[]>;
  state: McpSessionState;
  /** Interval of the "still running" progress notifications of long-running tools. */
  progressIntervalMs: number;
  /** How long to wait for the user's answer to a confirmation (elicitation). */
  confirmationTimeoutMs: number;
}

type RequestExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

/**
 * A low-level MCP `Server` whose tools are Toolsmith tools, run through the same executor as the
 * runner uses (parse → validate → confirmation gate → run → wrap). The MCP session is the tool
 * context's session; a confirmation becomes an MCP elicitation; long-running tools send progress.
 */
export function createMcpToolServer(options: McpToolServerOptions): Server {
  const server = new Server(
    { name: options.name, version: options.version },
    { capabilities: { tools: {} }, ...(options.instructions ? { instructions: options.instructions } : {}) },
  );
  // Over stdio there is one session per process and no session id: make one up for the state store.
  const fallbackSessionId = randomUUID();
  const identity = (extra: RequestExtra) => ({
    userId: extra.authInfo?.clientId ?? 'mcp',
    sessionId: extra.sessionId ?? fallbackSessionId,
  });

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const { userId, sessionId } = identity(extra);
    const tools = await options.resolveTools(readonlyContext(options, userId, sessionId));
    return { tools: tools.map(describeTool) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { userId, sessionId } = identity(extra);
    const tools = await options.resolveTools(readonlyContext(options, userId, sessionId));
    const call = { id: `mcp-${String(extra.requestId)}`, name: request.params.name, args: request.params.arguments ?? {} };
    const tool = tools.find((candidate) => candidate.name === call.name);
    const progress = progressReporter(extra, tool?.isLongRunning === true, options.progressIntervalMs);

    const attempt = async (toolConfirmation?: ToolConfirmation) => {
      const actions = createEventActions();
      const context = new ToolContext({
        functionCallId: call.id,
        invocationId: randomUUID(),
        agentName: options.name,
        appName: options.appName,
        userId,
        sessionId,
        state: options.state.view(userId, sessionId, actions.stateDelta),
        actions,
        signal: extra.signal,
        toolConfirmation,
      });
      if (progress) attachProgressSender(context, progress.report);
      const outcome = await executeToolCall({ call, tool, availableToolNames: () => tools.map((t) => t.name), context });
      return { outcome, context };
    };

    try {
      let { outcome, context } = await attempt();
      if (outcome.confirmationRequested) {
        const requested = context.actions.requestedToolConfirmations?.[call.id] ?? { confirmed: false };
        if (!server.getClientCapabilities()?.elicitation) {
          return toCallToolResult(errorResponse(call, new McpConfirmationUnsupportedError(call.name)));
        }
        const confirmed = await askForConfirmation(extra, call.name, requested, options.confirmationTimeoutMs);
        if (typeof confirmed !== 'boolean') return toCallToolResult(errorResponse(call, confirmed));
        ({ outcome, context } = await attempt({ hint: requested.hint, payload: requested.payload, confirmed }));
      }
      options.state.apply(userId, sessionId, context.actions.stateDelta);
      return toCallToolResult(outcome.response);
    } finally {
      progress?.stop();
    }
  });

  return server;
}

function readonlyContext(options: McpToolServerOptions, userId: string, sessionId: string): ReadonlyContext {
  return {
    appName: options.appName,
    userId,
    sessionId,
    invocationId: randomUUID(),
    agentName: options.name,
    state: options.state.view(userId, sessionId, {}),
  };
}

/** The `tools/list` entry of a tool: its declaration (with the long-running note) and canonical schema. */
function describeTool(tool: BaseTool): McpToolInfo {
  const declaration = tool.declaration();
  return {
    name: declaration.name,
    description: declaration.description,
    inputSchema: declaration.parameters as McpToolInfo['inputSchema'],
  };
}

/** Success: the response object as structured content (and as JSON text for clients that read text). */
function toCallToolResult(response: FunctionResponse): CallToolResult {
  if (!response.isError) {
    return { content: [{ type: 'text', text: JSON.stringify(response.response) }], structuredContent: response.response };
  }
  const error = response.response.error as { message?: string } | undefined;
  return {
    isError: true,
    content: [{ type: 'text', text: error?.message ?? 'The tool failed.' }],
    structuredContent: response.response,
  };
}

function errorResponse(call: { id: string; name: string }, error: ToolsmithError): FunctionResponse {
  return { id: call.id, name: call.name, response: { error: { code: error.code, message: error.message } }, isError: true };
}

/**
 * Asks the user through the client (MCP elicitation) whether the call may run. Returns the answer,
 * or the error that kept the question from being answered.
 */
async function askForConfirmation(
  extra: RequestExtra,
  toolName: string,
  requested: ToolConfirmation,
  timeoutMs: number,
): Promise<boolean | ToolsmithError> {
  const payload = requested.payload === undefined ? '' : `\n\nDetails: ${JSON.stringify(requested.payload)}`;
  try {
    const answer = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          message: `${requested.hint ?? `Allow the call to tool "${toolName}"?`}${payload}`,
          requestedSchema: {
            type: 'object',
            properties: { confirmed: { type: 'boolean', title: 'Approve', description: `Run tool "${toolName}"?` } },
            required: ['confirmed'],
          },
        },
      },
      ElicitResultSchema,
      { timeout: timeoutMs },
    );
    return answer.action === 'accept' && answer.content?.confirmed === true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return new ToolsmithError('MCP_CONFIRMATION_FAILED', `Could not ask the user to confirm tool "${toolName}": ${reason}`, {
      cause: error,
    });
  }
}

/**
 * Sends progress notifications for a call whose client asked for them (`_meta.progressToken`). A
 * long-running tool gets a "started" update (0) and then a heartbeat every interval (counting up
 * below 1) until it reports progress itself (with `reportMcpProgress`) or finishes, so clients that
 * reset their timeout on progress keep waiting.
 */
function progressReporter(extra: RequestExtra, isLongRunning: boolean, intervalMs: number) {
  const token: ProgressToken | undefined = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let last = -1;
  let heartbeat: NodeJS.Timeout | undefined;
  const send = async (update: McpProgress) => {
    // Progress must grow; an update that does not is dropped rather than confusing the client.
    if (!(update.progress > last)) return;
    last = update.progress;
    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...update } });
  };
  if (isLongRunning) {
    const started = Date.now();
    void send({ progress: 0, message: 'started' }).catch(() => undefined);
    let beats = 0;
    heartbeat = setInterval(() => {
      const seconds = Math.round((Date.now() - started) / 1000);
      // 0.5, 0.75, 0.875, …: growing but below 1, so the tool's own first report (1 or more) still grows.
      beats++;
      void send({ progress: 1 - 0.5 ** beats, message: `still running (${seconds}s)` }).catch(() => undefined);
    }, intervalMs);
    heartbeat.unref();
  }
  const stop = () => {
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = undefined;
  };
  return {
    report: async (update: McpProgress) => {
      stop(); // the tool reports for itself from now on
      await send(update);
    },
    stop,
  };
}
