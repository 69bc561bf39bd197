import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { McpRequestExtra } from './mcp-request-extra';

/** `legacy`: MCP 2025-11-25 and before (an `initialize` handshake, sessions); `modern`: 2026-07-28 (stateless, per-request `_meta`). */
export type McpProtocolEra = 'legacy' | 'modern';

/**
 * The `_meta` key a 2026-07-28 client may send to keep several requests in one Toolsmith session
 * (`ctx.sessionId`, session-scoped state and artifacts): an id the client chooses, such as a
 * conversation id, of 1 to 128 letters, digits and `._:-`. It is scoped to the caller: two users who
 * send the same id have two sessions.
 */
export const MCP_SESSION_META = 'toolsmith/sessionId';

const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Who a request comes from and which Toolsmith session it belongs to. */
export interface McpRequestSession {
  /** The authenticated caller (`authenticate`'s `userId`), else `mcp`. */
  userId: string;
  sessionId: string;
  /** A session made for this one request: its state is dropped when the request ends. */
  ephemeral: boolean;
  /** A 2026-07-28 session the client named in `_meta` (kept, capped and expired as `NamedSessions` says). */
  named?: true;
}

/**
 * The session of a request. Legacy: the MCP session (`Mcp-Session-Id`), or the connection's over stdio.
 * Modern: the id the client sent in `_meta["toolsmith/sessionId"]`, else the connection's over stdio,
 * else a session of this request only. A `_meta` id that is not a string of the allowed form is refused
 * (`-32602`, naming the key), rather than silently splitting the client's state.
 */
export function resolveMcpSession(era: McpProtocolEra, extra: McpRequestExtra, connectionSessionId: string | undefined): McpRequestSession {
  const userId = extra.http?.authInfo?.clientId ?? 'mcp';
  if (era === 'legacy') return { userId, sessionId: extra.sessionId ?? connectionSessionId ?? randomUUID(), ephemeral: false };
  const named = extra.mcpReq._meta?.[MCP_SESSION_META];
  if (named !== undefined) {
    if (typeof named !== 'string' || !SESSION_ID.test(named)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `_meta["${MCP_SESSION_META}"] must be a string of 1 to 128 letters, digits and "._:-" naming the client's conversation; got ${JSON.stringify(named)}.`,
      );
    }
    return { userId, sessionId: named, ephemeral: false, named: true };
  }
  if (connectionSessionId !== undefined) return { userId, sessionId: connectionSessionId, ephemeral: false };
  return { userId, sessionId: randomUUID(), ephemeral: true };
}
