import type { ToolsmithClassDecorator } from '../decorators/decorator-types';
import { defineClassMetadata } from '../decorators/standard-decorators';
import type { InjectionToken } from '../di/container-adapter';
import { TOOLSET_METADATA } from '../metadata-keys';
import type { BaseTool } from './base-tool';
import type { ReadonlyContext } from './readonly-context';

/**
 * A source of tools, asked for its tools on every request (so it may answer per user, per state, or
 * from a remote server). A `@Toolset` class is a static toolset.
 */
export interface Toolset {
  /** The tools offered for this context. */
  getTools(context: ReadonlyContext): BaseTool[] | Promise<BaseTool[]>;
  /** Releases connections and other resources. Called by `Runner.close()`. */
  close?(): void | Promise<void>;
}

/** Options of the {@link Toolset} class decorator. */
export interface ToolsetOptions {
  /** Prepended to every tool name of the class, e.g. `weather_`. */
  prefix?: string;
  /**
   * The constructor's dependencies, in parameter order, for Toolsmith's container: needed with standard
   * decorators (and with esbuild, tsx or vitest), which record no constructor parameter types. With
   * legacy decorators and `emitDecoratorMetadata` the types are read instead (an entry here wins).
   */
  inject?: readonly InjectionToken[];
}

/**
 * Marks a class whose `@Tool` methods are tools. With legacy decorators and `emitDecoratorMetadata` it
 * also makes TypeScript record the constructor's parameter types, so the container can inject its
 * dependencies; with standard decorators, list them in `inject`.
 *
 * @example
 * ```ts
 * @Toolset({ prefix: 'weather_' })
 * class WeatherTools { constructor(private readonly api: WeatherApi) {} }
 *
 * // Standard decorators: no parameter types at runtime, so the dependencies are listed.
 * @Toolset({ inject: [WeatherApi] })
 * class ForecastTools { constructor(private readonly api: WeatherApi) {} }
 * ```
 */
export function Toolset(options: ToolsetOptions = {}): ToolsmithClassDecorator {
  return (target, context) => {
    defineClassMetadata(TOOLSET_METADATA, { ...options }, target, context);
  };
}

/** True when `value` implements the {@link Toolset} interface (an object with `getTools`). */
export function isToolset(value: unknown): value is Toolset {
  return typeof value === 'object' && value !== null && typeof (value as Toolset).getTools === 'function';
}

/**
 * The options a class was given by `@Toolset`, or `undefined` when it is not a `@Toolset` class. Lets
 * integrations (the Nest module's provider discovery) recognise toolset classes without the metadata key.
 */
export function getToolsetOptions(target: Function): ToolsetOptions | undefined {
  const options: ToolsetOptions | undefined = Reflect.getMetadata(TOOLSET_METADATA, target);
  return options && { ...options };
}
