import { StatePrefix } from '@toolsmith/core';
import { setStateKey } from '@toolsmith/core/internal';

/** Keys set and keys removed in one state scope. */
export interface ScopeDelta {
  set: Record<string, unknown>;
  removed: string[];
}

/** A state delta split by scope (`temp:` keys dropped): what each table's JSONB merge needs. */
export interface ScopedDelta {
  session: ScopeDelta;
  user: ScopeDelta;
  app: ScopeDelta;
}

/** Splits `delta` by key prefix; `null` (or `undefined`) removes a key, as in every store. */
export function splitDelta(delta: Record<string, unknown>): ScopedDelta {
  const scoped: ScopedDelta = { session: { set: {}, removed: [] }, user: { set: {}, removed: [] }, app: { set: {}, removed: [] } };
  for (const key of Object.keys(delta)) {
    if (key.startsWith(StatePrefix.TEMP)) continue;
    const scope = key.startsWith(StatePrefix.APP) ? scoped.app : key.startsWith(StatePrefix.USER) ? scoped.user : scoped.session;
    const value = delta[key];
    if (value === null || value === undefined) scope.removed.push(key);
    else setStateKey(scope.set, key, value);
  }
  return scoped;
}
