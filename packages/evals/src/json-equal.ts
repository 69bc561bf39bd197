/**
 * Whether two values are equal as JSON sees them: numbers by value (`-0` equals `0`: JSON text cannot
 * tell them apart), arrays item by item, objects by their own keys whatever their prototype or realm
 * (arguments parsed in another realm, or made with `Object.create(null)`, are still the same JSON).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => jsonEqual(item, (b as unknown[])[i]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
