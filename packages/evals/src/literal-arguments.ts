import type { JsonValue } from '@toolsmith/core';

/**
 * Arguments a call was made with, as expected-call `args` that compare them as they are: an argument that
 * is, or holds, an object with a `$pattern` or `$equals` key would read as a matcher, so it is wrapped in
 * `{ $equals: value }` (ADK files read, sessions recorded).
 */
export function literalArguments(args: Record<string, unknown>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(args)) {
    // Defined, not assigned: a `__proto__` key JSON.parse made stays a key (and is expected as such).
    Object.defineProperty(out, key, { value: (holdsMatcherKey(value) ? { $equals: value } : value) as JsonValue, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Whether `value` is or holds (at any depth) an object with a `$pattern` or `$equals` key. */
export function holdsMatcherKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsMatcherKey);
  if (typeof value !== 'object' || value === null) return false;
  return '$pattern' in value || '$equals' in value || Object.values(value).some(holdsMatcherKey);
}
