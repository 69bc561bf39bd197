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
  const plugin: Record<string, unknown> = {
    name: typeof source.name === 'string' ? source.name : instance.constructor.name,
  };
  for (const key of CALLBACK_NAMES) {
    let callback: unknown;
    try {
      callback = source[key];
    } catch (thrown) {
      // Read again by the runner's check, which names the hook in its AGENT_CONFIG_INVALID.
      Object.defineProperty(plugin, key, { enumerable: true, get: () => { throw thrown; } });
      continue;
    }
    if (typeof callback === 'function') plugin[key] = (callback as (...args: unknown[]) => unknown).bind(instance);
    else if (Array.isArray(callback)) plugin[key] = callback.map((item: unknown) => (typeof item === 'function' ? (item as (...args: unknown[]) => unknown).bind(instance) : item));
    else if (callback !== undefined) plugin[key] = callback;
  }
  return plugin as unknown as Plugin;
}
