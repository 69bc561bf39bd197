// A state key is any string: `__proto__`, `constructor` and `hasOwnProperty` included. A plain record
// would take an assigned `__proto__` as its prototype (the key lost) and answer a read of `constructor`
// with an inherited member; these write and read only a record's own keys.

/** Writes `value` at `key` of a state record (a delta, a scope's values, a snapshot) as an own key. */
export function setStateKey<T>(record: Record<string, T>, key: string, value: T): void {
  // Assigned, `__proto__` would set the record's prototype and the key would be lost.
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** The value of `record`'s own key `key`; `undefined` when it has none (never an inherited member such as `constructor`). */
export function ownStateValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
