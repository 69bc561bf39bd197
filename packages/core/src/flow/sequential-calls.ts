/**
 * The calls of `sequential` tools, per session and tool, within a process: a call starts only once every
 * earlier call of the same tool on the same session has ended, whatever response or run it came from.
 * "Ended" means the tool's own work, not the call's answer: a call answered by a timeout or an abort
 * while its tool still runs holds the calls behind it until the tool returns or throws. A session and
 * tool with no call in flight has no entry, so idle sessions cost nothing; two sessions share nothing.
 * Across processes nothing is ordered here (each process has its own queues).
 */
export class SequentialCalls {
  /** (app, user, session, tool) → when the last call queued there has ended. */
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Queues a call of `toolName` on the session: `start` runs once every earlier call queued there has
   * ended; the call has ended once `start` settled and then the promise `workAfter()` returns, if any
   * (the tool's work after the call was answered). Resolves or rejects with `start`, never waiting for
   * `workAfter`. `start` should check, when it runs, that its run still wants it (it may have aborted).
   */
  run(appName: string, userId: string, sessionId: string, toolName: string, start: () => Promise<void>, workAfter: () => Promise<void> | undefined): Promise<void> {
    const key = JSON.stringify([appName, userId, sessionId, toolName]);
    const previous = this.tails.get(key);
    const started = previous ? previous.then(start) : start();
    const ended = (): void => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    // Never rejects: a failed call ends its own step, not the calls of other steps queued behind it.
    const tail: Promise<void> = started.then(workAfter, workAfter).then(ended, ended);
    this.tails.set(key, tail);
    return started;
  }

  /** Sessions and tools with a call queued or running (for tests and diagnostics). */
  get busy(): number {
    return this.tails.size;
  }
}
