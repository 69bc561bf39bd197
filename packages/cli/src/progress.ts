/** Where progress lines go, and whether they may be redrawn in place. */
export interface ProgressTarget {
  write(text: string): void;
  /** A terminal: the counter is redrawn on one line. Otherwise a line is printed now and then. */
  isTTY?: boolean;
}

/**
 * Shows what a slow step is doing. Building a TypeScript program blocks the event loop for seconds, so
 * timers cannot tick: the counter is advanced from the compiler host as files are read, and throttled.
 */
export class Progress {
  private started: number;
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly target: ProgressTarget,
    private readonly intervalMs = 200,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** Starts a step: prints its name. */
  step(message: string): void {
    this.finishLine();
    this.started = this.now();
    this.lastDraw = this.started;
    this.target.write(`${message}…\n`);
  }

  /** Reports a count within the current step, at most once per interval (once per 10 intervals when not a terminal). */
  tick(message: string): void {
    const now = this.now();
    const interval = this.target.isTTY ? this.intervalMs : this.intervalMs * 10;
    if (now - this.lastDraw < interval) return;
    this.lastDraw = now;
    const line = `  ${message} (${seconds(now - this.started)})`;
    if (this.target.isTTY) {
      this.target.write(`\r\x1b[2K${line}`);
      this.drawn = true;
    } else this.target.write(`${line}\n`);
  }

  /** Ends the current step with a summary line and its duration. */
  done(message: string): void {
    this.finishLine();
    this.target.write(`  ${message} (${seconds(this.now() - this.started)})\n`);
  }

  private finishLine(): void {
    if (this.drawn) this.target.write('\r\x1b[2K');
    this.drawn = false;
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
