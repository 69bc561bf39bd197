import { NoToolsError } from '../errors/tool-definition-errors';
import { Container } from '../di/container';
import type { ContainerAdapter, InjectionToken } from '../di/container-adapter';
import type { Class } from '../di/provider';
import type { BaseTool } from '../tools/base-tool';
import { DecoratedTool, type InstanceSource } from './decorated-tool';
import type { ToolContext } from '../tools/tool-context';
import { type ScanOptions, scanClass } from './tool-scanner';

/** Options of {@link createClassTools}. */
export interface ClassToolsOptions extends ScanOptions {
  /** Builds the `@Toolset` class instance (with its dependencies). Not used for an instance. */
  container: ContainerAdapter;
}

/**
 * The tools of a `@Toolset` class or of an already-built object, ready for the executor. The class is
 * scanned once (cached); its instance is resolved through the container at the first call, with the
 * run's ids as the resolution scope, and kept when the container says it is a singleton (Toolsmith's
 * own {@link Container}; other containers are asked on every call, so per-request scopes work).
 * An instance is used as it is.
 *
 * @throws {ToolDefinitionError} at once for a badly defined tool, or when the class has no `@Tool` methods.
 */
export function createClassTools(target: Function | object, options: ClassToolsOptions): BaseTool[] {
  const { container, ...scanOptions } = options;
  const cls = typeof target === 'function' ? target : (target.constructor as Function);
  const scanned = scanClass(cls, Object.keys(scanOptions).length ? scanOptions : undefined);
  if (scanned.length === 0) throw new NoToolsError({ className: cls.name || '<anonymous class>' });
  const source: InstanceSource = typeof target === 'function' ? instanceFromContainer(target as InjectionToken<object>, container) : () => target;
  return scanned.map((tool) => new DecoratedTool(tool, source));
}

function instanceFromContainer(token: InjectionToken<object>, container: ContainerAdapter): InstanceSource {
  const cacheable = container instanceof Container;
  // A class given as tools provides itself even without @Toolset; its dependencies still need providers.
  if (cacheable && !container.has(token)) container.register(token as Class<object>);
  let cached: object | undefined;
  return (context: ToolContext) => {
    if (cached) return cached;
    const resolved = container.resolve(token, {
      invocationId: context.invocationId,
      userId: context.userId,
      sessionId: context.sessionId,
    });
    // Another container may hand back any thenable; the tool only knows native promises.
    if (!cacheable) return typeof (resolved as PromiseLike<object>)?.then === 'function' ? Promise.resolve(resolved) : resolved;
    if (!(container as Container).isSingleton(token)) return resolved;
    if (resolved instanceof Promise) return resolved.then((instance) => (cached = instance));
    return (cached = resolved);
  };
}
