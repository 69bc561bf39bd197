/** The entry that keeps {@link SessionTurns}' map from emptying; never a key of a session. */
const KEPT = Symbol('kept');

/**
 * One invocation per session at a time, within a process: runs on the same session take turns in
 * arrival order. A session with a run in progress has an entry holding the runs waiting behind it; a
 * session whose queue has drained has none, so idle sessions cost nothing and the usual, uncontended
 * run takes its turn without a promise. Across processes the session store's sequence check decides
 * (see `SessionService`): this queue only keeps one process from racing itself.
 */
export class SessionTurns {
  /**
   * Session key → the waiting runs' wake-up functions, in arrival order (present while a run holds the
   * turn; `null` while nobody waits behind it). {@link KEPT} stays in it, so the map never empties: V8
   * makes a map a new table each time its last entry goes, which every run of an idle app paid.
   */
  private readonly waiting = new Map<string | typeof KEPT, Array<() => void> | null>([[KEPT, null]]);

  /** Takes the turn of `key` at once if nobody holds it: the function that releases it, else `undefined`. */
  tryAcquire(key: string): (() => void) | undefined {
    if (this.waiting.has(key)) return undefined;
    this.waiting.set(key, null);
    return this.releaser(key);
  }

  /**
   * Waits until every earlier run on `key` has released its turn. Resolves to the function that
   * releases this turn, or to `undefined` when `signal` aborted first (the run then holds no turn, and
   * the runs behind it no longer wait for it).
   */
  acquire(key: string, signal?: AbortSignal): Promise<(() => void) | undefined> {
    const taken = this.tryAcquire(key);
    if (taken) return Promise.resolve(taken);
    if (signal?.aborted) return Promise.resolve(undefined);
    let queue = this.waiting.get(key);
    if (!queue) this.waiting.set(key, (queue = []));
    return new Promise((resolve) => {
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.releaser(key));
      };
      const onAbort = () => {
        const index = queue.indexOf(wake);
        if (index >= 0) queue.splice(index, 1);
        resolve(undefined);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(wake);
    });
  }

  /** Runs `work` in the turn of `key`: after every earlier holder of `key` has released it, released when `work` settles. */
  async inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
    // Without a signal, acquire always ends with the turn.
    const release = (await this.acquire(key))!;
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Number of sessions with a run in progress or queued (for tests and diagnostics). */
  get busySessions(): number {
    return this.waiting.size - 1;
  }

  /** A release function that works once (a second call must not hand on someone else's turn). */
  private releaser(key: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(key);
    };
  }

  /** Hands the turn to the next waiting run, or frees the session. */
  private release(key: string): void {
    const queue = this.waiting.get(key);
    const next = queue?.shift();
    if (next) next();
    else this.waiting.delete(key);
  }
}

/** The queue key of a session: unambiguous whatever characters the ids contain (lengths prefix each part). */
export function sessionTurnKey(appName: string, userId: string, sessionId: string): string {
  return `${appName.length}:${appName}${userId.length}:${userId}${sessionId}`;
}
