import { basename, extname } from 'node:path';
import { ToolsModule, loadToolsModule } from './load-tools-module';
import { serveMcp } from './serve-mcp';

/** Options of {@link serveModuleOverStdio}. */
export interface ServeModuleOptions {
  /** Directory `modulePath` is resolved against. Default: the current directory. */
  cwd?: string;
  /** Server name announced to clients. Default: the module's file name. */
  name?: string;
}

/**
 * Serves the toolsets a module exports (see {@link loadToolsModule}) over this process's stdin/stdout,
 * and resolves when the client ends the session (stdin closes). This is `toolsmith mcp <module>`.
 * stdout carries the protocol, so `console.log` is sent to stderr from here on.
 */
export async function serveModuleOverStdio(modulePath: string, options: ServeModuleOptions = {}): Promise<void> {
  // Anything else written to stdout would corrupt the protocol stream; the module may log at load time.
  const { log, info } = console;
  console.log = console.error;
  console.info = console.error;
  let loaded: ToolsModule;
  try {
    loaded = loadToolsModule(modulePath, options.cwd);
  } catch (error) {
    Object.assign(console, { log, info }); // nothing is served: stdout is the caller's again
    throw error;
  }
  const { tools, providers, memoryService, artifactService } = loaded;
  const handle = await serveMcp({
    tools,
    providers,
    memoryService,
    artifactService,
    transport: 'stdio',
    name: options.name ?? basename(modulePath, extname(modulePath)),
  });
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await handle.close();
}
