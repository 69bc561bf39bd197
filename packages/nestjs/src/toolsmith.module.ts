import { DynamicModule, Inject, Module, OnApplicationShutdown, Provider, Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { InMemorySessionService, Runner, ToolsmithError } from '@toolsmith/core';
import type { AgentCallbacks, Plugin, SessionService } from '@toolsmith/core';
import { bindPlugin } from './bind-plugin';
import { buildAgent } from './build-agent';
import { NestContainerAdapter } from './nest-container-adapter';
import { NestRunner } from './nest-runner';
import { ToolsetExplorer } from './toolset-explorer';
import { ToolsmithModuleAsyncOptions, ToolsmithModuleOptions } from './toolsmith-module-options.interface';
import { TOOLSMITH_MODULE_OPTIONS, TOOLSMITH_PLUGIN_INSTANCES, TOOLSMITH_SESSION_SERVICE } from './toolsmith.tokens';

/**
 * Toolsmith in a Nest application. Finds every provider whose class is a `@Toolset` (with Nest's
 * discovery), takes its instances from Nest (constructor dependencies, config, request-scoped providers
 * resolved per run) and provides an injectable `Runner` for the configured agent. Global: import it once.
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [
 *     OrdersModule,
 *     ToolsmithModule.forRoot({
 *       agent: { name: 'support', model: new OpenAIModel({ model: 'gpt-4.1-mini' }), tools: [OrdersTools] },
 *     }),
 *   ],
 *   controllers: [ChatController], // constructor(private readonly runner: Runner) {}
 * })
 * export class AppModule {}
 * ```
 */
@Module({})
export class ToolsmithModule implements OnApplicationShutdown {
  constructor(@Inject(Runner) private readonly runner: Runner) {}

  /** Configures the module with fixed options. */
  static forRoot(options: ToolsmithModuleOptions): DynamicModule {
    const pluginClasses = (options.plugins ?? []).filter(isClass);
    return ToolsmithModule.create([{ provide: TOOLSMITH_MODULE_OPTIONS, useValue: options }], options.imports ?? [], pluginClasses);
  }

  /** Configures the module with options built by a factory that may inject other providers (config, models). */
  static forRootAsync(options: ToolsmithModuleAsyncOptions): DynamicModule {
    return ToolsmithModule.create(
      [{ provide: TOOLSMITH_MODULE_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] }],
      options.imports ?? [],
      options.plugins ?? [],
    );
  }

  /** Releases the runner's toolsets (MCP connections and the like) when the application shuts down. */
  async onApplicationShutdown(): Promise<void> {
    await this.runner.close();
  }

  private static create(
    optionsProviders: Provider[],
    imports: NonNullable<ToolsmithModuleOptions['imports']>,
    pluginClasses: Type<AgentCallbacks>[],
  ): DynamicModule {
    return {
      module: ToolsmithModule,
      global: true,
      imports: [DiscoveryModule, ...imports],
      providers: [
        ...optionsProviders,
        ...pluginClasses,
        // Injecting the classes makes Nest build them (and their dependencies) before the runner.
        { provide: TOOLSMITH_PLUGIN_INSTANCES, useFactory: (...instances: object[]) => instances, inject: pluginClasses },
        NestContainerAdapter,
        ToolsetExplorer,
        {
          provide: TOOLSMITH_SESSION_SERVICE,
          useFactory: (options: ToolsmithModuleOptions) => options.sessionService ?? new InMemorySessionService(),
          inject: [TOOLSMITH_MODULE_OPTIONS],
        },
        {
          provide: Runner,
          useFactory: createRunner,
          inject: [TOOLSMITH_MODULE_OPTIONS, ToolsetExplorer, NestContainerAdapter, TOOLSMITH_SESSION_SERVICE, TOOLSMITH_PLUGIN_INSTANCES],
        },
      ],
      exports: [Runner, TOOLSMITH_SESSION_SERVICE, ToolsetExplorer, NestContainerAdapter],
    };
  }
}

async function createRunner(
  options: ToolsmithModuleOptions,
  explorer: ToolsetExplorer,
  container: NestContainerAdapter,
  sessionService: SessionService,
  pluginInstances: object[],
): Promise<Runner> {
  const discovered = explorer.explore();
  const agent = await buildAgent(options.agent, discovered);
  return new NestRunner(
    {
      ...options.runner,
      appName: options.appName ?? 'toolsmith',
      agent,
      sessionService,
      plugins: resolvePlugins(options.plugins ?? [], pluginInstances),
      // `@Toolset` classes listed directly on a hand-built agent are built by Nest too.
      container,
    },
    container,
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

function isClass(entry: unknown): entry is Type<AgentCallbacks> {
  return typeof entry === 'function';
}
