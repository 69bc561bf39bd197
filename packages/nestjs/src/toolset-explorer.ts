import { Inject, Injectable, Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import { createClassTools } from '@toolsmith/core';
import { getToolsetOptions } from '@toolsmith/core/internal';
import type { ContainerAdapter, InjectionToken, ResolutionScope } from '@toolsmith/core';
import type { DiscoveredToolset } from './discovered-toolset';
import { mapHttpExceptions } from './http-exception-mapping';
import { NestContainerAdapter } from './nest-container-adapter';
import type { ToolsmithModuleOptions } from './toolsmith-module-options.interface';
import { TOOLSMITH_MODULE_OPTIONS } from './toolsmith.tokens';

/**
 * Finds the application's `@Toolset` providers with Nest's `DiscoveryService` and builds their tools
 * with core's `createClassTools` (the one scanner), backed by the Nest container: the instance is taken
 * from Nest at the first call, per run for request-scoped and transient providers. Inject it to see
 * what was found.
 */
@Injectable()
export class ToolsetExplorer {
  private discovered?: readonly DiscoveredToolset[];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly container: NestContainerAdapter,
    @Inject(TOOLSMITH_MODULE_OPTIONS) private readonly options: ToolsmithModuleOptions,
  ) {}

  /**
   * Every `@Toolset` provider of the application with its tools, in module order. Built once.
   * Class providers (`MyTools`, `{ provide, useClass }`) and value providers holding a `@Toolset` instance
   * are found; a factory provider's class is unknown until it runs, so it is not.
   *
   * @throws ToolDefinitionError (from the scanner) at startup for a badly defined tool.
   */
  explore(): readonly DiscoveredToolset[] {
    if (this.discovered) return this.discovered;
    const mapErrors = this.options.mapHttpExceptions ?? true;
    const found: DiscoveredToolset[] = [];
    const seen = new Set<unknown>();
    for (const wrapper of this.discovery.getProviders()) {
      const target = toolsetTarget(wrapper);
      // A provider exported and re-provided, or aliased, appears more than once; its tools are built once.
      if (!target || seen.has(wrapper.token)) continue;
      seen.add(wrapper.token);
      const toolsetClass = (typeof target === 'function' ? target : target.constructor) as Type;
      const tools = createClassTools(target, { container: this.containerFor(wrapper.token as InjectionToken, toolsetClass) });
      found.push({
        token: wrapper.token as InjectionToken,
        toolsetClass,
        prefix: getToolsetOptions(toolsetClass)?.prefix,
        tools: mapErrors ? tools.map(mapHttpExceptions) : tools,
      });
    }
    this.discovered = found;
    return found;
  }

  // The scanner asks for the class; Nest may know the provider by another token (`{ provide: 'X', useClass }`).
  private containerFor(token: InjectionToken, toolsetClass: Type): ContainerAdapter {
    if (token === toolsetClass) return this.container;
    return {
      resolve: <T>(asked: InjectionToken<T>, scope?: ResolutionScope) =>
        this.container.resolve<T>((asked === toolsetClass ? token : asked) as InjectionToken<T>, scope),
    };
  }
}

/** The class to build from (class providers) or the instance to use (value providers), if it is a `@Toolset`. */
function toolsetTarget(wrapper: InstanceWrapper): Function | object | undefined {
  if (wrapper.isAlias) return undefined;
  if (!wrapper.isNotMetatype) {
    return wrapper.metatype && getToolsetOptions(wrapper.metatype) ? wrapper.metatype : undefined;
  }
  if (wrapper.isFactory) return undefined;
  const instance: unknown = wrapper.instance;
  if (typeof instance !== 'object' || instance === null) return undefined;
  return getToolsetOptions(instance.constructor) ? instance : undefined;
}
