import { AgentConfigError } from '../errors/agent-config-error';
import { callbacksNotObjectMessage, pluginsNotArrayMessage } from '../errors/messages';
import { thrownMessage } from '../errors/thrown-message';
import { checkedHooks } from './callback-hooks';
import type { Plugin } from './plugin';

/**
 * A frozen copy of `plugins`: for each, its name and its hooks as they are now, checked and bound to it
 * (see {@link checkedHooks}); a hole, `null`, another value, or a hook that cannot be used fails with
 * `AGENT_CONFIG_INVALID` naming it by its index in `plugins`, rather than ending every run `INTERNAL_ERROR`.
 * A plugin without a name is named `plugins[<index>]`. A copy passes this check again unchanged (its
 * hooks are already bound, its name kept): a runner that puts plugins of its own before the user's
 * (@toolsmith/dbos's DurableRunner) checks the user's here first, so errors and names give the index the
 * user wrote.
 *
 * @param owner - whose option it is, as errors name it: `The runner's`, `The DurableRunner's`.
 */
export function checkedPlugins(plugins: readonly Plugin[] | undefined, owner = "The runner's"): readonly Plugin[] {
  if (plugins === undefined) return Object.freeze([]);
  if (!Array.isArray(plugins)) throw new AgentConfigError(pluginsNotArrayMessage(owner, plugins === null ? 'null' : typeof plugins));
  let given: unknown[];
  try {
    given = Array.from(plugins as unknown[]);
  } catch (thrown) {
    throw new AgentConfigError(pluginsNotArrayMessage(owner, `an array that cannot be read (${thrownMessage(thrown)})`));
  }
  const checked: Plugin[] = [];
  for (let index = 0; index < given.length; index++) {
    const plugin = given[index];
    const where = `${owner} plugins[${index}]`;
    if ((typeof plugin !== 'object' && typeof plugin !== 'function') || plugin === null) throw new AgentConfigError(callbacksNotObjectMessage(where, plugin === null ? 'null' : typeof plugin));
    const hooks = checkedHooks(plugin, where);
    let name: unknown;
    try {
      name = (plugin as Partial<Plugin>).name;
    } catch {
      name = undefined;
    }
    checked.push(Object.freeze({ ...hooks, name: typeof name === 'string' ? name : `plugins[${index}]` }) as Plugin);
  }
  return Object.freeze(checked);
}
