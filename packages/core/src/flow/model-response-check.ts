import { generateCallId } from '../adapter-kit/call-id';
import { InvalidModelResponseError } from '../errors/invalid-model-response-error';
import { MalformedArgumentsError } from '../errors/tool-call-errors';
import { ToolsmithError } from '../errors/toolsmith-error';
import { type ArgumentLimits, parseArguments } from '../validation/argument-parser';
import type { FunctionCall, Part } from '../model/content';
import type { LlmResponse } from '../model/llm-response';

/** A model response that passed {@link checkModelResponse}, ready to become a stored event. */
export interface CheckedModelResponse {
  response: LlmResponse;
  /**
   * Calls whose arguments cannot be stored (nested past JSON's reach, circular, BigInt …), by call id,
   * with the error their response carries. Their stored `args` are `{}`; they never run.
   */
  refusedCalls?: ReadonlyMap<string, ToolsmithError>;
}

/** The ids of the function calls stored in a session, read up to `events`; `ids` made at the first call found (see {@link collectCallIds}). */
export interface CallIdCache {
  events: number;
  ids?: Set<string>;
}

/** Where the calls stored in the session so far are (an invocation's context): their ids are read only when the response has a call. */
export interface EarlierCalls {
  readonly callIdCache: CallIdCache;
  readonly session: { readonly events: readonly { author: string; content?: { parts: readonly Part[] } }[] };
}

/**
 * Checks a complete model response at the boundary, before anything of it is stored or run: its shape
 * (an object; `content.parts` an array of part objects; `text` a string; function calls with a string
 * name and object or JSON-text args; no function responses written by the model, no partial calls), unique call ids
 * (a call whose id is missing, empty, or repeats one of the same response or of `earlier` — the
 * session's — gets a fresh id, so every call is answered exactly once, in order, and an answer can only
 * mean one call), and that what will be stored serializes as JSON.
 *
 * @throws InvalidModelResponseError when the response cannot be stored as it is.
 */
export function checkModelResponse(raw: unknown, modelName: string, limits: ArgumentLimits, earlier?: EarlierCalls): CheckedModelResponse {
  if (!isRecord(raw)) throw new InvalidModelResponseError(modelName, `expected an object, got ${describe(raw)}`);
  const response = raw as LlmResponse;
  const content: unknown = response.content;
  if (content === undefined || content === null) return { response: content === null ? { ...response, content: undefined } : response };
  if (!isRecord(content)) throw new InvalidModelResponseError(modelName, `"content" must be an object, got ${describe(content)}`);
  if (!Array.isArray(content.parts)) throw new InvalidModelResponseError(modelName, `"content.parts" must be an array, got ${describe(content.parts)}`);

  let parts = content.parts as unknown[];
  // The response's call ids so far: the first alone, a set from the second on (the usual response has one call).
  let firstId: string | undefined;
  let ids: Set<string> | undefined;
  let sessionRead = false;
  let sessionIds: ReadonlySet<string> | undefined;
  // Only object args and provider blocks can fail to serialize: text and JSON-text args always do.
  let needsJsonCheck = false;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index];
    if (!isRecord(part)) throw new InvalidModelResponseError(modelName, `part ${index} must be an object, got ${describe(part)}`);
    if (part.text !== undefined && typeof part.text !== 'string') throw new InvalidModelResponseError(modelName, `part ${index} has "text" that is not a string`);
    if (part.thought !== undefined && typeof part.thought !== 'boolean') throw new InvalidModelResponseError(modelName, `part ${index} has "thought" that is not a boolean`);
    if (part.functionResponse !== undefined) throw new InvalidModelResponseError(modelName, `part ${index} is a function response; only the runner answers calls`);
    if (part.partialFunctionCall !== undefined) throw new InvalidModelResponseError(modelName, `part ${index} is a partial function call; only partial responses carry one`);
    if (part.providerData !== undefined) needsJsonCheck = true;
    const call: unknown = part.functionCall;
    if (call === undefined) continue;
    if (!isRecord(call)) throw new InvalidModelResponseError(modelName, `part ${index} has a "functionCall" that is not an object`);
    if (typeof call.name !== 'string') throw new InvalidModelResponseError(modelName, `the function call in part ${index} has no string "name"`);
    const args: unknown = call.args;
    if (args !== undefined && args !== null && typeof args !== 'string' && !(isRecord(args) && !Array.isArray(args))) {
      throw new InvalidModelResponseError(modelName, `the function call in part ${index} has "args" that are neither an object nor JSON text`);
    }
    // Object args from a provider's parsed JSON are plain data; only something else (a cycle, a BigInt,
    // nesting past what JSON.stringify can take) needs the serialization check.
    if (isRecord(args) && !isPlainJson(args, 0)) needsJsonCheck = true;
    if (!sessionRead) {
      sessionRead = true;
      sessionIds = earlier && collectCallIds(earlier.callIdCache, earlier.session.events);
    }
    let id = typeof call.id === 'string' ? call.id : '';
    if (id === '' || id === firstId || ids?.has(id) || sessionIds?.has(id)) {
      id = generateCallId();
      if (parts === content.parts) parts = parts.slice();
      parts[index] = { ...part, functionCall: { ...call, id } };
    }
    if (firstId === undefined) firstId = id;
    else (ids ??= new Set([firstId])).add(id);
  }
  let checked: LlmResponse = parts === content.parts ? response : { ...response, content: { ...(content as object), parts } as LlmResponse['content'] };
  if (!needsJsonCheck) return { response: checked };
  if (serializes(checked.content)) return { response: checked };

  // Slow path: find the calls whose arguments cannot be stored, refuse them, and store `{}` in their place.
  const refusedCalls = new Map<string, ToolsmithError>();
  const safeParts = (checked.content!.parts as Part[]).map((part) => {
    const call = part.functionCall;
    if (!call || typeof call.args !== 'object' || call.args === null || serializes(call.args)) return part;
    refusedCalls.set(call.id, refusalFor(call, limits));
    return { ...part, functionCall: { id: call.id, name: call.name, args: {} } };
  });
  checked = { ...checked, content: { ...checked.content!, parts: safeParts } };
  if (!serializes(checked.content)) throw new InvalidModelResponseError(modelName, 'its content cannot be stored as JSON');
  return { response: checked, refusedCalls };
}

/** The error the model gets for arguments that cannot be stored: the parser's own limit error when one applies. */
function refusalFor(call: FunctionCall, limits: ArgumentLimits): ToolsmithError {
  try {
    parseArguments(call.name, call.args, limits);
  } catch (error) {
    if (ToolsmithError.isInstance(error)) return error;
  }
  return new MalformedArgumentsError(call.name, 'they cannot be represented as JSON (a cycle, a BigInt or a similar value)');
}

function serializes(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false; // RangeError (too deep), TypeError (cycle, BigInt), or a throwing toJSON/getter
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value;
}

/** Nesting plain object args may have before the slow serialization check looks at them. */
const PLAIN_DEPTH = 64;

/** True for plain JSON data (objects, arrays, strings, finite numbers, booleans, null) nested at most {@link PLAIN_DEPTH} deep. */
function isPlainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth >= PLAIN_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i], depth + 1)) return false;
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      const record = value as Record<string, unknown>;
      for (const key in record) if (!isPlainJson(record[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/** The ids of every function call in `events` (model calls and the runner's requests), added to `seen` from where it stopped; `undefined` while there are none. */
export function collectCallIds(seen: CallIdCache, events: readonly { author: string; content?: { parts: readonly Part[] } }[]): ReadonlySet<string> | undefined {
  for (; seen.events < events.length; seen.events++) {
    const event = events[seen.events];
    if (event.author === 'user') continue;
    for (const part of event.content?.parts ?? []) if (part.functionCall) (seen.ids ??= new Set()).add(part.functionCall.id);
  }
  return seen.ids;
}
