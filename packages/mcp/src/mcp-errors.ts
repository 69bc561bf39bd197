import { ToolsmithError, type ToolsmithErrorOptions } from '@toolsmith/core';

/** Stable codes of {@link McpConnectionError}. */
export type McpConnectionErrorCode =
  /** The server could not be started or reached, or the MCP handshake failed. */
  | 'MCP_CONNECTION_FAILED'
  /** The server closed the session (exited, crashed, dropped the connection) during a request. */
  | 'MCP_CONNECTION_CLOSED'
  /** The server did not answer within the timeout. */
  | 'MCP_TIMEOUT'
  /** The request was cancelled (the run's signal was aborted). */
  | 'MCP_CANCELLED'
  /** The server answered with a JSON-RPC error or with a result that is not valid MCP. */
  | 'MCP_PROTOCOL_ERROR'
  /** The server asked for input again after the person answered (McpToolset asks once per call), or for input other than a form. */
  | 'MCP_INPUT_UNSUPPORTED'
  /**
   * A 2025-era server asked a question during the call while other calls of the session were in flight,
   * so McpToolset could not tell which call asked and cancelled the question (nobody rejected anything);
   * the server then answered the call with an error.
   */
  | 'MCP_INPUT_CANCELLED'
  /**
   * The server's confirmation of the call the person approved (or edited) asked another question than the
   * one they saw (`details.question`); McpToolset answers no question for the person, so the server ran nothing.
   */
  | 'MCP_CONFIRMATION_CHANGED'
  /** The `headers` function threw or rejected: nothing was sent to the server. */
  | 'MCP_HEADERS_FAILED'
  /** The `toolFilter` function threw or rejected: none of the server's tools is offered. */
  | 'MCP_TOOL_FILTER_FAILED'
  /** OAuth with the server cannot go on: discovery or registration failed, its metadata is unsafe, or it still refuses the user's token after they authorized; or the app's client credentials token request was refused, or the server refused that token. */
  | 'MCP_AUTHORIZATION_FAILED';

/**
 * Talking to an MCP server failed: it could not be started or reached, it crashed, hung past the
 * timeout, or answered with something that is not valid MCP. A tool call that fails this way becomes
 * an error response for the model; the run goes on.
 */
export class McpConnectionError extends ToolsmithError {
  constructor(
    code: McpConnectionErrorCode,
    /** Which server, e.g. `stdio:node` (a stdio server by its command's name only) or `http://127.0.0.1:3000/mcp`. */
    readonly server: string,
    message: string,
    options: ToolsmithErrorOptions = {},
  ) {
    super(code, `MCP server ${server}: ${message}`, options);
  }

  /** The `ToolsmithError` JSON view plus `server`. */
  override toJSON() {
    return { ...super.toJSON(), server: this.server };
  }
}

/**
 * An MCP tool reported a failure (`isError: true`). `message` is `Tool "<toolName>" failed: <reason>`
 * (`reason` is the tool's own error text), so the prefix is never doubled: a `reason` that starts with
 * `The tool failed` (as a Toolsmith `serveMcp`'s does: `The tool failed: <its reason>`, `The tool failed.`)
 * has that start replaced by `Tool "<toolName>" failed`, and one that already starts with
 * `Tool "…" failed: ` (an older Toolsmith server's) is the message as it is. When the server is a
 * Toolsmith `serveMcp`, `details.remote` holds its error `code`, `message` and `details`.
 */
export class McpToolError extends ToolsmithError {
  constructor(toolName: string, reason: string, remote?: unknown) {
    super('MCP_TOOL_ERROR', failedMessage(toolName, reason), remote === undefined ? {} : remoteDetails(reason, remote));
  }
}

/** {@link McpToolError}'s details: `remote`, whose `message` its message states when it is the reason (then the model reads it once). */
function remoteDetails(reason: string, remote: unknown): ToolsmithErrorOptions<{ remote: unknown }> {
  const stated = typeof remote === 'object' && remote !== null && (remote as { message?: unknown }).message === reason;
  return stated ? { details: { remote }, statedDetails: [['remote', 'message']] } : { details: { remote } };
}

/** How a Toolsmith server's error text starts: its message for the model, which does not name the tool. */
const UNNAMED_FAILURE = 'The tool failed';

/** {@link McpToolError}'s message: `Tool "<toolName>" failed: <reason>`, with no second `failed` when the reason says it. */
function failedMessage(toolName: string, reason: string): string {
  if (reason.startsWith(UNNAMED_FAILURE)) return `Tool "${toolName}" failed${reason.slice(UNNAMED_FAILURE.length)}`;
  return /^Tool ".*?" failed: /s.test(reason) ? reason : `Tool "${toolName}" failed: ${reason}`;
}

/**
 * A tool served by `serveMcp` needs the user's confirmation, but the connected MCP client does not
 * support elicitation, so nobody can be asked: the call is refused and the tool does not run.
 */
export class McpConfirmationUnsupportedError extends ToolsmithError {
  constructor(toolName: string) {
    super(
      'MCP_CONFIRMATION_UNSUPPORTED',
      `Tool "${toolName}" requires the user's confirmation, but this MCP client does not support elicitation, ` +
        'so the call was refused and the tool did not run. Use a client that declares the "elicitation" capability.',
    );
  }
}

/**
 * A tool served by `serveMcp` asked for a form (`ctx.requestConfirmation({ payloadSchema })`) that MCP
 * elicitation cannot show: MCP forms are objects of flat string, number, boolean and enum fields. The
 * call is refused and the tool does not run; the message names the field and keyword.
 */
export class McpFormUnsupportedError extends ToolsmithError {
  constructor(toolName: string, reason: string) {
    super(
      'MCP_FORM_UNSUPPORTED',
      `Tool "${toolName}" asked the user to fill in a form that MCP elicitation cannot show: ${reason}. ` +
        'The call was refused and the tool did not run. Fix: give the form flat string, number, boolean or enum fields (see docs/mcp.md).',
    );
  }
}

/** Why a 2026-07-28 confirmation's `requestState` was refused. */
export type McpRequestStateErrorCode = 'MCP_REQUEST_STATE_INVALID' | 'MCP_REQUEST_STATE_EXPIRED' | 'MCP_REQUEST_STATE_REPLAYED' | 'MCP_REQUEST_STATE_MISMATCH';

/**
 * A retried call's `requestState` (the answer to a 2026-07-28 confirmation) was refused: not issued by
 * this server or altered (`MCP_REQUEST_STATE_INVALID`), too old (`MCP_REQUEST_STATE_EXPIRED`), already
 * answered once (`MCP_REQUEST_STATE_REPLAYED`), or issued to another user, tool or arguments
 * (`MCP_REQUEST_STATE_MISMATCH`). The tool did not run.
 */
export class McpRequestStateError extends ToolsmithError {
  constructor(code: McpRequestStateErrorCode, toolName: string, reason: string) {
    super(code, `The confirmation answer for tool "${toolName}" was refused and the tool did not run: ${reason}.`);
  }
}

/**
 * A tool served by `serveMcp` with an `outputSchema` ran, but its result is over the call's result budget
 * (the tool's `maxResultChars`, else 100,000 characters of JSON). Cut to the budget it would not match the
 * output schema, which clients check structured content against, so it is not sent; when the server has an
 * artifact service the whole result is saved (`details.artifact`). `MCP_RESULT_TOO_LARGE`.
 */
export class McpResultTooLargeError extends ToolsmithError {
  constructor(toolName: string, originalChars: number, maxResultChars: number, artifact?: string) {
    super(
      'MCP_RESULT_TOO_LARGE',
      `Tool "${toolName}" failed to send its result: it ran, but the result is ${originalChars} characters of JSON, over the limit of ${maxResultChars}, ` +
        `and cut to the limit it would not match the tool's output schema.${artifact ? ` The whole result is saved as the artifact "${artifact}".` : ''} ` +
        'Ask for less (a narrower query, a page), or raise the tool\'s maxResultChars.',
      { details: artifact ? { originalChars, maxResultChars, artifact } : { originalChars, maxResultChars } },
    );
  }
}
