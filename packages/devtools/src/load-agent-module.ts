import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ArtifactService, CredentialService, GrantService, MemoryService, Plugin, Provider } from '@toolsmith/core';
import { BaseAgent, Runner, useManifest, thrownMessage } from '@toolsmith/core';
import { MANIFEST_ENV, findManifest, registerTypeScript } from '@toolsmith/core/internal';
import { AgentModuleError } from './agent-module-error';

/**
 * What a module offers the dev tools: its root agent, or a `Runner` it built itself (then its session
 * store is the runner's), plus the exports a new `Runner` needs.
 */
export interface AgentModule {
  /** The module's file, resolved. */
  file: string;
  /** The root agent (the exported one, or the exported runner's). */
  agent: BaseAgent;
  /** The exported `Runner`, when the module exports one instead of an agent. */
  runner?: Runner;
  /** `appName` export, else the agent's name. */
  appName: string;
  /** `providers` export: dependencies of the agents' `@Toolset` classes. */
  providers: Provider[];
  /** `plugins` export, for the runner. */
  plugins?: Plugin[];
  /** `memoryService` export, for `ctx.searchMemory`. */
  memoryService?: MemoryService;
  /** `artifactService` export, for the tools' artifact methods. */
  artifactService?: ArtifactService;
  /** `credentialService` export: where the credentials tools obtain (`@Tool({ auth })`) are kept. */
  credentialService?: CredentialService;
  /** `grantService` export: where remembered approvals are kept (the one an exported `Runner` was given, for the dev tools to list and revoke). */
  grantService?: GrantService;
}

/** Export names taken to mean "this is the root agent" when a module exports several agents. */
const ROOT_NAMES = ['agent', 'rootAgent', 'root_agent', 'default'];

/**
 * Loads a module the way `toolsmith mcp` does (a `.ts` file through ts-node, the build-time manifest
 * found from the module's directory unless `TOOLSMITH_MANIFEST` decides) and finds what to run: an
 * exported `Runner`, else the root agent. Several agents are fine when one is named `agent`,
 * `rootAgent` or is the default export, or when the others are its sub-agents.
 *
 * @throws AgentModuleError `AGENT_MODULE_NOT_FOUND`, `AGENT_MODULE_LOAD_FAILED` or `NO_AGENT_EXPORTED`.
 */
export function loadAgentModule(modulePath: string, options: { cwd?: string; manifest?: string } = {}): AgentModule {
  const cwd = options.cwd ?? process.cwd();
  const file = resolve(cwd, modulePath);
  if (!existsSync(file)) {
    throw new AgentModuleError('AGENT_MODULE_NOT_FOUND', `Cannot find module ${file}. Pass the path of a module that exports an agent (or a Runner).`);
  }
  const manifest = options.manifest ? resolve(cwd, options.manifest) : process.env[MANIFEST_ENV] ? undefined : findManifest(dirname(file));
  if (manifest) useManifest(manifest);
  registerTypeScript(file, (message, cause) => new AgentModuleError('AGENT_MODULE_LOAD_FAILED', message, cause));

  let exported: Record<string, unknown>;
  try {
    exported = require(file) as Record<string, unknown>;
  } catch (error) {
    const reason = thrownMessage(error);
    throw new AgentModuleError('AGENT_MODULE_LOAD_FAILED', `Loading ${file} failed: ${reason}`, error);
  }

  const runner = pick(file, exported, (value): value is Runner => value instanceof Runner, 'Runner');
  const agent = runner?.agent ?? pick(file, exported, (value): value is BaseAgent => value instanceof BaseAgent, 'agent');
  if (!agent) {
    throw new AgentModuleError(
      'NO_AGENT_EXPORTED',
      `${file} exports no agent and no Runner. Export the root agent (e.g. \`export const agent = new LlmAgent({ … })\`), ` +
        'and `providers` for its toolsets\' dependencies.',
    );
  }
  if (exported.plugins !== undefined && !Array.isArray(exported.plugins)) {
    // Left out, a guard plugin would never run, unseen.
    throw new AgentModuleError('AGENT_MODULE_LOAD_FAILED', `${file} exports \`plugins\`, but it is not an array of plugins.`);
  }
  const providers = exported.providers ?? [];
  if (!Array.isArray(providers)) {
    throw new AgentModuleError('AGENT_MODULE_LOAD_FAILED', `${file} exports \`providers\`, but it is not an array of providers.`);
  }
  const appName = typeof exported.appName === 'string' ? exported.appName : (runner?.appName ?? agent.name);
  return {
    file,
    agent,
    appName,
    providers: providers as Provider[],
    ...(runner ? { runner } : {}),
    ...(Array.isArray(exported.plugins) ? { plugins: exported.plugins as Plugin[] } : {}),
    ...(exported.memoryService ? { memoryService: exported.memoryService as MemoryService } : {}),
    ...(exported.artifactService ? { artifactService: exported.artifactService as ArtifactService } : {}),
    ...(exported.grantService ? { grantService: exported.grantService as GrantService } : {}),
    ...(exported.credentialService ? { credentialService: exported.credentialService as CredentialService } : {}),
  };
}

/** The one export of a kind; of several, the one with a root name, else the one that is no other's sub-agent. */
function pick<T>(file: string, exported: Record<string, unknown>, is: (value: unknown) => value is T, kind: string): T | undefined {
  const found = new Map<T, string>();
  for (const [name, value] of Object.entries(exported)) if (is(value) && !found.has(value)) found.set(value, name);
  if (found.size <= 1) return found.keys().next().value;
  for (const name of ROOT_NAMES) if (is(exported[name])) return exported[name] as T;
  const roots = [...found.keys()].filter((value) => !(value instanceof BaseAgent) || value.parentAgent === undefined);
  if (roots.length === 1) return roots[0];
  throw new AgentModuleError(
    'NO_AGENT_EXPORTED',
    `${file} exports several ${kind}s (${[...found.values()].join(', ')}). Name the one to run \`agent\` (or make it the default export).`,
  );
}
