import type { AgentCallbacks, Plugin } from '@toolsmith/core';

const CALLBACK_NAMES = ['beforeModel', 'afterModel', 'onModelError', 'beforeTool', 'afterTool', 'onToolError'] as const;

/**
 * Makes a plugin out of a Nest provider instance. The runner calls callbacks as plain functions, so
 * methods are bound to the instance (they may use `this` and its injected dependencies). The name is
 * the instance's `name` property, else its class name.
 */
export function bindPlugin(instance: object): Plugin {
  const source = instance as Partial<Plugin> & Record<string, unknown>;
  const plugin: Record<string, unknown> = {
    name: typeof source.name === 'string' ? source.name : instance.constructor.name,
  };
  for (const key of CALLBACK_NAMES) {
    const callback = source[key] as AgentCallbacks[typeof key];
    if (typeof callback === 'function') plugin[key] = callback.bind(instance);
    else if (Array.isArray(callback)) plugin[key] = callback.map((c) => c.bind(instance));
  }
  return plugin as unknown as Plugin;
}
