import { type EventActions, type FunctionResponse, StatePrefix } from '@toolsmith/core';
import type { McpStateStore } from './mcp-state-store';

/**
 * Session state of tools served over MCP, kept in memory for the life of the server: `app:` keys are
 * shared by every session, `user:` keys by the sessions of one user, other keys belong to one MCP
 * session, and `temp:` keys last for one call only.
 */
export class McpSessionState implements McpStateStore {
  private readonly app: Record<string, unknown> = {};
  /** Used single-use ids (user and id as JSON) → until when they are kept. */
  private readonly used = new Map<string, number>();
  private readonly users = new Map<string, Record<string, unknown>>();
  // Session id → user → values: a 2026-07-28 client names its own session, so one id may be two users' sessions.
  private readonly sessions = new Map<string, Map<string, Record<string, unknown>>>();

  /** Implements {@link McpStateStore.values}: app, user and session keys merged, in a fresh object. */
  values(userId: string, sessionId: string): Record<string, unknown> {
    return { ...this.app, ...this.user(userId), ...this.session(userId, sessionId) };
  }

  /** Stores a call's state delta with the scope rules above (`null` deletes). */
  apply(userId: string, sessionId: string, delta: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(delta)) {
      if (key.startsWith(StatePrefix.TEMP)) continue;
      const scope = key.startsWith(StatePrefix.APP)
        ? this.app
        : key.startsWith(StatePrefix.USER)
          ? this.user(userId)
          : this.session(userId, sessionId);
      if (value === null) delete scope[key];
      else scope[key] = value;
    }
  }

  /** Implements {@link McpStateStore.record}: applies the call's state delta (the call itself is not kept). */
  record(userId: string, sessionId: string, _response: FunctionResponse, actions: EventActions): void {
    this.apply(userId, sessionId, actions.stateDelta);
  }

  /** Implements {@link McpStateStore.consumeOnce} in this process's memory (ids are forgotten once expired). */
  consumeOnce(userId: string, id: string, expiresAt: number): boolean {
    const now = Date.now();
    for (const [used, until] of this.used) if (until <= now) this.used.delete(used);
    const key = JSON.stringify([userId, id]);
    if (this.used.has(key)) return false;
    this.used.set(key, expiresAt);
    return true;
  }

  /** Implements {@link McpStateStore.endSession}: forgets the session's own keys (of `userId` only, when given). */
  endSession(sessionId: string, userId?: string): void {
    if (userId === undefined) {
      this.sessions.delete(sessionId);
      return;
    }
    const users = this.sessions.get(sessionId);
    users?.delete(userId);
    if (users?.size === 0) this.sessions.delete(sessionId);
  }

  private user(userId: string): Record<string, unknown> {
    let values = this.users.get(userId);
    if (!values) this.users.set(userId, (values = {}));
    return values;
  }

  private session(userId: string, sessionId: string): Record<string, unknown> {
    let users = this.sessions.get(sessionId);
    if (!users) this.sessions.set(sessionId, (users = new Map()));
    let values = users.get(userId);
    if (!values) users.set(userId, (values = {}));
    return values;
  }
}
