import { basename, dirname, extname, resolve } from 'node:path';
import { useManifest } from '@toolsmith/core';
import { MANIFEST_ENV, findManifest } from '@toolsmith/core/internal';
import { type ToolsModule, loadToolsModule } from './load-tools-module';
import { serveMcp } from './serve-mcp';

/** Options of {@link serveModuleOverStdio}. */
export interface ServeModuleOptions {
  /** Directory `modulePath` is resolved against. Default: the current directory. */
  cwd?: string;
  /** Server name announced to clients. Default: the module's file name. */
  name?: string;
  /**
   * The build-time manifest (`toolsmith.schema.json`) to scan the module's classes with. Default: the
   * one `TOOLSMITH_MANIFEST` names, else the first found from the module's own directory up to its
   * package root (not from this command's install location).
   */
  manifest?: string;
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
    const manifest = options.manifest ? resolve(options.cwd ?? process.cwd(), options.manifest) : manifestNextTo(modulePath, options.cwd);
    if (manifest) useManifest(manifest);
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

/** The manifest found from the served module's directory, unless `TOOLSMITH_MANIFEST` decides. */
function manifestNextTo(modulePath: string, cwd = process.cwd()): string | undefined {
  if (process.env[MANIFEST_ENV]) return undefined; // the scanner reads it (or `off`) itself
  return findManifest(dirname(resolve(cwd, modulePath)));
}
