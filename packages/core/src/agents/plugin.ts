import type { AgentCallbacks } from './callbacks';

/**
 * Callbacks for every agent of a runner (logging, policy, caching). Plugins run before the agent's own
 * callbacks, in the order given to the runner; the first callback that returns a value short-circuits.
 *
 * @example
 * ```ts
 * const audit: Plugin = { name: 'audit', beforeTool: ({ tool, args }) => void log(tool.name, args) };
 * new Runner({ appName: 'shop', agent, plugins: [audit] });
 * ```
 */
export interface Plugin extends AgentCallbacks {
  /** Identifies the plugin in errors and logs. */
  readonly name: string;
}
