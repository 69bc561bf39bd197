/** The entry that keeps a {@link SessionTurns}' map from emptying; never a session id. */
const KEPT = Symbol('kept');

/** A session's turn, held by one run (see {@link SessionTurns}). */
export interface SessionTurn {
  /** Hands the turn to the next run waiting on the session, or frees the session. Works once: a second call does nothing (it must not hand on someone else's turn). */
  release(): void;
}

/** What a {@link SessionTurns} holds, shared with its turns (each releases itself). */
interface TurnTable {
  /**
   * Session id → the held turn of the session under it (the first of a list, when sessions of other
   * users or apps share the id). {@link KEPT} stays in it, so the map never empties: V8 makes a map a
   * new table each time its last entry goes, which every run of an idle app paid.
   */
  readonly map: Map<string | typeof KEPT, HeldTurn | undefined>;
  /**
   * One held turn kept out of the map (in no list): a turn taken while it is free goes there, so a
   * process whose runs come one at a time (each in a session of its own, say) takes and frees turns
   * without a map operation. The map holds the turns held besides it.
   */
  single: HeldTurn | undefined;
  /** Sessions with a held turn. */
  busy: number;
}

/**
 * A held turn, which is also the session's entry in its table: the runs waiting behind it, and the other
 * sessions under its id. The turn releases itself, so a run's turn is one object, with no release
 * function made per run. Handed on to a waiting run, the entry becomes a new turn (a new object in this
 * one's place), so this one's `release` then does nothing.
 */
class HeldTurn implements SessionTurn {
  // `declare`: the constructor assigns every field itself (one per run: class-field definitions would
  // define each field, then assign it again).
  declare readonly appName: string;
  declare readonly userId: string;
  declare readonly sessionId: string;
  /** The table it is held in, until it is released (`undefined` from then on). */
  declare table: TurnTable | undefined;
  /** The waiting runs' wake-up functions, in arrival order (made when the first one waits), each given the turn it is handed. */
  declare waiting: Array<(turn: HeldTurn) => void> | undefined;
  /** The other held turns of sessions with the same session id (other users or apps), a list from the map's entry. */
  declare previous: HeldTurn | undefined;
  declare next: HeldTurn | undefined;

  constructor(table: TurnTable, appName: string, userId: string, sessionId: string, waiting: Array<(turn: HeldTurn) => void> | undefined, previous: HeldTurn | undefined, next: HeldTurn | undefined) {
    this.appName = appName;
    this.userId = userId;
    this.sessionId = sessionId;
    this.table = table;
    this.waiting = waiting;
    this.previous = previous;
    this.next = next;
  }

  release(): void {
    const table = this.table;
    if (!table) return;
    this.table = undefined;
    const { previous, next: after, waiting } = this;
    const wake = waiting?.shift();
    if (wake) {
      // Handed on: the entry, its queue and its place (the single one's, or in the map) go to the next run's turn.
      const handed = new HeldTurn(table, this.appName, this.userId, this.sessionId, waiting, previous, after);
      this.waiting = this.previous = this.next = undefined;
      if (table.single === this) table.single = handed;
      else {
        if (after) after.previous = handed;
        if (previous) previous.next = handed;
        else table.map.set(this.sessionId, handed);
      }
      return wake(handed);
    }
    table.busy--;
    if (table.single === this) {
      table.single = undefined;
      return;
    }
    if (after) after.previous = previous;
    if (previous) previous.next = after;
    else if (after) table.map.set(this.sessionId, after);
    else table.map.delete(this.sessionId);
  }
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
 * the same entry). A turn taken while no other is held is kept aside, out of the map, and costs no map
 * operation; one taken while others are held looks the id up once and adds the turn, and releasing it
 * with nobody waiting removes it, with no lookup.
 */
export class SessionTurns {
  private readonly table: TurnTable = { map: new Map<string | typeof KEPT, HeldTurn | undefined>([[KEPT, undefined]]), single: undefined, busy: 0 };

  /** Takes the turn of a session at once if nobody holds it: the turn, else `undefined`. */
  tryAcquire(appName: string, userId: string, sessionId: string): SessionTurn | undefined {
    const table = this.table;
    if (table.busy !== 0 && held(table, appName, userId, sessionId)) return undefined;
    table.busy++;
    if (!table.single) {
      // The usual case, runs that come one at a time: no lookup, and no map operation.
      const turn = new HeldTurn(table, appName, userId, sessionId, undefined, undefined, undefined);
      table.single = turn;
      return turn;
    }
    const first = table.map.get(sessionId);
    const turn = new HeldTurn(table, appName, userId, sessionId, undefined, undefined, first);
    if (first) first.previous = turn;
    table.map.set(sessionId, turn);
    return turn;
  }

  /**
   * Waits until every earlier run on the session has released its turn. Resolves to the turn, or to
   * `undefined` when `signal` aborted first (the run then holds no turn, and the runs behind it no longer
   * wait for it).
   */
  acquire(appName: string, userId: string, sessionId: string, signal?: AbortSignal): Promise<SessionTurn | undefined> {
    const taken = this.tryAcquire(appName, userId, sessionId);
    if (taken) return Promise.resolve(taken);
    if (signal?.aborted) return Promise.resolve(undefined);
    // Held (tryAcquire found it). The queue goes with the entry to each turn it is handed on as.
    const queue = (held(this.table, appName, userId, sessionId)!.waiting ??= []);
    return new Promise((resolve) => {
      const wake = (turn: HeldTurn) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(turn);
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
    const turn = (await this.acquire(appName, userId, sessionId))!;
    try {
      return await work();
    } finally {
      turn.release();
    }
  }

  /** Number of sessions with a run in progress or queued (for tests and diagnostics). */
  get busySessions(): number {
    return this.table.busy;
  }
}

/** The held turn of the session of `appName`, `userId` and `sessionId` in `table`, or `undefined`. */
function held(table: TurnTable, appName: string, userId: string, sessionId: string): HeldTurn | undefined {
  const single = table.single;
  if (single) {
    if (single.sessionId === sessionId && single.userId === userId && single.appName === appName) return single;
    // The single one is the only one held: the map holds none.
    if (table.busy === 1) return undefined;
  }
  for (let turn = table.map.get(sessionId); turn; turn = turn.next) if (turn.userId === userId && turn.appName === appName) return turn;
  return undefined;
}
