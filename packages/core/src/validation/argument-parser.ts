import { ArgumentsLimitError, MalformedArgumentsError } from '../errors/tool-call-errors';

/** Bounds on what a model may send as one call's arguments. */
export interface ArgumentLimits {
  /** Maximum size in characters of the JSON text (or of the strings and keys of an object). Default 1,000,000. */
  maxChars: number;
  /** Maximum nesting depth of objects and arrays. Default 64. */
  maxDepth: number;
}

export const DEFAULT_ARGUMENT_LIMITS: ArgumentLimits = { maxChars: 1_000_000, maxDepth: 64 };

/** Keys that could reach an object's prototype when arguments are copied into objects or classes. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Turns what the model sent (JSON text or an object) into a plain arguments object, enforcing the
 * limits and refusing prototype-reaching keys. `""` and whitespace mean `{}` (some providers send that
 * for tools without parameters).
 */
export function parseArguments(
  toolName: string,
  raw: Record<string, unknown> | string | undefined | null,
  limits: ArgumentLimits = DEFAULT_ARGUMENT_LIMITS,
): Record<string, unknown> {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.length > limits.maxChars) throw tooLarge(toolName, limits);
    if (raw.trim() === '') return {};
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new MalformedArgumentsError(toolName, (error as Error).message, { cause: error });
    }
  } else if (raw === undefined || raw === null) {
    return {};
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MalformedArgumentsError(toolName, `expected an object, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  // Fast path for typical short JSON text: each nesting level takes at least two characters, so text of
  // at most 2 × maxDepth characters cannot be too deep, and text without a backslash (no \u escapes)
  // and without the forbidden words cannot contain a forbidden key. The walk would find nothing.
  if (typeof raw === 'string' && raw.length <= 2 * limits.maxDepth && !mayContainForbiddenKey(raw)) {
    return value as Record<string, unknown>;
  }
  // The walk checks depth and keys; for object input it also bounds the size.
  const budget = { chars: typeof raw === 'string' ? -Infinity : limits.maxChars };
  inspect(toolName, value, 1, limits, budget);
  return value as Record<string, unknown>;
}

// Every forbidden key contains "to" (__pro-to__, construc-to-r, pro-to-type); a backslash could spell one
// with escapes. Two short searches are cheaper than one search per word, and a false alarm only costs the walk.
function mayContainForbiddenKey(text: string): boolean {
  return text.includes('to') || text.includes('\\');
}

function inspect(toolName: string, value: unknown, depth: number, limits: ArgumentLimits, budget: { chars: number }): void {
  if (depth > limits.maxDepth) {
    throw new ArgumentsLimitError(
      'ARGUMENTS_TOO_DEEP',
      `Arguments for tool "${toolName}" are nested deeper than ${limits.maxDepth} levels.`,
    );
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === 'object' && item !== null) inspect(toolName, item, depth + 1, limits, budget);
      else if (typeof item === 'string') spend(toolName, budget, item.length, limits);
    }
    return;
  }
  for (const key of Object.keys(value as object)) {
    if (FORBIDDEN_KEYS.has(key)) {
      throw new MalformedArgumentsError(toolName, `the key "${key}" is not allowed in arguments`);
    }
    spend(toolName, budget, key.length, limits);
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null) inspect(toolName, child, depth + 1, limits, budget);
    else if (typeof child === 'string') spend(toolName, budget, child.length, limits);
  }
  // JSON.parse creates "__proto__" as an own key, which Object.keys lists; an object literal could
  // still carry a non-Object prototype, which arguments never need.
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null && !Array.isArray(value)) {
    throw new MalformedArgumentsError(toolName, 'arguments must be plain JSON objects');
  }
}

function spend(toolName: string, budget: { chars: number }, n: number, limits: ArgumentLimits): void {
  if (budget.chars === -Infinity) return;
  budget.chars -= n;
  if (budget.chars < 0) throw tooLarge(toolName, limits);
}

function tooLarge(toolName: string, limits: ArgumentLimits): ArgumentsLimitError {
  return new ArgumentsLimitError(
    'ARGUMENTS_TOO_LARGE',
    `Arguments for tool "${toolName}" are larger than ${limits.maxChars} characters.`,
  );
}
