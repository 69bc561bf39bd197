import { serveModuleOverStdio } from '@toolsmith/mcp';
import { CliUsageError } from '../cli-errors';
import type { CliIo } from '../cli-io';

/** Usage text of `toolsmith mcp`. */
export const MCP_USAGE = `Usage: toolsmith mcp <module> [--manifest <toolsmith.schema.json>]

Serves the toolsets a module exports (@Toolset classes, toolsets, tools, and an exported \`providers\`
array for their dependencies) as an MCP server over stdio, until the client disconnects.
A .ts module is loaded through ts-node when it is installed.

Options:
  --manifest <file>  the build-time manifest to scan with (default: TOOLSMITH_MANIFEST, else the
                     toolsmith.schema.json found from the module's directory up to its package root)
`;

/** Options of `toolsmith mcp`, parsed from the command line. */
export interface McpCommandOptions {
  /** Path of the module, relative to the working directory. */
  module: string;
  /** Path of the manifest, relative to the working directory. */
  manifest?: string;
}

/** Parses `toolsmith mcp`'s arguments; throws {@link CliUsageError} unless there is exactly one module path. */
export function parseMcpArgs(argv: readonly string[]): McpCommandOptions {
  const rest = [...argv];
  let manifest: string | undefined;
  const at = rest.indexOf('--manifest');
  if (at >= 0) {
    manifest = rest[at + 1];
    if (manifest === undefined || manifest.startsWith('-')) throw new CliUsageError(`--manifest needs a file path.\n\n${MCP_USAGE}`);
    rest.splice(at, 2);
  }
  const unknown = rest.find((arg) => arg.startsWith('-'));
  if (unknown) throw new CliUsageError(`Unknown option ${unknown} for toolsmith mcp.\n\n${MCP_USAGE}`);
  if (rest.length !== 1) throw new CliUsageError(`toolsmith mcp needs exactly one module path.\n\n${MCP_USAGE}`);
  return manifest ? { module: rest[0], manifest } : { module: rest[0] };
}

/** Serves the module over this process's stdio; resolves with exit code 0 when the client disconnects. */
export async function runMcpCommand(options: McpCommandOptions, io: CliIo): Promise<number> {
  await serveModuleOverStdio(options.module, { cwd: io.cwd, ...(options.manifest ? { manifest: options.manifest } : {}) });
  return 0;
}
