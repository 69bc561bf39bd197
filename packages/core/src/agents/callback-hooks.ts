import { AgentConfigError } from '../errors/agent-config-error';
import { invalidCallbackHookMessage, unreadableCallbacksMessage } from '../errors/messages';
import { thrownMessage } from '../errors/thrown-message';

/** The hooks of `AgentCallbacks`, read by name (a class instance's methods too). */
export const CALLBACK_HOOKS = ['beforeModel', 'afterModel', 'onModelError', 'beforeTool', 'afterTool', 'onToolError'] as const;

/**
 * The hooks `callbacks` holds now, each checked: absent, a function, or a list of functions. Read once
 * each, bound to `callbacks` (a class instance's hooks may use `this`); a list is copied and frozen. What
 * cannot be used (a number, a list holding `null`, an object whose hooks throw when read) fails here, at
 * construction, rather than ending every run `INTERNAL_ERROR`. The runner and agents keep what this
 * returns, so a hook is never read again (a getter that answers otherwise later changes nothing).
 *
 * @param where - how the error names the callbacks' owner, e.g. `The runner's plugins[2]`.
 * @throws AgentConfigError (`AGENT_CONFIG_INVALID`) naming the hook.
 */
export function checkedHooks(callbacks: object, where: string): Partial<Record<(typeof CALLBACK_HOOKS)[number], unknown>> {
  const hooks: Record<string, unknown> = {};
  for (const hook of CALLBACK_HOOKS) {
    let value: unknown;
    try {
      value = (callbacks as Record<string, unknown>)[hook];
    } catch (thrown) {
      throw new AgentConfigError(unreadableCallbacksMessage(where, hook, thrownMessage(thrown)));
    }
    if (value === undefined) continue;
    if (typeof value === 'function') {
      hooks[hook] = (value as (...args: unknown[]) => unknown).bind(callbacks);
      continue;
    }
    if (!Array.isArray(value)) throw new AgentConfigError(invalidCallbackHookMessage(where, hook, describeHook(value)));
    let list: unknown[];
    try {
      list = Array.from(value as unknown[]);
    } catch (thrown) {
      throw new AgentConfigError(unreadableCallbacksMessage(where, hook, thrownMessage(thrown)));
    }
    for (let index = 0; index < list.length; index++) {
      const item = list[index];
      if (typeof item !== 'function') throw new AgentConfigError(invalidCallbackHookMessage(where, `${hook}[${index}]`, describeHook(item)));
      list[index] = (item as (...args: unknown[]) => unknown).bind(callbacks);
    }
    hooks[hook] = Object.freeze(list);
  }
  return hooks;
}

function describeHook(value: unknown): string {
  return value === null ? 'null' : typeof value;
}
