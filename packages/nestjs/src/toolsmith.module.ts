import { DynamicModule, Module, Provider, Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { InMemorySessionService, Runner } from '@toolsmith/core';
import type { AgentCallbacks, SessionService } from '@toolsmith/core';
import { createRunner, isClass } from './create-runner';
import { getRunnerToken } from './inject-runner.decorator';
import { NestContainerAdapter } from './nest-container-adapter';
import { ToolsetExplorer } from './toolset-explorer';
import { ToolsmithFeatureOptions, ToolsmithModuleAsyncOptions, ToolsmithModuleOptions } from './toolsmith-module-options.interface';
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
export class ToolsmithModule {
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

  /**
   * Registers one more runner, for another agent, injected with `@InjectRunner(name)` in the modules
   * that import this one. Needs `forRoot`/`forRootAsync` in the application: it shares their discovered
   * toolsets, Nest container and (unless it has its own) session service.
   *
   * @example
   * ```ts
   * @Module({ imports: [ToolsmithModule.forFeature({ name: 'ops', agent: { name: 'ops', model, tools: [{ prefix: 'ops_' }] } })] })
   * export class OpsModule {}
   * ```
   */
  static forFeature(options: ToolsmithFeatureOptions): DynamicModule {
    const pluginClasses = (options.plugins ?? []).filter(isClass);
    const token = getRunnerToken(options.name);
    return {
      module: ToolsmithModule,
      imports: options.imports ?? [],
      providers: [
        ...pluginClasses,
        pluginInstancesProvider(pluginClasses),
        {
          provide: token,
          useFactory: (explorer: ToolsetExplorer, container: NestContainerAdapter, sessionService: SessionService, pluginInstances: object[]) =>
            createRunner({
              options: { ...options, appName: options.appName ?? options.name },
              explorer,
              container,
              sessionService: options.sessionService ?? sessionService,
              pluginInstances,
            }),
          inject: [ToolsetExplorer, NestContainerAdapter, TOOLSMITH_SESSION_SERVICE, TOOLSMITH_PLUGIN_INSTANCES],
        },
      ],
      exports: [token],
    };
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
        pluginInstancesProvider(pluginClasses),
        NestContainerAdapter,
        ToolsetExplorer,
        {
          provide: TOOLSMITH_SESSION_SERVICE,
          useFactory: (options: ToolsmithModuleOptions) => options.sessionService ?? new InMemorySessionService(),
          inject: [TOOLSMITH_MODULE_OPTIONS],
        },
        {
          provide: Runner,
          useFactory: (
            options: ToolsmithModuleOptions,
            explorer: ToolsetExplorer,
            container: NestContainerAdapter,
            sessionService: SessionService,
            pluginInstances: object[],
          ) => createRunner({ options, explorer, container, sessionService, pluginInstances }),
          inject: [TOOLSMITH_MODULE_OPTIONS, ToolsetExplorer, NestContainerAdapter, TOOLSMITH_SESSION_SERVICE, TOOLSMITH_PLUGIN_INSTANCES],
        },
      ],
      exports: [Runner, TOOLSMITH_SESSION_SERVICE, ToolsetExplorer, NestContainerAdapter],
    };
  }
}

// Injecting the classes makes Nest build them (and their dependencies) before the runner.
function pluginInstancesProvider(pluginClasses: Type<AgentCallbacks>[]): Provider {
  return { provide: TOOLSMITH_PLUGIN_INSTANCES, useFactory: (...instances: object[]) => instances, inject: pluginClasses };
}
