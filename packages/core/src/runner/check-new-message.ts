import { REQUEST_CONFIRMATION, isRecord } from '../confirmation/request-confirmation';
import { InvalidMessageError } from '../errors/invalid-message-error';
import { unfitIdentifierCharacter } from '../internal/identifier-characters';
import { type ArgumentLimits, DEFAULT_ARGUMENT_LIMITS } from '../validation/argument-parser';
import { jsonScalarChars } from '../validation/json-chars';

/**
 * Why `message` cannot start an invocation, or `undefined` when it is a well-formed user `Content`
 * (`role` and `parts`, no other key) within `limits` (the argument limits: each part nests at most `maxDepth` levels, and the
 * parts together are at most `maxChars` characters of the JSON text they would be, counted as arguments are: brackets, commas,
 * colons, keys and strings with their quotes, numbers as JSON writes them, `true`/`false`/`null`). Nothing of a refused message is stored, so a
 * message no store or page could read back (50,000 levels deep, say) never reaches a session.
 * The edited arguments of a confirmation answer (`decision: "edit"`) are left out of this measure: they
 * are measured as a tool call's arguments, by the same limits, when the edit is checked against its tool
 * (`checkEditedArguments`, before anything is stored), so an edit past them is refused with
 * `CONFIRMATION_EDIT_INVALID` and its problems, and one within them is not refused for the three levels
 * that hold it. So are the arguments of the answer's copy of the original call (`originalFunctionCall`):
 * they are measured here alone, as the call's arguments were (so any call the runner accepted can be
 * answered), and must then equal the call's (`checkFunctionResponses`).
 */
export function checkNewMessage(message: unknown, limits: ArgumentLimits = DEFAULT_ARGUMENT_LIMITS): InvalidMessageError | undefined {
  try {
    return checkReadMessage(message, limits);
  } catch {
    // A getter or a Proxy that throws: the message is not data any store could keep.
    return new InvalidMessageError('reading it threw an error (a getter or a Proxy); send plain data');
  }
}

/** {@link checkNewMessage}'s checks, which may throw where reading the message throws. */
function checkReadMessage(message: unknown, limits: ArgumentLimits): InvalidMessageError | undefined {
  if (typeof message !== 'object' || message === null) return new InvalidMessageError('it is not an object');
  const { role, parts } = message as { role?: unknown; parts?: unknown };
  if (role !== 'user') return new InvalidMessageError(`its role is ${JSON.stringify(role)}, not "user"`);
  if (!Array.isArray(parts) || parts.length === 0) return new InvalidMessageError('it has no parts');
  // Anything else would be stored as sent, past the limits below (a 5,000-deep `meta` made sessions unreadable).
  for (const key in message) {
    if (key !== 'role' && key !== 'parts' && Object.hasOwn(message, key)) {
      return new InvalidMessageError(`it has a key ${JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key)} a user Content does not have (only "role" and "parts")`);
    }
  }
  const budget = { chars: limits.maxChars };
  for (let index = 0; index < parts.length; index++) {
    const part: unknown = parts[index];
    if (typeof part !== 'object' || part === null) return new InvalidMessageError(`part ${index} is not an object`);
    const { text, functionResponse, inlineData, functionCall } = part as { text?: unknown; functionResponse?: unknown; inlineData?: unknown; functionCall?: unknown };
    if (text !== undefined && typeof text !== 'string') return new InvalidMessageError(`part ${index} has a non-string text`);
    // Only models make calls; a user message carrying one (e.g. a forged confirmation request) is refused whole.
    if (functionCall !== undefined) return new InvalidMessageError(`part ${index} is a function call; only a model can make one`);
    const files = (functionResponse as { parts?: unknown } | undefined)?.parts;
    if (files !== undefined && !isFileParts(files)) {
      return new InvalidMessageError(`part ${index} has a functionResponse whose "parts" are not [{ inlineData: { mimeType, data } }] with string values`);
    }
    if (text === undefined && functionResponse === undefined && inlineData === undefined) {
      return new InvalidMessageError(`part ${index} has no text, functionResponse or inlineData`);
    }
    const over = isPlainData(part) ? exceedsLimits(withoutArgumentsMeasuredAlone(part as { functionResponse?: unknown }), 1, limits.maxDepth, budget) : 'not-json';
    if (over === 'not-json') {
      return new InvalidMessageError(`part ${index} holds a value JSON does not carry as it is (a function, a symbol, a BigInt, or an object that is not a plain object or array)`);
    }
    if (over === 'depth') return new InvalidMessageError(`part ${index} is nested deeper than ${limits.maxDepth} levels`);
    if (over === 'size') return new InvalidMessageError(`it is larger than ${limits.maxChars} characters`);
    const copied = copiedCallArguments(part as { functionResponse?: unknown });
    const copyOver = copied === undefined ? undefined : argumentsExceedLimits(copied, limits);
    if (copyOver) {
      const breach = copyOver === 'depth' ? `nested deeper than ${limits.maxDepth} levels` : copyOver === 'size' ? `larger than ${limits.maxChars} characters` : 'not JSON';
      return new InvalidMessageError(`part ${index} copies a call whose arguments are ${breach}, which no call the runner accepted has`);
    }
  }
  return undefined;
}

/** Longest `RunInput.messageId`, in UTF-16 code units. */
export const MAX_MESSAGE_ID_LENGTH = 256;

/**
 * Why `messageId` cannot name a message, or `undefined`: it must be a non-empty string of at most
 * {@link MAX_MESSAGE_ID_LENGTH} characters, with no control characters and no lone surrogates, so every
 * store keeps it as given (PostgreSQL refuses NUL) and two ids never collapse into one.
 */
export function checkMessageId(messageId: unknown): InvalidMessageError | undefined {
  if (typeof messageId !== 'string' || messageId.length === 0) return new InvalidMessageError(`its messageId is ${typeof messageId === 'string' ? 'empty' : `a ${typeof messageId}, not a string`}`);
  if (messageId.length > MAX_MESSAGE_ID_LENGTH) return new InvalidMessageError(`its messageId is longer than ${MAX_MESSAGE_ID_LENGTH} characters`);
  if (unfitIdentifierCharacter(messageId)) return new InvalidMessageError('its messageId has a control character or a lone surrogate');
  return undefined;
}

/** What a message's part breaks: a limit, or JSON itself (a value JSON would drop, change or refuse). */
type Breach = 'depth' | 'size' | 'not-json';

/**
 * Which limit `value` breaks, if any, spending from `budget` the characters of its JSON text (a key
 * whose value is `undefined` takes none: JSON leaves it out), or `not-json` for a value JSON does not
 * carry as it is; the walk stops at the first one (never deeper than `maxDepth` + 1).
 */
function exceedsLimits(value: object, depth: number, maxDepth: number, budget: { chars: number }): Breach | undefined {
  if (depth > maxDepth) return 'depth';
  // Plain loops: this runs on every message, and entry arrays were most of its cost.
  if (Array.isArray(value)) {
    // `[`, `]` and a comma between items.
    budget.chars -= value.length === 0 ? 2 : value.length + 1;
    if (budget.chars < 0) return 'size';
    for (let index = 0; index < value.length; index++) {
      const over = exceedsWith(0, value[index], depth, maxDepth, budget);
      if (over) return over;
    }
    return undefined;
  }
  let entries = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = (value as Record<string, unknown>)[key];
    if (child === undefined) continue;
    entries++;
    // The key with its quotes and colon.
    const over = exceedsWith(key.length + 3, child, depth, maxDepth, budget);
    if (over) return over;
  }
  // `{`, `}` and a comma between entries.
  budget.chars -= entries === 0 ? 2 : entries + 1;
  return budget.chars < 0 ? 'size' : undefined;
}

/** One entry of a value at `depth` (`keyChars`: its key's share of the JSON text), counted against the limits. */
function exceedsWith(keyChars: number, child: unknown, depth: number, maxDepth: number, budget: { chars: number }): Breach | undefined {
  if (typeof child === 'object' && child !== null) {
    if (!isPlainData(child)) return 'not-json';
    budget.chars -= keyChars;
    return budget.chars < 0 ? 'size' : exceedsLimits(child, depth + 1, maxDepth, budget);
  }
  if (typeof child === 'function' || typeof child === 'symbol' || typeof child === 'bigint') return 'not-json';
  budget.chars -= keyChars + jsonScalarChars(child);
  return budget.chars < 0 ? 'size' : undefined;
}

/**
 * True for an array or a plain object (made by `{}`, JSON.parse or `Object.create(null)`): what JSON
 * writes as its own members. A class instance (a `Date`, a `Map`, a `Buffer`) is written otherwise or not
 * at all, and one with a `toJSON` of its own is written as whatever that returns, so neither is measured
 * as stored.
 */
function isPlainData(value: object): boolean {
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * `part` with the arguments a confirmation answer carries left out, when it carries any (they are measured
 * as arguments, alone): an edit answer's `args` and the `args` of its copy of the original call
 * (`originalFunctionCall`); else `part` itself.
 */
function withoutArgumentsMeasuredAlone(part: { functionResponse?: unknown }): object {
  const functionResponse = part.functionResponse;
  if (!isRecord(functionResponse) || functionResponse.name !== REQUEST_CONFIRMATION) return part;
  const response = functionResponse.response;
  if (!isRecord(response)) return part;
  const edited = response.decision === 'edit' && isRecord(response.args);
  const original = response.originalFunctionCall;
  const copied = isRecord(original) && original.args !== undefined;
  if (!edited && !copied) return part;
  const measured: Record<string, unknown> = { ...response };
  if (edited) measured.args = {};
  if (copied) measured.originalFunctionCall = { ...original, args: {} };
  return { ...part, functionResponse: { ...functionResponse, response: measured } };
}

/** The `args` of a confirmation answer's copy of the original call (`originalFunctionCall.args`), if it has one. */
function copiedCallArguments(part: { functionResponse?: unknown }): unknown {
  const functionResponse = part.functionResponse;
  if (!isRecord(functionResponse) || functionResponse.name !== REQUEST_CONFIRMATION) return undefined;
  const response = functionResponse.response;
  const original = isRecord(response) ? response.originalFunctionCall : undefined;
  return isRecord(original) ? original.args : undefined;
}

/**
 * Which limit a copy of a call's arguments breaks, measured as the call's arguments were: JSON text by
 * its characters, an object by the JSON text it would be, nested from the arguments object. A true copy
 * of a call the runner accepted breaks none; checkFunctionResponses then compares it with the call.
 */
function argumentsExceedLimits(args: unknown, limits: ArgumentLimits): Breach | undefined {
  if (typeof args === 'string') return args.length > limits.maxChars ? 'size' : undefined;
  if (typeof args !== 'object' || args === null) return exceedsWith(0, args, 0, limits.maxDepth, { chars: limits.maxChars });
  return isPlainData(args) ? exceedsLimits(args, 1, limits.maxDepth, { chars: limits.maxChars }) : 'not-json';
}

/** True for a function response's `parts`: an array of `{ inlineData: { mimeType: string, data: string } }`. */
function isFileParts(parts: unknown): boolean {
  if (!Array.isArray(parts)) return false;
  return parts.every((part: unknown) => {
    const inlineData = (part as { inlineData?: { mimeType?: unknown; data?: unknown } } | null)?.inlineData;
    return typeof inlineData?.mimeType === 'string' && typeof inlineData.data === 'string';
  });
}
