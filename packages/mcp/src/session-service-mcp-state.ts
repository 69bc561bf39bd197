import { type EventActions, Event, type FunctionResponse, type Session, type SessionService, ToolsmithError } from '@toolsmith/core';
import { SessionTurns, createEventActions } from '@toolsmith/core/internal';
import type { McpStateStore } from './mcp-state-store';

/** Appends refused as stale (another process appended first) tried again with the session read anew. */
const STALE_RETRIES = 3;
/** The session ids of used single-use confirmation ids: `mcp-request-state:<id>`. */
const USED_STATE_PREFIX = 'mcp-request-state:';
/** The marker session's state key holding until when it must be kept (ms since the epoch). */
const KEPT_UNTIL_KEY = 'mcpRequestStateExpiresAt';
/** Most expired markers one answer deletes (the rest go with the user's next answers). */
const SWEEP_LIMIT = 100;

/**
 * The state of tools served over MCP in a {@link SessionService}, as the runner keeps it: each MCP
 * session is a session of the store (the server's name as app, the client as user, the MCP session
 * id), created on its first request, and each call appends one event holding its response and its
 * state delta. So `app:` and `user:` keys are shared with agents on the same store, and everything
 * survives a restart of the server (with a durable store such as `PostgresSessionService`).
 */
export class SessionServiceMcpState implements McpStateStore {
  // Parallel calls of one session append one after the other, as runs of one session take turns.
  private readonly turns = new SessionTurns();

  constructor(
    private readonly sessionService: SessionService,
    private readonly appName: string,
    /** The clock expiry reads (tests give their own). */
    private readonly now: () => number = Date.now,
  ) {}

  /** Implements {@link McpStateStore.values}: the session's merged state (the session is created when new). */
  async values(userId: string, sessionId: string): Promise<Record<string, unknown>> {
    return { ...(await this.session(userId, sessionId)).state };
  }

  /** Implements {@link McpStateStore.record}: appends the call as an event of the session, with its state delta. */
  record(userId: string, sessionId: string, response: FunctionResponse, actions: EventActions): Promise<void> {
    return this.turns.inTurn(this.appName, userId, sessionId, () => this.append(userId, sessionId, response, actions));
  }

  /** Implements {@link McpStateStore.endSession}: nothing; the session stays in the store, like an agent's. */
  endSession(): void {}

  /**
   * Implements {@link McpStateStore.consumeOnce}: creating the session `mcp-request-state:<id>` of the user
   * succeeds once; the store refuses a second one (`SESSION_EXISTS`), in any process. The session holds
   * its expiry; once past it (when the state is refused as expired anyway) it is deleted by the user's
   * next accepted answer, up to {@link SWEEP_LIMIT} at a time.
   */
  async consumeOnce(userId: string, id: string, expiresAt: number): Promise<boolean> {
    try {
      await this.sessionService.createSession({ appName: this.appName, userId, sessionId: `${USED_STATE_PREFIX}${id}`, state: { [KEPT_UNTIL_KEY]: expiresAt } });
    } catch (error) {
      if (ToolsmithError.isInstance(error) && error.code === 'SESSION_EXISTS') return false;
      throw error;
    }
    await this.deleteExpiredMarkers(userId, this.now());
    return true;
  }

  /** Deletes the user's used-id sessions whose states have expired (they can no longer be replayed). */
  private async deleteExpiredMarkers(userId: string, now: number): Promise<void> {
    // Ids sort by prefix, so the markers are one run of the user's sessions, from just after the bare prefix.
    const listed = await this.sessionService.listSessions({ appName: this.appName, userId, after: USED_STATE_PREFIX, limit: SWEEP_LIMIT });
    const expired = listed.filter((session) => session.id.startsWith(USED_STATE_PREFIX) && typeof session.state[KEPT_UNTIL_KEY] === 'number' && (session.state[KEPT_UNTIL_KEY] as number) <= now);
    for (const session of expired) await this.sessionService.deleteSession({ appName: this.appName, userId, sessionId: session.id });
  }

  private async append(userId: string, sessionId: string, response: FunctionResponse, callActions: EventActions): Promise<void> {
    const actions = createEventActions();
    actions.stateDelta = { ...callActions.stateDelta };
    actions.artifactDelta = { ...callActions.artifactDelta };
    for (let attempt = 0; ; attempt++) {
      const session = await this.session(userId, sessionId);
      const event = Event.create({
        invocationId: response.id,
        author: this.appName,
        content: { role: 'user', parts: [{ functionResponse: response }] },
        actions,
      });
      try {
        await this.sessionService.appendEvent(session, event);
        return;
      } catch (error) {
        // Another server process appended to the same session first: read it again and retry.
        if (!ToolsmithError.isInstance(error) || error.code !== 'STALE_SESSION' || attempt + 1 >= STALE_RETRIES) throw error;
      }
    }
  }

  /** The session without its events (its state is what calls need), created on first use. */
  private async session(userId: string, sessionId: string): Promise<Session> {
    const key = { appName: this.appName, userId, sessionId };
    const found = await this.sessionService.getSession({ ...key, numRecentEvents: 0 });
    if (found) return found;
    try {
      return await this.sessionService.createSession(key);
    } catch (error) {
      // Two first requests of one session raced: the other created it.
      if (!ToolsmithError.isInstance(error) || error.code !== 'SESSION_EXISTS') throw error;
      const created = await this.sessionService.getSession({ ...key, numRecentEvents: 0 });
      if (!created) throw error;
      return created;
    }
  }
}
