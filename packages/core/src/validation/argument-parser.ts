import { ArgumentsLimitError, MalformedArgumentsError } from '../errors/tool-call-errors';
import type { ToolsmithError } from '../errors/toolsmith-error';
import { type JsonCopyRules, type JsonWalk, JsonBreach, copyJson, copyJsonArguments, jsonWalk, renewedJsonWalk } from './json-copy';

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
 * limits and refusing prototype-reaching keys and anything but plain data. `""` and whitespace mean `{}`
 * (some providers send that for tools without parameters). Always a new object: arguments that arrive as
 * an object are copied in the walk that checks them (each member read once), so changing what this
 * returns never changes `raw`, and a getter or Proxy in `raw` cannot answer one thing to the check and
 * another to the tool.
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
  // at most 2 × maxDepth characters cannot be too deep; text without a backslash (no \u escapes) and
  // without the forbidden words cannot contain a forbidden key; and text without an exponent cannot hold
  // a number JSON.parse makes Infinity (1e999), nor can text of at most 300 characters (without an
  // exponent that takes 309 digits), whatever maxDepth allows. The walk would find nothing.
  if (typeof raw === 'string' && raw.length <= 2 * limits.maxDepth && raw.length <= MAX_FAST_PATH_CHARS && !mayNeedTheWalk(raw)) {
    return value as Record<string, unknown>;
  }
  // One walk checks depth and keys and copies: for object input it also bounds the size, and the copy is
  // what the tool and `beforeTool` get, so nothing they change reaches the model's call as stored or yielded.
  // The walk of the arguments copied last, when it is over: taken (arguments parsed inside another's getter make their own), put back once the copy is made.
  const walk = renewedJsonWalk(spareWalk, limits.maxDepth, typeof raw === 'string' ? Infinity : limits.maxChars);
  spareWalk = undefined;
  const copied = copyJsonArguments(value, ARGUMENT_RULES, walk);
  spareWalk = walk;
  if (copied instanceof JsonBreach) throw argumentsError(toolName, copied, limits);
  return copied as Record<string, unknown>;
}

/** The walk of the arguments copied last (see {@link parseArguments}), while no copy uses it. */
let spareWalk: JsonWalk | undefined;

// Every forbidden key contains "to" (__pro-to__, construc-to-r, pro-to-type); a backslash could spell one
// with escapes; a digit before an e or E may be an exponent. Short searches are cheaper than one search per
// word, and a false alarm only costs the walk.
function mayNeedTheWalk(text: string): boolean {
  return text.includes('to') || text.includes('\\') || EXPONENT.test(text);
}

const EXPONENT = /[0-9][eE]/;

/** Longest text the fast path takes: fewer characters than the 309 digits of the smallest number without an exponent that JSON.parse makes Infinity. */
const MAX_FAST_PATH_CHARS = 300;

/** Arguments are plain data: a class instance, a function, a symbol or a BigInt is not; nor are the prototype-reaching keys. */
const ARGUMENT_RULES: JsonCopyRules = { values: 'plain', forbiddenKeys: FORBIDDEN_KEYS };

/**
 * `args` (arguments given as an object) copied as {@link parseArguments} copies them, by the argument
 * rules and `limits`; or what they break (see {@link argumentsError}).
 */
export function copyArgumentObject(args: object, limits: ArgumentLimits): Record<string, unknown> | JsonBreach {
  return copyJson(args, ARGUMENT_RULES, jsonWalk(limits.maxDepth, limits.maxChars)) as Record<string, unknown> | JsonBreach;
}

/** The error a breach of the argument rules is, for `toolName`'s arguments. */
export function argumentsError(toolName: string, breach: JsonBreach, limits: ArgumentLimits): ToolsmithError {
  switch (breach.kind) {
    case 'depth':
      return tooDeep(toolName, limits);
    case 'size':
      return tooLarge(toolName, limits);
    case 'key':
      return new MalformedArgumentsError(toolName, `the key "${breach.key}" is not allowed in arguments`);
    default:
      return new MalformedArgumentsError(toolName, 'arguments must be plain JSON objects');
  }
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
