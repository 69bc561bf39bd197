/** A stream the CLI writes to; `process.stdout` fits, and so does a test's string collector. */
export interface CliOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** What a command needs from its environment, so commands run the same in a process and in tests. */
export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  /** Directory relative paths are resolved against. */
  cwd: string;
}
