import { StateValueError } from '../errors/state-value-error';

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
    this.delta[key] = value === undefined || value === null ? null : toJsonCopy(key, value, '', 0);
  }

  /** Removes `key`, recorded as `null` in `delta` so the session service deletes it too. */
  delete(key: string): void {
    if (this.sealedBy) throw this.sealedBy;
    this.delta[key] = null;
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
      else merged[k] = v;
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
        out[k] = toJsonCopy(key, v, `${path}/${k}`, depth + 1);
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
