import { AgentConfigError } from '../errors/agent-config-error';
import { callbacksNotObjectMessage, pluginsNotArrayMessage } from '../errors/messages';
import { thrownMessage } from '../errors/thrown-message';
import { redactSecretText } from '../redaction/secret-redaction';
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
  // Read by index up to its length (each read once), never through its iterator: a replaced
  // `Symbol.iterator` (or a Proxy) could make that give other plugins than the array holds.
  const length = pluginCount(plugins, owner);
  const checked: Plugin[] = [];
  for (let index = 0; index < length; index++) {
    const plugin = readPlugin(plugins, index, owner);
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

/**
 * The `length` of `plugins`, read once.
 *
 * @throws AgentConfigError for what is no array (a revoked Proxy too), a `length` that is not one an array
 *   has (a Proxy's may answer anything), or a read that throws.
 */
function pluginCount(plugins: unknown, owner: string): number {
  let isArray: boolean;
  let length: unknown;
  try {
    isArray = Array.isArray(plugins);
    if (isArray) length = (plugins as unknown[]).length;
  } catch (thrown) {
    // A revoked Proxy (Array.isArray throws rather than answer), or a Proxy whose `length` trap throws.
    throw unreadable(owner, thrownMessage(thrown));
  }
  if (!isArray) throw new AgentConfigError(pluginsNotArrayMessage(owner, plugins === null ? 'null' : typeof plugins));
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 0 || length > MAX_ARRAY_LENGTH) {
    throw unreadable(owner, `its length is ${typeof length === 'number' ? length : typeof length}`);
  }
  return length;
}

/** What `plugins` holds at `index` (a hole: `undefined`), read once. @throws AgentConfigError when the read throws. */
function readPlugin(plugins: unknown, index: number, owner: string): unknown {
  try {
    return (plugins as unknown[])[index];
  } catch (thrown) {
    throw unreadable(owner, thrownMessage(thrown));
  }
}

/** What was thrown (`why`) is redacted, as an error event's message is: a Proxy's trap may throw text holding a key. */
function unreadable(owner: string, why: string): AgentConfigError {
  return new AgentConfigError(pluginsNotArrayMessage(owner, `an array that cannot be read (${redactSecretText(why)})`));
}

/** The longest an array may be (2^32 - 1). */
const MAX_ARRAY_LENGTH = 2 ** 32 - 1;
