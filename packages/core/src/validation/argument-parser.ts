import { ArgumentsLimitError, MalformedArgumentsError } from '../errors/tool-call-errors';
import { jsonScalarChars } from './json-chars';

/** Bounds on what a model may send as one call's arguments. */
export interface ArgumentLimits {
  /**
   * Maximum size in characters of the JSON text; arguments that arrive as an object count the characters of
   * the JSON text they would be (brackets, commas, colons, keys and strings with their quotes, numbers as
   * JSON writes them, `true`/`false`/`null`; escapes not counted). Default 1,000,000.
   */
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
  if (depth > limits.maxDepth) throw tooDeep(toolName, limits);
  const counting = budget.chars !== -Infinity;
  if (Array.isArray(value)) {
    // `[`, `]` and a comma between items.
    if (counting) spend(toolName, budget, value.length === 0 ? 2 : value.length + 1, limits);
    for (const item of value) {
      if (typeof item === 'object' && item !== null) inspect(toolName, item, depth + 1, limits, budget);
      else if (counting) spend(toolName, budget, jsonScalarChars(item), limits);
    }
    return;
  }
  const keys = Object.keys(value as object);
  if (counting) spend(toolName, budget, keys.length === 0 ? 2 : keys.length + 1, limits);
  for (const key of keys) {
    if (FORBIDDEN_KEYS.has(key)) {
      throw new MalformedArgumentsError(toolName, `the key "${key}" is not allowed in arguments`);
    }
    // The key with its quotes and colon.
    if (counting) spend(toolName, budget, key.length + 3, limits);
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null) inspect(toolName, child, depth + 1, limits, budget);
    else if (counting) spend(toolName, budget, jsonScalarChars(child), limits);
  }
  // JSON.parse creates "__proto__" as an own key, which Object.keys lists; an object literal could
  // still carry a non-Object prototype, which arguments never need.
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null && !Array.isArray(value)) {
    throw new MalformedArgumentsError(toolName, 'arguments must be plain JSON objects');
  }
}

function spend(toolName: string, budget: { chars: number }, n: number, limits: ArgumentLimits): void {
  budget.chars -= n;
  if (budget.chars < 0) throw tooLarge(toolName, limits);
}

/** `ARGUMENTS_TOO_DEEP`: the arguments (or a property a repair decoded) nest deeper than `limits.maxDepth`. */
export function tooDeep(toolName: string, limits: ArgumentLimits): ArgumentsLimitError {
  return new ArgumentsLimitError('ARGUMENTS_TOO_DEEP', `Arguments for tool "${toolName}" are nested deeper than ${limits.maxDepth} levels.`);
}

function tooLarge(toolName: string, limits: ArgumentLimits): ArgumentsLimitError {
  return new ArgumentsLimitError(
    'ARGUMENTS_TOO_LARGE',
    `Arguments for tool "${toolName}" are larger than ${limits.maxChars} characters.`,
  );
}
