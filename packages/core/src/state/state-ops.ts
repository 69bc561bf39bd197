import { StateConflictError } from '../errors/state-conflict-error';
import { setStateKey } from './state-keys';

/**
 * An update of one state key that the session store applies inside the append, against the value it
 * holds at that moment (not the value the tool read), so writers in other sessions or processes cannot
 * undo it. Recorded on the event as `actions.stateOps[key]`, next to the value in `actions.stateDelta`.
 */
export type StateOp =
  /** Adds `by` to the stored number (a missing key counts as 0); the stored event's `stateDelta` holds the result. */
  | { op: 'increment'; by: number }
  /** Writes the `stateDelta` value only if the stored value equals `expected` as JSON (`null`: the key is not set); else `STATE_CONFLICT`. */
  | { op: 'compareAndSet'; expected: unknown };

/**
 * Resolves `ops` against the stored values (`stored(key)`, `undefined` when unset), as every store must
 * inside its append: checks each compare-and-set and computes each increment. Returns the values the
 * increments store (the caller writes them into the event's `stateDelta` before storing it); throws
 * {@link StateConflictError} (`STATE_CONFLICT`) when a compare-and-set finds another value, or an
 * increment finds a value that is not a number (or would pass the largest finite number), and then
 * nothing may be stored.
 */
export function resolveStateOps(ops: Readonly<Record<string, StateOp>>, stored: (key: string) => unknown): Record<string, number> {
  const results: Record<string, number> = {};
  for (const key of Object.keys(ops)) {
    const op = ops[key];
    const current = stored(key) ?? null;
    if (op.op === 'increment') {
      if (current !== null && typeof current !== 'number') throw new StateConflictError(key, 'a number', current);
      const result = ((current as number | null) ?? 0) + op.by;
      // JSON has no Infinity: a sum past the largest number would store null, losing the counter.
      if (!Number.isFinite(result)) throw new StateConflictError(key, 'a number the increment keeps finite', current);
      setStateKey(results, key, result);
    } else if (!jsonEqual(current, op.expected ?? null)) {
      throw new StateConflictError(key, op.expected ?? null, current);
    }
  }
  return results;
}

/** Equality of two JSON values (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((value, i) => jsonEqual(value, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.prototype.hasOwnProperty.call(right, key) && jsonEqual(left[key], right[key]));
}
