/** The entry that keeps {@link SessionTurns}' map from emptying; never a session id. */
const KEPT = Symbol('kept');

/** One session's turn while a run holds it: the runs waiting behind it, and the other sessions under its id. */
interface Turn {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  /** The waiting runs' wake-up functions, in arrival order (made when the first one waits). */
  waiting: Array<() => void> | undefined;
  /** The other held turns of sessions with the same session id (other users or apps), a list from the map's entry. */
  previous: Turn | undefined;
  next: Turn | undefined;
}

/**
 * One invocation per session at a time, within a process: runs on the same session take turns in
 * arrival order. A session with a run in progress has an entry holding the runs waiting behind it; a
 * session whose queue has drained has none, so idle sessions cost nothing and the usual, uncontended
 * run takes its turn without a promise. Across processes the session store's sequence check decides
 * (see `SessionService`): this queue only keeps one process from racing itself.
 *
 * A session is named by its three ids (app, user, session), and found by its session id's own string
 * (no key is built per run; another session under the same id, of another user or app, is in a list from
 * the same entry): taking a free turn looks the id up once and adds the turn, and releasing it with
 * nobody waiting removes it, with no lookup.
 */
export class SessionTurns {
  /**
   * Session id → the held turn of the session under it (the first of a list, when sessions of other
   * users or apps share the id). {@link KEPT} stays in it, so the map never empties: V8 makes a map a
   * new table each time its last entry goes, which every run of an idle app paid.
   */
  private readonly turns = new Map<string | typeof KEPT, Turn | undefined>([[KEPT, undefined]]);
  /** Sessions with a held turn. */
  private busy = 0;

  /** Takes the turn of a session at once if nobody holds it: the function that releases it, else `undefined`. */
  tryAcquire(appName: string, userId: string, sessionId: string): (() => void) | undefined {
    const first = this.turns.get(sessionId);
    if (first && find(first, appName, userId)) return undefined;
    const turn: Turn = { appName, userId, sessionId, waiting: undefined, previous: undefined, next: first };
    if (first) first.previous = turn;
    this.turns.set(sessionId, turn);
    this.busy++;
    return this.releaser(turn);
  }

  /**
   * Waits until every earlier run on the session has released its turn. Resolves to the function that
   * releases this turn, or to `undefined` when `signal` aborted first (the run then holds no turn, and
   * the runs behind it no longer wait for it).
   */
  acquire(appName: string, userId: string, sessionId: string, signal?: AbortSignal): Promise<(() => void) | undefined> {
    const taken = this.tryAcquire(appName, userId, sessionId);
    if (taken) return Promise.resolve(taken);
    if (signal?.aborted) return Promise.resolve(undefined);
    // Held (tryAcquire found it).
    const turn = find(this.turns.get(sessionId)!, appName, userId)!;
    const queue = (turn.waiting ??= []);
    return new Promise((resolve) => {
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.releaser(turn));
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

  /** Runs `work` in the session's turn: after every earlier holder has released it, released when `work` settles. */
  async inTurn<T>(appName: string, userId: string, sessionId: string, work: () => Promise<T>): Promise<T> {
    // Without a signal, acquire always ends with the turn.
    const release = (await this.acquire(appName, userId, sessionId))!;
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Number of sessions with a run in progress or queued (for tests and diagnostics). */
  get busySessions(): number {
    return this.busy;
  }

  /** A release function that works once (a second call must not hand on someone else's turn). */
  private releaser(turn: Turn): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(turn);
    };
  }

  /** Hands the turn to the next waiting run, or frees the session. */
  private release(turn: Turn): void {
    const next = turn.waiting?.shift();
    if (next) return next();
    const { previous, next: after } = turn;
    if (after) after.previous = previous;
    if (previous) previous.next = after;
    else if (after) this.turns.set(turn.sessionId, after);
    else this.turns.delete(turn.sessionId);
    this.busy--;
  }
}

/** The turn of the session of `appName` and `userId` in the list from `first`, or `undefined`. */
function find(first: Turn, appName: string, userId: string): Turn | undefined {
  for (let turn: Turn | undefined = first; turn; turn = turn.next) if (turn.userId === userId && turn.appName === appName) return turn;
  return undefined;
}
