import type { JsonValue } from '@toolsmith/core';

/**
 * Arguments a call was made with, as expected-call `args` that compare them as they are: an argument that
 * is, or holds, an object with a `$pattern` or `$equals` key would read as a matcher, so it is wrapped in
 * `{ $equals: value }` (ADK files read, sessions recorded).
 */
export function literalArguments(args: Record<string, unknown>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(args)) out[key] = (holdsMatcherKey(value) ? { $equals: value } : value) as JsonValue;
  return out;
}

/** Whether `value` is or holds (at any depth) an object with a `$pattern` or `$equals` key. */
export function holdsMatcherKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsMatcherKey);
  if (typeof value !== 'object' || value === null) return false;
  return '$pattern' in value || '$equals' in value || Object.values(value).some(holdsMatcherKey);
}
