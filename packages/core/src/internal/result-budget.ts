import { InvalidToolResultError } from '../errors/tool-call-errors';
import { ToolFile, ToolResult } from '../tools/tool-file';
import { type JsonCopyRules, type JsonWalk, JsonBreach, copyJson, copyJsonResult, jsonWalk, renewedJsonWalk } from '../validation/json-copy';
import { thrownMessage } from '../errors/thrown-message';

/** Nesting a result may have; deeper (or circular) results are refused. */
const MAX_RESULT_DEPTH = 512;

/** A tool's response as the model gets it, checked: see {@link inspectResult}. */
export interface InspectedResult {
  /** A plain-JSON copy of the response: shares no object with what the tool returned (or keeps). */
  response: Record<string, unknown>;
  /** Its JSON text, when it may be longer than the budget; else `undefined`. */
  text?: string;
}

/**
 * Checks that a tool's response is JSON that survives a round trip — no functions, symbols, BigInt,
 * NaN/Infinity, Map/Set (which JSON turns into `{}`), cycles, or getters and `toJSON`s that throw — and
 * copies it as JSON would (each `toJSON` applied once, `undefined` members left out, `undefined` in an
 * array made `null`), so that the stored and yielded response shares no object the tool keeps and
 * changes later. Returns the copy, with its JSON text when it may be longer than `maxChars`. One walk,
 * with no string building: it bounds the JSON length from above (every character escaped), so the
 * usual small result is never serialized here; only a result that may be over the budget is.
 *
 * @throws InvalidToolResultError naming the key of the first bad value.
 */
export function inspectResult(toolName: string, response: Record<string, unknown>, maxChars: number): InspectedResult {
  // The walk of the result inspected last, when it is over: taken (a result read inside another's getter or toJSON makes its own), put back when the copy is made.
  const walk = renewedJsonWalk(spareWalk, MAX_RESULT_DEPTH, Infinity);
  spareWalk = undefined;
  let copied: unknown;
  try {
    copied = copyJsonResult(response, RESULT_RULES, walk);
  } catch (error) {
    throw new InvalidToolResultError(toolName, `reading it failed (${thrownMessage(error)})`, error);
  }
  if (copied instanceof JsonBreach) throw new InvalidToolResultError(toolName, breachReason(copied));
  let copy = copied as Record<string, unknown>;
  // Escaping at most sextuples a string's character: an upper bound of the JSON text's length.
  let length = walk.chars + 5 * walk.stringChars;
  spareWalk = walk;
  // A `toJSON` may make the response itself something other than an object: wrapped as any other such result is.
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) {
    // `{"result":` and `}`, and `null` for no value.
    length += copy === undefined ? 15 : 11;
    copy = { result: copy === undefined ? null : copy };
  }
  return length <= maxChars ? { response: copy } : { response: copy, text: JSON.stringify(copy) };
}

/** The walk of the result inspected last (see {@link inspectResult}), while no inspection uses it. */
let spareWalk: JsonWalk | undefined;

/**
 * `value` as JSON carries it, copied by the same walk as a result's check (each member read once: the
 * copy is what was checked); or, as `problem`, what JSON cannot carry in it (a BigInt, a cycle, a function,
 * NaN…, e.g. `the value of "total" is a BigInt (…)`).
 */
export function copiedAsJson(value: unknown): { copy: unknown; problem?: undefined } | { problem: string } {
  try {
    const copied = copyJson(value, RESULT_RULES, jsonWalk(MAX_RESULT_DEPTH, Infinity));
    return copied instanceof JsonBreach ? { problem: breachReason(copied) } : { copy: copied };
  } catch (error) {
    return { problem: `reading it failed (${thrownMessage(error)})` };
  }
}

/** A result is taken as JSON takes it; files go beside it, never in it. */
const RESULT_RULES: JsonCopyRules = {
  values: 'as-json',
  refuse: (value) => (value instanceof ToolFile || value instanceof ToolResult ? 'is a file (a tool returns files beside the JSON: toolResult(value, [files]), or a toolFile alone; a callback\'s response is JSON only)' : undefined),
};

/** Why a result is refused, naming the key of the bad value. */
function breachReason(breach: JsonBreach): string {
  if (breach.kind === 'depth') return `it is nested deeper than ${MAX_RESULT_DEPTH} levels, or circular`;
  return `${breach.key === '' ? 'the result' : `the value of "${breach.key}"`} ${breach.what}`;
}

/** What the model gets instead of a result over the budget. */
export interface TruncatedResult {
  /** Always `true`: tells the model (and code reading the response) that this is not the tool's own result. */
  truncated: true;
  /** Characters of the whole result's JSON. */
  originalChars: number;
  /** The first and last characters of the JSON text (not valid JSON on their own). */
  head: string;
  /** The last characters of the JSON text (about a third of the budget; the head gets the rest). */
  tail: string;
  /** For the model: how long the result was, how much was left out and, when saved, the artifact holding it all. */
  note: string;
  /** Name of the artifact holding the whole result, when an artifact service is configured. */
  artifact?: string;
}

/**
 * Cuts `text` (a result's JSON) so that what is sent, the {@link TruncatedResult} as JSON, is at most
 * `maxChars` characters: the head and tail are escaped again in it (every `"` becomes `\"`), so their
 * share is counted escaped. Of the room the note and fields leave, the head gets two thirds and the tail
 * one third. A budget smaller than the note itself leaves head and tail empty.
 */
export function truncatedResult(text: string, maxChars: number, artifact?: string): TruncatedResult {
  const shell = (head: string, tail: string): TruncatedResult => {
    const omitted = text.length - head.length - tail.length;
    const note =
      `The result was ${text.length} characters of JSON, over the limit of ${maxChars}; ${omitted} characters in the middle were left out.` +
      (artifact ? ` The whole result is saved as the artifact "${artifact}".` : '');
    const result: TruncatedResult = { truncated: true, originalChars: text.length, head, tail, note };
    if (artifact) result.artifact = artifact;
    return result;
  };
  // The fields around head and tail, with `omitted` at its widest (all of the text).
  const room = Math.max(0, maxChars - JSON.stringify(shell('', '')).length);
  const headRoom = Math.floor((room * 2) / 3);
  const headChars = longestFitting(text.length, headRoom, (n) => text.slice(0, n));
  const tailChars = longestFitting(text.length - headChars, room - headRoom, (n) => (n === 0 ? '' : text.slice(-n)));
  return shell(text.slice(0, headChars), tailChars > 0 ? text.slice(-tailChars) : '');
}

/** The largest `n <= limit` whose `piece(n)`, escaped as a JSON string, takes at most `room` characters beyond its quotes. */
function longestFitting(limit: number, room: number, piece: (n: number) => string): number {
  let low = 0;
  let high = Math.min(limit, room);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (JSON.stringify(piece(mid)).length - 2 <= room) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** `{"error":}`: what an error response adds around the error's body. */
const ERROR_WRAPPER_CHARS = '{"error":}'.length;

/**
 * An error response's body (`{ code, message, details? }`) cut, like a result, so that the response
 * (`{ "error": body }`) as JSON is at most `maxChars` characters: first its `details` are left out
 * (`detailsOmitted` says how long they were), then its message is cut to the start that fits, ending
 * with `…`. The code is always kept, even when it alone is over a tiny budget. Returns the body itself when it fits.
 */
export function fittedErrorBody(body: Record<string, unknown>, maxChars: number): Record<string, unknown> {
  const room = maxChars - ERROR_WRAPPER_CHARS;
  // Escaping at most sextuples a character: the usual short error needs no JSON text built.
  if (body.details === undefined && body.detailsOmitted === undefined && String(body.message).length * 6 + String(body.code).length * 6 + 64 <= room) return body;
  if (JSON.stringify(body).length <= room) return body;
  const { details, detailsOmitted, ...fitted } = body;
  if (details !== undefined) {
    fitted.detailsOmitted = `the error's details were ${JSON.stringify(details).length} characters of JSON, over the limit of ${maxChars} for the whole response`;
  } else if (detailsOmitted !== undefined) {
    fitted.detailsOmitted = detailsOmitted;
  }
  const message = String(fitted.message);
  const rest = JSON.stringify({ ...fitted, message: '' }).length;
  // The message's start whose escaped text fits the room the other fields leave, and the `…`.
  const kept = longestFitting(message.length, Math.max(0, room - rest - 1), (n) => message.slice(0, n));
  fitted.message = kept < message.length ? `${message.slice(0, kept)}…` : message;
  return fitted;
}
