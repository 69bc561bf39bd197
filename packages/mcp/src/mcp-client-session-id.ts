import { createHash } from 'node:crypto';
import type { ReadonlyContext } from '@toolsmith/core';

/**
 * The session id {@link McpToolset} sends a 2026-07-28 server in each request's `_meta`
 * (`toolsmith/sessionId`), so the server keeps one session per conversation: a SHA-256 digest (base64url,
 * 43 characters) of the server, the app, the user and the agent's session. The same conversation sends
 * the same id from any process (a restarted runner resumes the server's session); another user or another
 * session never does, and the id tells the server nothing of the app's own ids. Nobody can compute it
 * without knowing the user's and the session's ids.
 */
export function mcpClientSessionId(server: string, context: ReadonlyContext): string {
  return createHash('sha256').update(JSON.stringify([server, context.appName, context.userId, context.sessionId])).digest('base64url');
}
