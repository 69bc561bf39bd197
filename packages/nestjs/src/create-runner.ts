import { ToolsmithError } from '@toolsmith/core';
import type { AgentCallbacks, Plugin, Runner, SessionService } from '@toolsmith/core';
import type { Type } from '@nestjs/common';
import { bindPlugin } from './bind-plugin';
import { buildAgent } from './build-agent';
import type { NestContainerAdapter } from './nest-container-adapter';
import { NestRunner } from './nest-runner';
import type { ToolsetExplorer } from './toolset-explorer';
import type { ToolsmithModuleOptions } from './toolsmith-module-options.interface';

/** Input of {@link createRunner}. */
export interface CreateRunnerInput {
  options: Pick<ToolsmithModuleOptions, 'appName' | 'agent' | 'plugins' | 'runner'>;
  explorer: ToolsetExplorer;
  container: NestContainerAdapter;
  sessionService: SessionService;
  /** Nest-built instances of the plugin classes registered with the module. */
  pluginInstances: object[];
}

/** Builds a runner for module options: the agent with its selected tools, plugins, Nest as container. */
export async function createRunner(input: CreateRunnerInput): Promise<Runner> {
  const { options } = input;
  const agent = await buildAgent(options.agent, input.explorer.explore());
  return new NestRunner(
    {
      ...options.runner,
      appName: options.appName ?? 'toolsmith',
      agent,
      sessionService: input.sessionService,
      plugins: resolvePlugins(options.plugins ?? [], input.pluginInstances),
      // `@Toolset` classes listed directly on a hand-built agent are built by Nest too.
      container: input.container,
    },
    input.container,
  );
}

/** Plugin entries in order, classes replaced by their Nest-built instances; registered classes not named come first. */
function resolvePlugins(entries: NonNullable<ToolsmithModuleOptions['plugins']>, instances: object[]): Plugin[] {
  const named = new Set(entries.filter(isClass));
  const plugins = instances.filter((i) => !named.has(i.constructor as Type)).map(bindPlugin);
  for (const entry of entries) {
    if (!isClass(entry)) {
      plugins.push(entry);
      continue;
    }
    const instance = instances.find((i) => i.constructor === entry);
    if (!instance) {
      throw new ToolsmithError(
        'PLUGIN_NOT_REGISTERED',
        `Plugin class ${entry.name} is not registered with ToolsmithModule. With forRootAsync, list plugin classes in its own \`plugins\` option so Nest can build them.`,
      );
    }
    plugins.push(bindPlugin(instance));
  }
  return plugins;
}

/** True for a plugin class (to be built by Nest), false for a plugin object. */
export function isClass(entry: unknown): entry is Type<AgentCallbacks> {
  return typeof entry === 'function';
}
