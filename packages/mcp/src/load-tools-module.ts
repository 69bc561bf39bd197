import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ArtifactService, BaseTool, type MemoryService, type Provider, ToolsmithError, isToolset, thrownMessage } from '@toolsmith/core';
import { getToolsetOptions, registerTypeScript } from '@toolsmith/core/internal';
import type { ServedTools } from './resolve-served-tools';

/** What a module offers to serve: its exported toolsets and tools, and its `providers`, `memoryService` and `artifactService` exports. */
export interface ToolsModule {
  /** The exported `@Toolset` classes, toolset instances and tools (named and default exports), each once. */
  tools: ServedTools[];
  /** The module's `providers` export, for the toolset classes' dependencies; `[]` when it exports none. */
  providers: Provider[];
  /** The module's `memoryService` export, for the tools' `ctx.searchMemory`. */
  memoryService?: MemoryService;
  /** The module's `artifactService` export, for the tools' artifact methods. */
  artifactService?: ArtifactService;
}

/** Exports with a meaning of their own, never taken for tools; each with the methods it must have. */
const SERVICE_EXPORTS: Record<string, string[]> = {
  memoryService: ['searchMemory'],
  artifactService: ['saveArtifact', 'loadArtifact', 'listArtifactKeys'],
};

/**
 * Loads a module and collects what it exports to serve: `@Toolset` classes, toolset instances and
 * tools (named exports and the default export), plus an exported `providers` array for the classes'
 * dependencies and, when exported, the `memoryService` and `artifactService` the tools' contexts use. A `.ts` module is loaded through ts-node (transpile only) when it is installed.
 *
 * @throws ToolsmithError `MCP_MODULE_NOT_FOUND`, `MCP_MODULE_LOAD_FAILED` or `MCP_NO_TOOLS_EXPORTED`.
 */
export function loadToolsModule(modulePath: string, cwd = process.cwd()): ToolsModule {
  const file = resolve(cwd, modulePath);
  if (!existsSync(file)) {
    throw new ToolsmithError('MCP_MODULE_NOT_FOUND', `Cannot find module ${file}. Pass the path of a module that exports @Toolset classes.`);
  }
  registerTypeScript(file, (message, cause) => new ToolsmithError('MCP_MODULE_LOAD_FAILED', message, { cause }));

  let exported: Record<string, unknown>;
  try {
    exported = require(file) as Record<string, unknown>;
  } catch (error) {
    const reason = thrownMessage(error);
    throw new ToolsmithError('MCP_MODULE_LOAD_FAILED', `Loading ${file} failed: ${reason}`, { cause: error });
  }

  const tools: ServedTools[] = [];
  const seen = new Set<unknown>();
  for (const [name, value] of Object.entries(exported)) {
    if (name === 'providers' || name in SERVICE_EXPORTS || seen.has(value)) continue;
    seen.add(value);
    if (isServable(value)) tools.push(value);
  }
  if (tools.length === 0) {
    throw new ToolsmithError(
      'MCP_NO_TOOLS_EXPORTED',
      `${file} exports no @Toolset class, toolset or tool. Export them (e.g. \`export class WeatherTools\`) to serve them over MCP.`,
    );
  }
  const providers = exported.providers;
  if (providers !== undefined && !Array.isArray(providers)) {
    throw new ToolsmithError('MCP_MODULE_LOAD_FAILED', `${file} exports \`providers\`, but it is not an array of providers.`);
  }
  const loaded: ToolsModule = { tools, providers: (providers as Provider[] | undefined) ?? [] };
  for (const [name, methods] of Object.entries(SERVICE_EXPORTS)) {
    const service = exported[name] as Record<string, unknown> | undefined;
    if (service === undefined) continue;
    const missing = methods.filter((method) => typeof service?.[method] !== 'function');
    if (missing.length > 0) {
      throw new ToolsmithError('MCP_MODULE_LOAD_FAILED', `${file} exports \`${name}\`, but it has no ${missing.join(', ')} method.`);
    }
    (loaded as unknown as Record<string, unknown>)[name] = service;
  }
  return loaded;
}

function isServable(value: unknown): value is ServedTools {
  if (typeof value === 'function') return getToolsetOptions(value) !== undefined;
  if (typeof value !== 'object' || value === null) return false;
  return value instanceof BaseTool || isToolset(value) || getToolsetOptions(value.constructor) !== undefined;
}
