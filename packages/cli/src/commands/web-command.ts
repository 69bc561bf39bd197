import type { DevAgentHost, DevServer } from '@toolsmith/devtools';
import { CliUsageError } from '../cli-errors';
import type { CliIo } from '../cli-io';
import { EXIT_OK } from '../exit-codes';

/** Port `toolsmith web` and `toolsmith api` listen on unless `--port` says otherwise. */
export const DEFAULT_DEV_PORT = 4100;

/** The options `toolsmith web` and `toolsmith api` share, as their usage texts list them. */
export const DEV_SERVER_OPTIONS = `Options:
  --port <n>         port to listen on (default ${DEFAULT_DEV_PORT}; 0 picks a free one)
  --host <address>   interface to listen on (default 127.0.0.1; the API runs your tools)
  --memory           keep sessions in memory even when @toolsmith/postgres is installed
  --user <id>        the user the sessions belong to (default dev-user)
  --manifest <file>  the build-time manifest to scan with (default: found from the module's directory)
  --evals <file>     the eval set file the dev UI saves sessions to as cases and runs (default
                     evals/dev.evals.json, relative to the current directory)
`;

/** Usage text of `toolsmith web`. */
export const WEB_USAGE = `Usage: toolsmith web <module> [--port <n>] [--host <address>] [--memory] [--user <id>] [--manifest <file>] [--evals <file>]

Serves a dev UI for the agent a module exports (or the Runner it exports): sessions, a chat with the
live event timeline, approvals, long-running updates and a Tools tab that runs one tool alone.
Sessions are kept in .toolsmith/sessions when @toolsmith/postgres is installed, else in memory.
A .ts module is loaded through ts-node when it is installed. Open the printed URL: it carries a
token made for this launch, without which the API refuses every request (docs/devtools.md, Security).

${DEV_SERVER_OPTIONS}`;

/** Options of `toolsmith web` and `toolsmith api`, parsed from the command line. */
export interface DevServerCommandOptions {
  module: string;
  port: number;
  host: string;
  memory: boolean;
  user?: string;
  manifest?: string;
  /** The dev server's eval set file (`--evals`), relative to the current directory. */
  evals?: string;
}

/** Parses the arguments of `toolsmith web` (and `toolsmith api`, which takes the same); throws {@link CliUsageError}. */
export function parseDevServerArgs(argv: readonly string[], usage = WEB_USAGE): DevServerCommandOptions {
  const rest = [...argv];
  const value = (flag: string): string | undefined => {
    const at = rest.indexOf(flag);
    if (at < 0) return undefined;
    const found = rest[at + 1];
    if (found === undefined || found.startsWith('--')) throw new CliUsageError(`${flag} needs a value.\n\n${usage}`);
    rest.splice(at, 2);
    return found;
  };
  const portText = value('--port');
  const host = value('--host') ?? '127.0.0.1';
  const user = value('--user');
  const manifest = value('--manifest');
  const evals = value('--evals');
  const memoryAt = rest.indexOf('--memory');
  if (memoryAt >= 0) rest.splice(memoryAt, 1);
  const port = portText === undefined ? DEFAULT_DEV_PORT : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliUsageError(`--port must be a port number (0–65535), not ${portText}.\n\n${usage}`);
  const unknown = rest.find((arg) => arg.startsWith('-'));
  if (unknown) throw new CliUsageError(`Unknown option ${unknown}.\n\n${usage}`);
  if (rest.length !== 1) throw new CliUsageError(`Pass exactly one module path.\n\n${usage}`);
  return { module: rest[0], port, host, memory: memoryAt >= 0, ...(user ? { user } : {}), ...(manifest ? { manifest } : {}), ...(evals ? { evals } : {}) };
}

/** How long a dev server command runs: until `signal` aborts (Ctrl-C in the terminal). */
export interface DevServerRunControl {
  signal: AbortSignal;
  /** Called once the server listens (tests use it to find the URL). */
  onListening?: (server: DevServer) => void;
}

/** A signal that aborts on Ctrl-C (SIGINT) or SIGTERM: how long `toolsmith web` and `api` serve in a terminal. */
export function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return controller.signal;
}

/** Serves the module's agent with the page (`toolsmith web`) or without it (`toolsmith api`) until the signal aborts. */
export async function serveDevServer(options: DevServerCommandOptions, io: CliIo, control: DevServerRunControl, page: boolean): Promise<number> {
  // Loaded here: the server, esbuild and the page are needed by these commands only.
  const devtools = require('@toolsmith/devtools') as typeof import('@toolsmith/devtools');
  const host: DevAgentHost = await devtools.DevAgentHost.open({
    module: options.module,
    cwd: io.cwd,
    store: options.memory ? 'memory' : 'auto',
    ...(options.user ? { userId: options.user } : {}),
    ...(options.manifest ? { manifest: options.manifest } : {}),
    ...(options.evals ? { evals: options.evals } : {}),
  });
  let server: DevServer;
  try {
    server = await devtools.startDevServer({ host, page, hostname: options.host, port: options.port });
  } catch (error) {
    await host.close();
    throw error;
  }
  const info = host.info();
  io.stdout.write(
    `${page ? 'Toolsmith dev UI' : 'Toolsmith dev API'} for ${info.appName} (agent ${info.agentName}${info.model ? `, model ${info.model}` : ''})\n` +
      (page
        ? `  ${server.pageUrl}\n  (open this URL: it carries this launch's token, which every API request needs)\n`
        : `  ${server.url}/api/\n  token: ${server.token}\n  (send it on every request as "Authorization: Bearer <token>")\n`) +
      `  sessions: ${info.store.description}\n` +
      `  eval cases: ${host.evals.file}\n` +
      'Press Ctrl-C to stop.\n',
  );
  control.onListening?.(server);
  await new Promise<void>((resolve) => {
    if (control.signal.aborted) resolve();
    else control.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  return EXIT_OK;
}

/** `toolsmith web <module>`: the dev UI and its API. */
export function runWebCommand(options: DevServerCommandOptions, io: CliIo, control: DevServerRunControl): Promise<number> {
  return serveDevServer(options, io, control, true);
}
