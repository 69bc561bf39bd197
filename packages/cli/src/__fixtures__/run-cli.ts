import type { CliIo } from '../cli-io';
import { main } from '../main';

/** Runs the CLI in-process with `argv` in `cwd`, capturing what it writes; resolves to its exit code and output. */
export async function runCli(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: { write: (chunk) => void (stdout += chunk), isTTY: false }, stderr: { write: (chunk) => void (stderr += chunk), isTTY: false }, cwd };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
