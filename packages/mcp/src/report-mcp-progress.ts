import { ToolContext } from '@toolsmith/core';

/** One progress update of a tool call served over MCP. */
export interface McpProgress {
  /** Work done so far; must grow with each update. */
  progress: number;
  /** Total work, when known. */
  total?: number;
  /** A short human-readable status. */
  message?: string;
}

type ProgressSender = (progress: McpProgress) => Promise<void>;

const senders = new WeakMap<ToolContext, ProgressSender>();

/**
 * Sends an MCP progress notification for the call `context` belongs to. Returns `false` (and sends
 * nothing) when the call did not come over MCP or the client asked for no progress, so tools can call
 * it unconditionally.
 *
 * @example
 * ```ts
 * @Tool({ longRunning: true })
 * async exportTable(@Param('table') table: string, ctx: ToolContext) {
 *   for (let page = 1; page <= pages; page++) {
 *     await copyPage(table, page);
 *     await reportMcpProgress(ctx, { progress: page, total: pages, message: `page ${page}` });
 *   }
 *   return { status: 'done' };
 * }
 * ```
 */
export async function reportMcpProgress(context: ToolContext, progress: McpProgress): Promise<boolean> {
  const send = senders.get(context);
  if (!send) return false;
  await send(progress);
  return true;
}

/** Connects a call's context to its MCP progress token (used by the MCP tool server). */
export function attachProgressSender(context: ToolContext, send: ProgressSender): void {
  senders.set(context, send);
}
