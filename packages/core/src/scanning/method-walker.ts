import { TOOL_METADATA } from '../metadata-keys';
import { ToolOptions } from '../tools/tool';

/** One `@Tool` method found on a class, with the prototype that declares it. */
export interface ToolMethod {
  readonly methodName: string;
  readonly prototype: object;
  readonly options: ToolOptions;
}

const cache = new WeakMap<object, readonly ToolMethod[]>();

/**
 * The `@Tool` methods of a class prototype, base classes included (a subclass's override wins),
 * skipping the constructor, getters and setters. Cached per prototype.
 */
export function toolMethodsOf(prototype: object): readonly ToolMethod[] {
  const cached = cache.get(prototype);
  if (cached) return cached;
  const seen = new Set<string>();
  const methods: ToolMethod[] = [];
  for (let proto: object | null = prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || seen.has(key)) continue;
      seen.add(key);
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (!descriptor || typeof descriptor.value !== 'function') continue;
      const options: ToolOptions | undefined = Reflect.getOwnMetadata(TOOL_METADATA, proto, key);
      if (options) methods.push({ methodName: key, prototype: proto, options });
    }
  }
  cache.set(prototype, methods);
  return methods;
}
