import type { CallToolResult } from '@modelcontextprotocol/client';
import { type AuthConfig, BaseTool, type JsonSchema, type ToolContext, type ToolResult } from '@toolsmith/core';
import { compileUntrustedSchema } from '@toolsmith/core/internal';
import { mapCallToolResult } from './map-call-tool-result';
import { type McpAuthChallenge, authChallengeOf } from './mcp-auth-challenge';
import type { McpConnection } from './mcp-connection';
import { mcpClientSessionId } from './mcp-client-session-id';
import { McpConnectionError, McpToolError } from './mcp-errors';
import { type McpInputPrompt, inputAnswers, inputPrompt } from './mcp-input-prompt';
import { remotePatternEngine } from './remote-pattern-engine';
import { notifyListener } from './notify-listener';

/** What an MCP server says about one of its tools (the `tools/list` entry). */
export interface McpRemoteTool {
  /** The tool's name on the server. */
  name: string;
  /** A display name for people; used as the tool's description when the server gives no `description`. */
  title?: string;
  /** What the tool does, as the server words it; becomes the tool's description for the model. */
  description?: string;
  /** JSON Schema of the arguments (always `type: "object"`). */
  inputSchema: JsonSchema;
  /** JSON Schema of `structuredContent`, when the server declares one. */
  outputSchema?: JsonSchema;
  /** Hints such as `readOnlyHint` or `destructiveHint`. */
  annotations?: Record<string, unknown>;
}

/** A progress notification a server sent during one of {@link McpToolset}'s calls. */
export interface McpToolProgress {
  /** The server's name of the tool. */
  tool: string;
  /** Work done so far. */
  progress: number;
  /** Total work, when the server knows it. */
  total?: number;
  /** The server's status message. */
  message?: string;
}

/**
 * Called with each progress notification of a call, with the call's context. Nothing waits for it: a
 * throw or a rejected promise is a process warning `TOOLSMITH_MCP_LISTENER_FAILED`, and the call goes on.
 */
export type McpProgressListener = (progress: McpToolProgress, context: ToolContext) => void | Promise<void>;

/**
 * What to do when the server refused a call (`401`, `403 insufficient_scope`): the config to ask the
 * user with, and whether an expired token may first be refreshed (`sign-in`) or the user must be asked
 * (`step-up`). Throws when asking cannot help (the scope is still lacking after the user answered).
 */
export type McpAuthChallengeHandler = (
  challenge: McpAuthChallenge,
  context: ToolContext,
  afterAnswer: boolean,
) => Promise<{ config: AuthConfig; reason: 'legacy' | 'sign-in' | 'step-up' }>;

/**
 * One tool of an MCP server, as a Toolsmith tool. Its arguments are validated against the server's
 * own input schema (by the executor, like any tool's) before the call is sent; the result is mapped
 * by {@link mapCallToolResult}.
 */
export class McpTool extends BaseTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  override readonly responseSchema?: JsonSchema = undefined;
  /** The server's OAuth config when it requires sign-in: the runner checks (or refreshes) the user's token before each call. */
  override readonly auth?: AuthConfig = undefined;

  constructor(
    /** The server's description of the tool. */
    readonly remote: McpRemoteTool,
    /** The name offered to the model (prefixed, made valid). */
    name: string,
    private readonly connection: McpConnection,
    auth?: AuthConfig,
    private readonly onProgress?: McpProgressListener,
    /** For a server that requires OAuth: what to ask the user when the server refuses a call. */
    private readonly onAuthChallenge?: McpAuthChallengeHandler,
  ) {
    super();
    this.name = name;
    this.auth = auth;
    this.description = remote.description ?? remote.title ?? '';
    this.parameters = toCanonicalSchema(remote.inputSchema);
    if (remote.outputSchema) this.responseSchema = toCanonicalSchema(remote.outputSchema);
    // The server's schemas are compiled here, once, with a regular-expression engine that cannot backtrack
    // (the executor's checks then use these validators); an invalid schema throws, and the tool is left out.
    compileUntrustedSchema(this.parameters, remotePatternEngine);
    if (this.responseSchema) compileUntrustedSchema(this.responseSchema, remotePatternEngine);
  }

  /**
   * The error result of a call during which a 2025-era server's question was cancelled because several
   * calls were in flight (see {@link McpCallOutcome}): `MCP_INPUT_CANCELLED`, never the server's "the user
   * rejected the call". A Toolsmith server's `TOOL_CALL_REJECTED` is its reading of the cancel, so it is not
   * passed on (it stays the error's `cause`); any other error of the server is quoted in `details.remote`.
   */
  private cancelledQuestionError(result: CallToolResult, callsInFlight: number): never {
    const remote = remoteError(this.name, result);
    const remoteBody = (remote.details as { remote?: { code?: unknown } } | undefined)?.remote;
    const asRejection = remoteBody?.code === 'TOOL_CALL_REJECTED';
    const asked = `while ${callsInFlight} calls to this server were in flight, one of them asked the person a question, and a 2025-era server does not say which call asks, so McpToolset cancelled the question; nobody rejected the call.`;
    const outcome = asRejection
      ? 'The server took the cancelled question as a rejection and did not run the tool.'
      : 'The server then answered the call with an error (details.remote), which may be its answer to the cancelled question.';
    throw new McpConnectionError(
      'MCP_INPUT_CANCELLED',
      this.connection.label,
      `tool "${this.remote.name}" did not finish: ${asked} ${outcome} To be asked, call the tool again on its own, with no other call to this server at the same time.`,
      { cause: remote, details: asRejection ? { callsInFlight } : { callsInFlight, remote: remoteBody ?? { message: remote.message } } },
    );
  }

  /**
   * Calls the tool on the server; implements {@link BaseTool.run}. A server that asks for the user's
   * input (elicitation, `input_required`) pauses the run with a confirmation request whose payload
   * schema is the server's form; once the person answered, the call is sent again with the answers.
   */
  async run(args: Record<string, unknown>, context: ToolContext): Promise<Record<string, unknown> | ToolResult> {
    try {
      return await this.call(args, context);
    } catch (error) {
      const challenge = this.onAuthChallenge ? authChallengeOf(error) : undefined;
      if (!challenge) throw error;
      // The server refused the call before running it: refresh the token (then call again) or ask the user.
      const { config, reason } = await this.onAuthChallenge!(challenge, context, context.toolConfirmation?.confirmed === true);
      if (reason === 'sign-in' && (await context.getAuthResponse(config))) return this.call(args, context);
      await context.requestCredential(config);
      return {};
    }
  }

  private async call(args: Record<string, unknown>, context: ToolContext): Promise<Record<string, unknown> | ToolResult> {
    const answered = context.toolConfirmation;
    const asked = answered?.request?.payload as McpInputPrompt | undefined;
    const answers = answered?.confirmed && asked?.mcpInput ? inputAnswers(asked, answered.payload) : undefined;
    // The person approved (or edited) this call on a plain confirmation (the server's confirmation of the call,
    // see inputPrompt, whose hint is the server's message): the call is sent again with the arguments they
    // approved, and the server's confirmation of it is answered "approve" if it asks the question they saw
    // (that hint). A credential answer, which approves no call, runs the tool again with no hint.
    const approvedQuestion = answered?.confirmed === true && !asked?.mcpInput ? answered.hint : undefined;
    const tool = this.remote.name;
    const onProgress = this.onProgress;
    const outcome = await this.connection.callTool(
      tool,
      args,
      {
        signal: context.signal,
        sessionId: mcpClientSessionId(this.connection.identity, context),
        ...(onProgress ? { onProgress: (progress: Omit<McpToolProgress, 'tool'>) => notifyListener('onProgress', onProgress, { tool, ...progress }, context) } : {}),
      },
      answers,
      approvedQuestion,
    );
    if (outcome.kind === 'result') return outcome.cancelledQuestion ? this.cancelledQuestionError(outcome.result, outcome.cancelledQuestion.callsInFlight) : mapCallToolResult(this.name, outcome.result);
    if (answered) {
      throw new McpConnectionError('MCP_INPUT_UNSUPPORTED', this.connection.label, `tool "${this.remote.name}" asked for input again after the person answered; McpToolset asks once per call`);
    }
    const prompt = inputPrompt(this.connection.label, this.remote.name, outcome.request);
    context.requestConfirmation(prompt);
    return {};
  }
}

/** Throws the server's error result (an `McpToolError`) so its remote code and message can be quoted. */
function remoteError(name: string, result: CallToolResult): McpToolError {
  try {
    mapCallToolResult(name, result);
  } catch (error) {
    if (error instanceof McpToolError) return error;
    throw error;
  }
  return new McpToolError(name, 'the MCP tool reported an error');
}

/**
 * The server's schema as our canonical one. Servers often declare draft-07 (`$schema`), which the
 * draft 2020-12 validator refuses to load by URI; the keywords tools use mean the same in both.
 */
function toCanonicalSchema(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest.type === undefined ? { type: 'object', ...rest } : rest;
}
