import { NoToolsError } from '../errors/tool-definition-errors';
import type { ContainerAdapter, InjectionToken } from '../di/container-adapter';
import { instanceFromContainer } from './class-instance-source';
import type { BaseTool } from '../tools/base-tool';
import { DecoratedTool, type InstanceSource } from './decorated-tool';
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
 * own `Container`; other containers are asked on every call, so per-request scopes work).
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
