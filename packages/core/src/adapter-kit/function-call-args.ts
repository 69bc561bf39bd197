import type { FunctionCall } from '../model/content';
import { type JsonCopyRules, JsonBreach, copyJson, jsonWalk } from '../validation/json-copy';
import { DEFAULT_ARGUMENT_LIMITS } from '../validation/argument-parser';

/**
 * Turns arguments a provider sent as JSON text (streamed fragments joined, or a string field) into
 * {@link FunctionCall.args}: blank text is `{}` (a call without parameters), text that parses to an
 * object is that object, and anything else stays the raw text, so the executor answers the model with a
 * `MALFORMED_ARGUMENTS` error instead of the run crashing.
 *
 * @example
 * ```ts
 * argsFromJsonText('{"city":"Paris"}'); // { city: 'Paris' }
 * argsFromJsonText('{"city": "Pa');     // '{"city": "Pa' (reported to the model as malformed)
 * ```
 */
export function argsFromJsonText(text: string): FunctionCall['args'] {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : text;
  } catch {
    return text;
  }
}

/**
 * Turns arguments a provider sent as an already-parsed JSON value (Anthropic `input`, Gemini `args`)
 * into {@link FunctionCall.args}: an object of plain data becomes a plain-JSON copy; any other object is
 * left as it is, for the argument check to refuse (`MALFORMED_ARGUMENTS`): one holding a number JSON
 * cannot carry (such as the `Infinity` JSON.parse makes of the model's `1e999`: a JSON round trip would
 * have turned it into `null` and run the tool), a function, a class instance, a getter or Proxy that
 * throws when read (never thrown here). Arguments longer than the default argument limits' `maxChars`
 * (1,000,000 characters of JSON text) or deeper than 1,000 levels are not copied either (the copy stops
 * there) and go on as they are, for the argument check to take or refuse by the run's limits. Anything but an object becomes its JSON text
 * (or its text, for what JSON cannot write), which the executor reports to the model as malformed.
 * The copy matters: SDKs parse responses with the `fetch` of whatever realm they run in, and the
 * executor accepts only plain objects of its own.
 */
export function argsFromJsonValue(value: unknown): FunctionCall['args'] {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null) return scalarText(value);
  let array = false;
  try {
    if ((array = Array.isArray(value))) return JSON.stringify(value);
    const copy = copyJson(value, PARSED_DATA, jsonWalk(MAX_DEPTH, DEFAULT_ARGUMENT_LIMITS.maxChars));
    return copy instanceof JsonBreach ? (value as Record<string, unknown>) : (copy as Record<string, unknown>);
  } catch {
    // A getter or Proxy trap threw (a revoked Proxy throws on every read): the argument check answers it.
    // An array JSON cannot write (a cycle, a BigInt) is still an array to the executor.
    return array ? '[]' : (value as Record<string, unknown>);
  }
}

/** A value that is no object as text: its JSON, or for what JSON cannot write (a BigInt, a symbol, a function) its `String`. */
function scalarText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Plain data as JSON.parse makes it, in any realm. */
const PARSED_DATA: JsonCopyRules = { values: 'plain', anyRealm: true };

/** Deeper than this an object is left as it is: the argument check refuses what is deeper than its `maxDepth`. */
const MAX_DEPTH = 1000;

/**
 * The arguments of a function call in the history, as the object providers that take structured
 * arguments (Anthropic `tool_use.input`, Gemini `functionCall.args`) require. Raw text is parsed; text
 * that does not parse to an object reached the history only because the model sent it malformed, and
 * the executor already answered that call with an error, so `{}` keeps the history valid.
 *
 * @example
 * ```ts
 * { type: 'tool_use', id: call.id, name: call.name, input: argsAsObject(call.args) }
 * ```
 */
export function argsAsObject(args: FunctionCall['args']): Record<string, unknown> {
  const parsed = typeof args === 'string' ? argsFromJsonText(args) : args;
  return typeof parsed === 'string' ? {} : parsed;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
