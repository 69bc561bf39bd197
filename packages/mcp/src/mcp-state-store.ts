import type { EventActions, FunctionResponse } from '@toolsmith/core';

/**
 * Where the state of tools served over MCP lives between calls: in the server's memory
 * (`McpSessionState`) or in a session service (`SessionServiceMcpState`).
 */
export interface McpStateStore {
  /** The state a request of the session sees (every scope merged), a copy: a call's writes go to its own delta until {@link McpStateStore.record}. */
  values(userId: string, sessionId: string): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Keeps what a finished call did: its state delta, by scope, and (in a session service) the call itself. */
  record(userId: string, sessionId: string, response: FunctionResponse, actions: EventActions): void | Promise<void>;
  /** The MCP session ended (of every user, or only of `userId`: a 2026-07-28 session id is the client's, per user). */
  endSession(sessionId: string, userId?: string): void;
  /**
   * Marks `id` (a confirmation's single-use id) as used for `userId`: true the first time, false ever
   * after, also across server processes that share the store. Kept at least until `expiresAt` (ms).
   */
  consumeOnce(userId: string, id: string, expiresAt: number): boolean | Promise<boolean>;
}
