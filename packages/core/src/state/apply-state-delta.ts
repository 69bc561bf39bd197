import { StatePrefix } from './state';
import { setStateKey } from './state-keys';

/** Applies a state delta to a plain state record in place, as every store does: `null` (or `undefined`) deletes, `temp:` keys are skipped, any other key is an own key (`__proto__` included). */
export function applyStateDelta(target: Record<string, unknown>, delta: Readonly<Record<string, unknown>>): void {
  for (const key of Object.keys(delta)) {
    if (key.startsWith(StatePrefix.TEMP)) continue;
    const value = delta[key];
    if (value === null || value === undefined) delete target[key];
    else setStateKey(target, key, value);
  }
}
