import type { Plugin } from '@toolsmith/core';

const CALLBACK_NAMES = ['beforeModel', 'afterModel', 'onModelError', 'beforeTool', 'afterTool', 'onToolError'] as const;

/**
 * Makes a plugin out of a Nest provider instance. Its hooks are bound to the instance (they may use
 * `this` and its injected dependencies); whatever else a hook holds is passed on as it is, so the runner
 * refuses a hook that is neither a function nor a list of functions (`AGENT_CONFIG_INVALID`, naming it)
 * instead of it being left out unseen. The name is the instance's `name` property, else its class name.
 */
export function bindPlugin(instance: object): Plugin {
  const source = instance as Partial<Plugin> & Record<string, unknown>;
  const plugin: Record<string, unknown> = { name: pluginName(instance) };
  for (const key of CALLBACK_NAMES) {
    let hook: unknown;
    try {
      const callback: unknown = source[key];
      if (typeof callback === 'function') hook = (callback as (...args: unknown[]) => unknown).bind(instance);
      else if (Array.isArray(callback)) hook = Array.from(callback as unknown[], (item) => (typeof item === 'function' ? (item as (...args: unknown[]) => unknown).bind(instance) : item));
      else hook = callback;
    } catch (thrown) {
      // Read again by the runner's check, which names the hook in its AGENT_CONFIG_INVALID.
      Object.defineProperty(plugin, key, { enumerable: true, get: () => { throw thrown; } });
      continue;
    }
    if (hook !== undefined) plugin[key] = hook;
  }
  return plugin as unknown as Plugin;
}

/** The instance's own `name` when it is a string, else its class name (a `name` that throws when read included). */
function pluginName(instance: object): string {
  try {
    const name: unknown = (instance as { name?: unknown }).name;
    if (typeof name === 'string') return name;
  } catch {
    // the class name below
  }
  return instance.constructor?.name || 'plugin';
}
