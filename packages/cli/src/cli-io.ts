/** A stream the CLI writes to; `process.stdout` fits, and so does a test's string collector. */
export interface CliOutput {
  /** Writes `text` as is (the CLI adds its own newlines); the return value is ignored. */
  write(text: string): unknown;
  /** True for a terminal: progress is then redrawn on one line instead of printed line by line. */
  isTTY?: boolean;
}

/** What a command needs from its environment, so commands run the same in a process and in tests. */
export interface CliIo {
  /** Where results go: usage, `--print` output, `--json` events. */
  stdout: CliOutput;
  /** Where progress, warnings, summaries and errors go, so stdout stays clean for piping. */
  stderr: CliOutput;
  /** Directory relative paths are resolved against. */
  cwd: string;
}
