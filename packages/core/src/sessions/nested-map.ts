/**
 * The innermost map of a two-level map (`outer.get(first).get(second)`), made on the way when `create`
 * is true; `undefined` when it does not exist and `create` is false. The ids' own strings are the keys:
 * no key is built per lookup.
 */
export function nestedMap<V>(outer: Map<string, Map<string, Map<string, V>>>, first: string, second: string, create: boolean): Map<string, V> | undefined {
  let middle = outer.get(first);
  if (!middle) {
    if (!create) return undefined;
    outer.set(first, (middle = new Map()));
  }
  let inner = middle.get(second);
  if (!inner && create) middle.set(second, (inner = new Map()));
  return inner;
}
