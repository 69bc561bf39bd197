import { ToolsmithError, reportableError, thrownMessage } from '@toolsmith/core';
import type { CliIo } from './cli-io';
import { EXIT_ERROR, EXIT_OK } from './exit-codes';
import { CLI_VERSION } from './version';

// Each command's module is loaded when the command runs: `schema` needs the TypeScript compiler and
// `mcp` the MCP SDK, and neither should pay for the other's start-up.
const schemaCommand = () => require('./commands/schema-command') as typeof import('./commands/schema-command');
const mcpCommand = () => require('./commands/mcp-command') as typeof import('./commands/mcp-command');
// `web`, `api` and `run` load @toolsmith/devtools (an HTTP server, and esbuild for the page).
const webCommand = () => require('./commands/web-command') as typeof import('./commands/web-command');
const apiCommand = () => require('./commands/api-command') as typeof import('./commands/api-command');
const runCommand = () => require('./commands/run-command') as typeof import('./commands/run-command');
// `eval` loads @toolsmith/evals and, for the agent module, @toolsmith/devtools.
const evalCommand = () => require('./commands/eval-command') as typeof import('./commands/eval-command');

/** Usage text of the `toolsmith` command. */
export const USAGE = `Usage: toolsmith <command> [options]

Commands:
  schema    generate the build-time schema manifest from TypeScript types and JSDoc
  mcp       serve the toolsets a module exports as an MCP server over stdio
  run       chat with the agent a module exports, in the terminal
  web       serve a dev UI for the agent a module exports (sessions, live events, approvals, tools)
  api       serve the dev UI's HTTP/SSE API without the page
  eval      run an eval set (expected tool calls and answers) against an agent

Run \`toolsmith <command> --help\` for a command's options.
`;

/**
 * Runs the `toolsmith` command line and returns its exit code: 0 success, 1 a `--check` failed, 2 bad
 * usage or a project that cannot be read. Never throws for expected problems: they are written to
 * `io.stderr` as one clear message (with the error's code).
 *
 * @example
 * ```ts
 * const code = await main(['schema', '--check'], { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() });
 * ```
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'schema': {
        const { SCHEMA_USAGE, parseSchemaArgs, runSchemaCommand } = schemaCommand();
        if (rest.includes('--help') || rest.includes('-h')) {
          io.stdout.write(SCHEMA_USAGE);
          return EXIT_OK;
        }
        return runSchemaCommand(parseSchemaArgs(rest), io);
      }
      case 'mcp': {
        const { MCP_USAGE, parseMcpArgs, runMcpCommand } = mcpCommand();
        if (rest.includes('--help') || rest.includes('-h')) {
          io.stdout.write(MCP_USAGE);
          return EXIT_OK;
        }
        return await runMcpCommand(parseMcpArgs(rest), io);
      }
      case 'web': {
        const { WEB_USAGE, interruptSignal, parseDevServerArgs, runWebCommand } = webCommand();
        if (rest.includes('--help') || rest.includes('-h')) {
          io.stdout.write(WEB_USAGE);
          return EXIT_OK;
        }
        return await runWebCommand(parseDevServerArgs(rest), io, { signal: interruptSignal() });
      }
      case 'api': {
        const { API_USAGE, parseApiArgs, runApiCommand } = apiCommand();
        if (rest.includes('--help') || rest.includes('-h')) {
          io.stdout.write(API_USAGE);
          return EXIT_OK;
        }
        return await runApiCommand(parseApiArgs(rest), io, { signal: webCommand().interruptSignal() });
      }
      case 'run': {
        const { RUN_USAGE, parseRunArgs, runRunCommand } = runCommand();
        if (rest.includes('--help') || rest.includes('-h')) {
          io.stdout.write(RUN_USAGE);
          return EXIT_OK;
        }
        return await runRunCommand(parseRunArgs(rest), io, process.stdin);
      }
      case 'eval': {
        const { EVAL_USAGE, parseEvalArgs, runEvalCommand } = evalCommand();
        if (rest.includes('--help') || rest.includes('-h')) {
          io.stdout.write(EVAL_USAGE);
          return EXIT_OK;
        }
        return await runEvalCommand(parseEvalArgs(rest), io);
      }
      case '--version':
      case '-v':
        io.stdout.write(`${CLI_VERSION}\n`);
        return EXIT_OK;
      case undefined:
      case '--help':
      case '-h':
        io.stdout.write(USAGE);
        return command === undefined ? EXIT_ERROR : EXIT_OK;
      default:
        io.stderr.write(`Unknown command ${command}.\n\n${USAGE}`);
        return EXIT_ERROR;
    }
  } catch (error) {
    const reported = reportableError(error);
    if (reported) io.stderr.write(`toolsmith: ${reported.message} [${reported.code}]\n`);
    else if (ToolsmithError.isInstance(error)) io.stderr.write(`toolsmith: ${thrownMessage(error)}\n`);
    else throw error;
    return EXIT_ERROR;
  }
}
