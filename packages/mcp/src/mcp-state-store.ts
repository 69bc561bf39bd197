import type { EventActions, FunctionResponse, State } from '@toolsmith/core';

/**
 * Where the state of tools served over MCP lives between calls: in the server's memory
 * (`McpSessionState`) or in a session service (`SessionServiceMcpState`).
 */
export interface McpStateStore {
  /** The state one call (or one listing) sees; its writes go to `delta` until {@link McpStateStore.record}. */
  view(userId: string, sessionId: string, delta: Record<string, unknown>): State | Promise<State>;
  /** Keeps what a finished call did: its state delta, by scope, and (in a session service) the call itself. */
  record(userId: string, sessionId: string, response: FunctionResponse, actions: EventActions): void | Promise<void>;
  /** The MCP session ended. */
  endSession(sessionId: string): void;
}
