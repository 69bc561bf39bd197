import type { CliIo } from '../cli-io';
import type { DevServerCommandOptions, DevServerRunControl} from './web-command';
import { DEV_SERVER_OPTIONS, parseDevServerArgs, serveDevServer } from './web-command';

/** Usage text of `toolsmith api`. */
export const API_USAGE = `Usage: toolsmith api <module> [--port <n>] [--host <address>] [--memory] [--user <id>] [--manifest <file>] [--evals <file>]

Serves the dev UI's HTTP API without the page, for another frontend: sessions, runs streamed as
Server-Sent Events, answers to confirmations and long-running calls, tools (docs/devtools.md).
Every request must carry the token printed at start as "Authorization: Bearer <token>".

${DEV_SERVER_OPTIONS}`;

/** Parses `toolsmith api`'s arguments (those of `toolsmith web`). */
export function parseApiArgs(argv: readonly string[]): DevServerCommandOptions {
  return parseDevServerArgs(argv, API_USAGE);
}

/** `toolsmith api <module>`: the HTTP/SSE API alone, until the signal aborts. */
export function runApiCommand(options: DevServerCommandOptions, io: CliIo, control: DevServerRunControl): Promise<number> {
  return serveDevServer(options, io, control, false);
}
