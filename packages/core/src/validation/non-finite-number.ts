/** Deeper than this the walk stops looking (a value parsed from JSON text is never this deep in practice; a cycle ends here). */
const MAX_DEPTH = 1000;

/**
 * Where `value` holds a number JSON cannot carry (`NaN`, `Infinity`, `-Infinity`: `JSON.parse` makes
 * `Infinity` of `1e999`, and JSON.stringify would write `null`): the JSON pointer of the first one
 * (`""` for `value` itself, `/list/1` in `{ list: [1, Infinity] }`) and the number, or `undefined` when
 * there is none. Arrays and own enumerable members are searched, as JSON takes them.
 */
export function nonFiniteNumberIn(value: unknown): { pointer: string; number: number } | undefined {
  return find(value, '', 0);
}

function find(value: unknown, pointer: string, depth: number): { pointer: string; number: number } | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { pointer, number: value };
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      // Only objects and numbers can hold one: the usual string or boolean item makes no pointer.
      if (typeof item === 'number' ? !Number.isFinite(item) : typeof item === 'object' && item !== null) {
        const found = find(item, `${pointer}/${i}`, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === 'number' ? !Number.isFinite(member) : typeof member === 'object' && member !== null) {
      const found = find(member, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}
