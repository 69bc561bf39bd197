import { getOwnMemberMetadata } from '../decorators/standard-decorators';
import { TOOL_METADATA } from '../metadata-keys';
import type { ToolOptions } from '../tools/tool';

/** One `@Tool` method found on a class. */
export interface ToolMethod {
  readonly methodName: string;
  /** The prototype whose method carries `@Tool` (and its `@Param`s and parameter types). */
  readonly prototype: object;
  readonly options: ToolOptions;
  /** True when its `@Tool` ran as a standard (TC39) decorator: no parameter types or `@Param`s exist. */
  readonly standardDecorators: boolean;
  /** The function a call runs: the most derived definition, which may be an undecorated override. */
  readonly implementation: (...args: unknown[]) => unknown;
}

const cache = new WeakMap<object, readonly ToolMethod[]>();

/**
 * The `@Tool` methods of a class prototype, base classes included, skipping the constructor, getters
 * and setters. A decorated override replaces the base's tool; an undecorated override keeps the base's
 * declaration and runs the override. Cached per prototype.
 */
export function toolMethodsOf(prototype: object): readonly ToolMethod[] {
  const cached = cache.get(prototype);
  if (cached) return cached;
  const implementations = new Map<string, (...args: unknown[]) => unknown>();
  const declared = new Set<string>();
  const methods: ToolMethod[] = [];
  for (let proto: object | null = prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || declared.has(key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (!descriptor || typeof descriptor.value !== 'function') continue;
      if (!implementations.has(key)) implementations.set(key, descriptor.value);
      // Legacy decorators recorded it on the prototype, standard ones in the class's Symbol.metadata.
      const options = getOwnMemberMetadata<ToolOptions>(TOOL_METADATA, proto, key);
      if (!options) continue;
      declared.add(key);
      const standardDecorators = Reflect.getOwnMetadata(TOOL_METADATA, proto, key) === undefined;
      methods.push({ methodName: key, prototype: proto, options, standardDecorators, implementation: implementations.get(key)! });
    }
  }
  cache.set(prototype, methods);
  return methods;
}

/** True when a class prototype (or a base class's) has at least one `@Tool` method. */
export function declaresTools(prototype: object): boolean {
  return toolMethodsOf(prototype).length > 0;
}
