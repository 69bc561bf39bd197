/**
 * One invocation per session at a time, within a process: runs on the same session take turns in
 * arrival order. Each waiter chains on the tail of its session's queue; a session whose queue has
 * drained has no entry, so idle sessions cost nothing. Across processes the session store's sequence
 * check decides (see `SessionService`): this queue only keeps one process from racing itself.
 */
export class SessionTurns {
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Waits until every earlier run on `key` has released its turn. Resolves to the function that
   * releases this turn, or to `undefined` when `signal` aborted first (the run then holds no turn;
   * later runs still wait for the earlier ones, never for it).
   */
  async acquire(key: string, signal?: AbortSignal): Promise<(() => void) | undefined> {
    const previous = this.tails.get(key);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const tail = previous ? previous.then(() => released) : released;
    this.tails.set(key, tail);
    // The entry goes once the whole chain up to this turn has drained and nobody queued behind it.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    if (!previous) return release;
    if (await untilSettledOrAborted(previous, signal)) return release;
    release(); // gave up waiting: the turn passes on as soon as `previous` is done
    return undefined;
  }

  /** Number of sessions with a run in progress or queued (for tests and diagnostics). */
  get busySessions(): number {
    return this.tails.size;
  }
}

/** True once `work` settles; false if `signal` aborts first. */
function untilSettledOrAborted(work: Promise<void>, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) return work.then(() => true);
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    });
  });
}

/** The queue key of a session: unambiguous whatever characters the ids contain. */
export function sessionTurnKey(appName: string, userId: string, sessionId: string): string {
  return JSON.stringify([appName, userId, sessionId]);
}
