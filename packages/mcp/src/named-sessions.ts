import { ProtocolError } from '@modelcontextprotocol/server';

/** The limits of 2026-07-28 sessions a client names in `_meta` (the 2025 sessions' limits, counted apart). */
export interface NamedSessionLimits {
  /** Most named sessions kept at once. */
  maxSessions: number;
  /** Most named sessions of one user kept at once. */
  maxSessionsPerUser: number;
  /** A named session with no request for this long is forgotten (its own state dropped). */
  idleMs: number;
  /** The clock expiry reads. */
  now: () => number;
}

interface NamedSession {
  userId: string;
  sessionId: string;
  lastSeen: number;
  /** Requests of the session in progress: a session is never forgotten while one runs. */
  active: number;
}

/**
 * The sessions 2026-07-28 clients name in `_meta["toolsmith/sessionId"]`, which the protocol never opens
 * or closes: one counts from its first request and is forgotten (`forget`, which drops its own state)
 * after `idleMs` without a request. A request that would open one more than `maxSessions`, or than
 * `maxSessionsPerUser` for its user, first has the idle ones forgotten, then is refused with a JSON-RPC
 * error (`-32000`, as the HTTP endpoint refuses a 2025 session over its caps).
 */
export class NamedSessions {
  private readonly sessions = new Map<string, NamedSession>();

  constructor(
    private readonly limits: NamedSessionLimits,
    private readonly forget: (userId: string, sessionId: string) => void,
  ) {}

  /** A request of the session begins: returns what ends it. Throws the refusal when a new session is over a cap. */
  enter(userId: string, sessionId: string): () => void {
    const key = JSON.stringify([userId, sessionId]);
    let session = this.sessions.get(key);
    if (!session) {
      if (this.sessions.size >= this.limits.maxSessions || this.countOf(userId) >= this.limits.maxSessionsPerUser) this.forgetIdle();
      if (this.sessions.size >= this.limits.maxSessions) {
        throw new ProtocolError(-32000, `Too many open sessions (at most ${this.limits.maxSessions}); try again later, or send a session id in use.`);
      }
      if (this.countOf(userId) >= this.limits.maxSessionsPerUser) {
        throw new ProtocolError(-32000, `Too many open sessions for this user (at most ${this.limits.maxSessionsPerUser}); reuse one, or try again once one has been idle for ${Math.round(this.limits.idleMs / 1000)} s.`);
      }
      session = { userId, sessionId, lastSeen: this.limits.now(), active: 0 };
      this.sessions.set(key, session);
    }
    const entered = session;
    entered.active++;
    entered.lastSeen = this.limits.now();
    return () => {
      entered.active--;
      entered.lastSeen = this.limits.now();
    };
  }

  /** Forgets the sessions idle (no request in progress) for longer than `idleMs`. */
  forgetIdle(): void {
    const cutoff = this.limits.now() - this.limits.idleMs;
    for (const [key, session] of this.sessions) {
      if (session.active > 0 || session.lastSeen >= cutoff) continue;
      this.sessions.delete(key);
      this.forget(session.userId, session.sessionId);
    }
  }

  /** The sessions kept now. */
  get size(): number {
    return this.sessions.size;
  }

  private countOf(userId: string): number {
    let count = 0;
    for (const session of this.sessions.values()) if (session.userId === userId) count++;
    return count;
  }
}
