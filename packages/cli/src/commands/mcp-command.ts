import { serveModuleOverStdio } from '@toolsmith/mcp';
import { CliUsageError } from '../cli-errors';
import type { CliIo } from '../cli-io';

/** Usage text of `toolsmith mcp`. */
export const MCP_USAGE = `Usage: toolsmith mcp <module>

Serves the toolsets a module exports (@Toolset classes, toolsets, tools, and an exported \`providers\`
array for their dependencies) as an MCP server over stdio, until the client disconnects.
A .ts module is loaded through ts-node when it is installed.
`;

/** Options of `toolsmith mcp`, parsed from the command line. */
export interface McpCommandOptions {
  /** Path of the module, relative to the working directory. */
  module: string;
}

/** Parses `toolsmith mcp`'s arguments; throws {@link CliUsageError} unless there is exactly one module path. */
export function parseMcpArgs(argv: readonly string[]): McpCommandOptions {
  const unknown = argv.find((arg) => arg.startsWith('-'));
  if (unknown) throw new CliUsageError(`Unknown option ${unknown} for toolsmith mcp.\n\n${MCP_USAGE}`);
  if (argv.length !== 1) throw new CliUsageError(`toolsmith mcp needs exactly one module path.\n\n${MCP_USAGE}`);
  return { module: argv[0] };
}

/** Serves the module over this process's stdio; resolves with exit code 0 when the client disconnects. */
export async function runMcpCommand(options: McpCommandOptions, io: CliIo): Promise<number> {
  await serveModuleOverStdio(options.module, { cwd: io.cwd });
  return 0;
}
