import { StateValueError } from '../errors/state-value-error';
import type { StateOp } from './state-ops';
import { jsonEqual } from './state-ops';
import { ownStateValue, setStateKey } from './state-keys';

/** Key prefixes that choose a state scope. A key with none of them belongs to the session. */
export const StatePrefix = {
  /** Shared by every user and session of the app. */
  APP: 'app:',
  /** Shared by every session of one user. */
  USER: 'user:',
  /** This invocation only; never stored. */
  TEMP: 'temp:',
} as const;

/** Read-only view of state, given to toolsets and instruction functions. */
export interface ReadonlyState {
  /** The value of `key` (with its prefix, e.g. `user:name`), or `undefined` when it is not set. `T` is not checked. */
  get<T = unknown>(key: string): T | undefined;
  /** True when `key` has a value. */
  has(key: string): boolean;
  /** A copy of every current key and value. */
  toObject(): Record<string, unknown>;
}

/**
 * Session state as a tool or callback sees it: the stored values plus this call's writes. Writes are
 * recorded in `delta` (which is the event's `actions.stateDelta`), so the session service can apply
 * them with the scope rules of {@link StatePrefix}. A deleted key is recorded as `null`; state never
 * stores `null`, so `set(key, null)` is a delete.
 */
export class State implements ReadonlyState {
  private sealedBy?: Error;

  constructor(
    private readonly base: Record<string, unknown>,
    /** Writes made through this object; shared with `actions.stateDelta`. */
    readonly delta: Record<string, unknown> = {},
    /** Where {@link State.increment} and {@link State.compareAndSet} record their updates: the event's actions (`stateOps`, created on first use). */
    private readonly actions: { stateOps?: Record<string, StateOp> } = {},
  ) {}

  /** The value of `key`: this call's write when there is one, else the stored value; `undefined` when unset or deleted. */
  get<T = unknown>(key: string): T | undefined {
    if (Object.prototype.hasOwnProperty.call(this.delta, key)) {
      const v = this.delta[key];
      return (v === null ? undefined : v) as T | undefined;
    }
    return (Object.prototype.hasOwnProperty.call(this.base, key) ? this.base[key] : undefined) as T | undefined;
  }

  /** True when `key` has a value, counting this call's writes and deletes. */
  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** Stores a JSON value (copied, so later mutation of `value` does not leak into the session). */
  set(key: string, value: unknown): void {
    if (this.sealedBy) throw this.sealedBy;
    setStateKey(this.delta, key, value === undefined || value === null ? null : toJsonCopy(key, value, '', 0));
    this.dropOp(key);
  }

  /** Removes `key`, recorded as `null` in `delta` so the session service deletes it too. */
  delete(key: string): void {
    if (this.sealedBy) throw this.sealedBy;
    setStateKey(this.delta, key, null);
    this.dropOp(key);
  }

  /**
   * Adds `by` (default 1) to the number at `key` (a missing key counts as 0). Unlike `set(key, get(key) + 1)`,
   * which stores the value this call computed (last writer wins), the session store adds `by` inside the
   * append, to the value it holds then: increments from many sessions and processes at once add up, none
   * is lost. The stored event's `stateDelta` holds the value the store reached. Returns the value as this
   * call sees it (the value read plus this call's increments); other writers may have added more. Throws
   * `StateValueError` when `by` is not a finite number, the key holds something else than a number, or
   * the sum is not finite.
   */
  increment(key: string, by = 1): number {
    if (this.sealedBy) throw this.sealedBy;
    if (typeof by !== 'number' || !Number.isFinite(by)) throw new StateValueError(key, '', `increment by ${String(by)}: not a finite number`);
    const current = this.get(key);
    if (current !== undefined && typeof current !== 'number') throw new StateValueError(key, '', `increment needs a number, the key holds ${JSON.stringify(current)}`);
    const value = ((current as number | undefined) ?? 0) + by;
    if (!Number.isFinite(value)) throw new StateValueError(key, '', `increment by ${by}: the sum passes the largest number JSON can hold`);
    const written = Object.prototype.hasOwnProperty.call(this.delta, key);
    setStateKey(this.delta, key, value);
    if (key.startsWith(StatePrefix.TEMP)) return value;
    const previous = ownStateValue(this.actions.stateOps, key);
    // After a plain write of this call the key is a plain write still; after a compare-and-set its condition stays.
    if (previous?.op === 'increment') this.recordOp(key, { op: 'increment', by: previous.by + by });
    else if (!written) this.recordOp(key, { op: 'increment', by });
    return value;
  }

  /**
   * Writes `value` at `key` only if the key holds `expected` (compared as JSON; `undefined` or `null`: the
   * key is not set). Returns false, recording nothing, when the value this call sees differs. Otherwise the
   * write is recorded with its condition, and the session store checks it again inside the append, against
   * the value it holds then: of several sessions or processes racing from the same value, exactly one
   * stores its write. A call whose condition no longer holds there is answered with `STATE_CONFLICT`
   * (`StateConflictError`) instead of its result, and nothing of that call is stored.
   */
  compareAndSet(key: string, expected: unknown, value: unknown): boolean {
    if (this.sealedBy) throw this.sealedBy;
    const wanted = expected === undefined || expected === null ? null : toJsonCopy(key, expected, '', 0);
    const written = value === undefined || value === null ? null : toJsonCopy(key, value, '', 0);
    if (!jsonEqual(this.get(key) ?? null, wanted)) return false;
    const hadWrite = Object.prototype.hasOwnProperty.call(this.delta, key);
    setStateKey(this.delta, key, written);
    if (key.startsWith(StatePrefix.TEMP)) return true;
    const previous = ownStateValue(this.actions.stateOps, key);
    // The store checks the value it holds: the one this call read, before its own earlier writes of the key.
    if (previous?.op === 'compareAndSet') return true;
    if (previous?.op === 'increment' || !hadWrite) {
      const stored = Object.prototype.hasOwnProperty.call(this.base, key) ? this.base[key] : null;
      this.recordOp(key, { op: 'compareAndSet', expected: stored ?? null });
    }
    return true;
  }

  private recordOp(key: string, op: StateOp): void {
    setStateKey((this.actions.stateOps ??= {}), key, op);
  }

  private dropOp(key: string): void {
    const ops = this.actions.stateOps;
    if (!ops || !Object.prototype.hasOwnProperty.call(ops, key)) return;
    delete ops[key];
    if (Object.keys(ops).length === 0) delete this.actions.stateOps;
  }

  /** @internal Refuses every later write with `reason`: the call writing through it was cancelled. Called by the tool context. */
  seal(reason: Error): void {
    this.sealedBy = reason;
  }

  /** A copy of every current key and value: the stored ones with this call's writes and deletes applied. */
  toObject(): Record<string, unknown> {
    const merged: Record<string, unknown> = { ...this.base };
    for (const [k, v] of Object.entries(this.delta)) {
      if (v === null) delete merged[k];
      else setStateKey(merged, k, v);
    }
    return merged;
  }
}

const MAX_DEPTH = 100;

function toJsonCopy(key: string, value: unknown, path: string, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new StateValueError(key, path, `nesting deeper than ${MAX_DEPTH} (a cycle?)`);
  switch (typeof value) {
    case 'string':
      checkStorableText(key, path, value);
      return value;
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new StateValueError(key, path, `${value} is not a finite number`);
      return value;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return value.map((v, i) => toJsonCopy(key, v, `${path}/${i}`, depth + 1));
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        throw new StateValueError(key, path, `a ${proto?.constructor?.name ?? 'non-plain'} instance is not plain JSON`);
      }
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined) continue;
        checkStorableText(key, `${path}/${k}`, k);
        setStateKey(out, k, toJsonCopy(key, v, `${path}/${k}`, depth + 1));
      }
      return out;
    }
    default:
      throw new StateValueError(key, path, `a ${typeof value} is not JSON`);
  }
}

/** The NUL character, and a surrogate without its pair (not Unicode text: PostgreSQL refuses both). */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Refuses text no store can keep the same (PostgreSQL refuses it), so every store refuses it alike, when the tool writes it. */
function checkStorableText(key: string, path: string, text: string): void {
  const found = UNSTORABLE.exec(text);
  if (!found) return;
  const code = found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  throw new StateValueError(key, path, found[0] === '\u0000' ? 'a string with the NUL character (U+0000) cannot be stored' : `a string with a lone surrogate (U+${code}) is not Unicode text and cannot be stored`);
}
