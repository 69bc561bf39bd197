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
}

/**
 * Marks a class whose `@Tool` methods are tools. Also makes TypeScript record the constructor's
 * parameter types, so the container can inject its dependencies.
 *
 * @example
 * ```ts
 * @Toolset({ prefix: 'weather_' })
 * class WeatherTools { constructor(private readonly api: WeatherApi) {} }
 * ```
 */
export function Toolset(options: ToolsetOptions = {}): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(TOOLSET_METADATA, { ...options }, target);
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
