import type { ProgressToken } from '@modelcontextprotocol/server';
import type { ToolContext } from '@toolsmith/core';
import type { McpRequestExtra } from './mcp-request-extra';

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

/**
 * Sends progress notifications for a call whose client asked for them (`_meta.progressToken`). A
 * long-running tool gets a "started" update (0) and then a heartbeat every interval (counting up
 * below 1) until it reports progress itself (with `reportMcpProgress`) or finishes, so clients that
 * reset their timeout on progress keep waiting.
 */
export function progressReporter(extra: McpRequestExtra, isLongRunning: boolean, intervalMs: number) {
  const token: ProgressToken | undefined = extra.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  let last = -1;
  let heartbeat: NodeJS.Timeout | undefined;
  const send = async (update: McpProgress) => {
    // Progress must grow; an update that does not is dropped rather than confusing the client.
    if (!(update.progress > last)) return;
    last = update.progress;
    await extra.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...update } });
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
