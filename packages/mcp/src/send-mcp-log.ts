import type { ToolContext } from '@toolsmith/core';

/** MCP log levels, least to most severe (RFC 5424's, as the protocol uses them). */
export const MCP_LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** An MCP log level (see {@link MCP_LOG_LEVELS}). */
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];

/** One log message of a tool call served over MCP. */
export interface McpLogMessage {
  /** Its severity; the client sees it only if it is at or above the level the client set (`logging/setLevel`). */
  level: McpLogLevel;
  /** What to log: a string or any JSON value. */
  data: unknown;
  /** The logger's name. Default: the tool's name. */
  logger?: string;
}

type LogSender = (message: McpLogMessage) => Promise<boolean>;

const senders = new WeakMap<ToolContext, LogSender>();

/**
 * Sends an MCP log notification (`notifications/message`) to the client of the call `context` belongs
 * to, on that call's own stream. Returns `false` (and sends nothing) when the call did not come over
 * MCP or the message is below the level the client set, so tools can call it unconditionally.
 *
 * @example
 * ```ts
 * @Tool()
 * async importRows(@Param('file') file: string, ctx: ToolContext) {
 *   await sendMcpLog(ctx, { level: 'info', data: `importing ${file}` });
 *   // …
 * }
 * ```
 */
export async function sendMcpLog(context: ToolContext, message: McpLogMessage): Promise<boolean> {
  const send = senders.get(context);
  return send ? send(message) : false;
}

/** Connects a call's context to its MCP request's log notifications (used by the MCP tool server). */
export function attachLogSender(context: ToolContext, send: LogSender): void {
  senders.set(context, send);
}

/** Whether a message of `level` passes the minimum a client set (none set: everything passes). */
export function passesLogLevel(level: McpLogLevel, minimum: McpLogLevel | undefined): boolean {
  return minimum === undefined || MCP_LOG_LEVELS.indexOf(level) >= MCP_LOG_LEVELS.indexOf(minimum);
}
