import { generateCallId } from '../adapter-kit/call-id';
import { InvalidModelResponseError } from '../errors/invalid-model-response-error';
import { MalformedArgumentsError } from '../errors/tool-call-errors';
import { ToolsmithError } from '../errors/toolsmith-error';
import { type ArgumentLimits, DEFAULT_ARGUMENT_LIMITS, parseArguments } from '../validation/argument-parser';
import { type JsonCopyRules, type JsonWalk, JsonBreach, copyJson, jsonWalk, setMember, isObjectPrototype } from '../validation/json-copy';
import type { Content, FunctionCall, InlineData, Part } from '../model/content';
import { mixedPartProblem } from '../internal/inline-data-rules';
import { modelOutputFile } from '../internal/model-output-file';
import type { FinishReason } from '../model/finish-reason';
import type { LlmResponse, Usage } from '../model/llm-response';
import { thrownMessage } from '../errors/thrown-message';
import { isErrorCode } from '../errors/reportable-error';

/** A model response that passed {@link checkModelResponse}, ready to become a stored event. */
export interface CheckedModelResponse {
  // What the model event stores, and nothing else: the response's `content`, `turnComplete`, `finishReason`,
  // `usage` and `error`, copied as plain JSON data that shares no object with the response (each
  // `undefined` when the response has none). Kept here, not on a response object made for them.
  readonly content: Content | undefined;
  readonly turnComplete: boolean | undefined;
  readonly finishReason: FinishReason | undefined;
  readonly usage: Usage | undefined;
  readonly error: LlmResponse['error'];
  /** The provider's id of the response, when it is a string: not stored (an event has none), only traced (the `chat` span's). */
  readonly responseId: string | undefined;
  /**
   * Calls whose object arguments cannot be stored (not plain JSON data: a cycle, a BigInt, a class
   * instance …; or nested deeper than the argument limit), by call id, with the error their response
   * carries. Their stored `args` are `{}`; they never run.
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

/** A response is plain data, as a message is: arrays, plain objects, strings, numbers, booleans, null. */
// A model's objects may come from another realm (an SDK's `fetch`, a custom model in a jest test): plain all the same.
/** What a response's `error` must be. */
const ERROR_SHAPE = '"error" must be an object with a "code" of 1 to 128 ASCII letters, digits and _.:- (no secret-looking text) and a string "message"';
/** What a model's inline data must be to be stored (see `modelOutputFile`), for the error that refuses it. */
const OUTPUT_FILE_SHAPE = '{ mimeType?: string, data: string, displayName?: string } with no other key, its data base64 (standard or URL-safe)';
const RESPONSE_RULES: JsonCopyRules = { values: 'plain', anyRealm: true };

/**
 * One check, and what it found: the copy, the calls refused, the walk for members past the known ones.
 * Every field is made at once (one shape, no property store grown while it is filled); it is also the
 * result the caller gets (no object made for that).
 */
class Check implements CheckedModelResponse {
  content: Content | undefined = undefined;
  turnComplete: boolean | undefined = undefined;
  finishReason: FinishReason | undefined = undefined;
  usage: Usage | undefined = undefined;
  error: LlmResponse['error'] = undefined;
  responseId: string | undefined = undefined;
  /** Members of no known field (a part's `providerData`, …), each copied by the generic walk, nested at most `limits.maxDepth` levels (its own object is level 1). */
  walk: JsonWalk | undefined = undefined;
  /** The response's call ids so far: the first alone, a set from the second on (the usual response has one call). */
  firstId: string | undefined = undefined;
  ids: Set<string> | undefined = undefined;
  sessionRead = false;
  sessionIds: ReadonlySet<string> | undefined = undefined;
  refusedCalls: Map<string, ToolsmithError> | undefined = undefined;

  constructor(
    readonly modelName: string,
    readonly limits: ArgumentLimits,
    readonly earlier: EarlierCalls | undefined,
  ) {}
}

/**
 * Checks a complete model response at the boundary, before anything of it is stored or run, and copies
 * what will be stored, in one walk that reads each member once: its shape (an object; `content.parts` an
 * array of part objects; `text` a string; function calls with a string name and object or JSON-text args;
 * no function responses written by the model, no partial calls; the content's role `"model"`, which the
 * copy gets when the content has none), that all of it is plain JSON data (a
 * BigInt, NaN or Infinity, a cycle, a `Date` or other class instance, a function such as an own `toJSON` refuse the
 * response), and unique call ids (a call whose id is missing, empty, or repeats one of the same response
 * or of `earlier` — the session's — gets a fresh id, so every call is answered exactly once, in order,
 * and an answer can only mean one call). A call whose object arguments are not plain JSON data, are
 * nested deeper than `limits.maxDepth`, or throw when read (a getter, a revoked Proxy) is refused alone
 * (see {@link CheckedModelResponse.refusedCalls}). A part's inline data is checked as a user's file is
 * (see copyInlineData): a file no provider takes would be sent again, and fail, on every later turn.
 * Nothing of the response object is kept: a model that changes it later changes nothing stored.
 *
 * @throws InvalidModelResponseError when the response cannot be stored as it is.
 */
export function checkModelResponse(raw: unknown, modelName: string, limits: ArgumentLimits, earlier?: EarlierCalls): CheckedModelResponse {
  if (!isRecord(raw)) throw new InvalidModelResponseError(modelName, `expected an object, got ${describe(raw)}`);
  const check = new Check(modelName, limits, earlier);
  try {
    const { content, turnComplete, finishReason, usage, error, responseId } = raw as Record<keyof LlmResponse, unknown>;
    if (content !== undefined && content !== null) check.content = copyContent(content, check);
    if (turnComplete !== undefined) {
      if (typeof turnComplete !== 'boolean') throw invalid(check, `"turnComplete" must be a boolean, got ${describe(turnComplete)}`);
      check.turnComplete = turnComplete;
    }
    if (finishReason !== undefined) check.finishReason = copyFinishReason(finishReason, check);
    if (usage !== undefined) check.usage = copyUsage(usage, check);
    if (error !== undefined && error !== null) {
      if (!isRecord(error)) throw invalid(check, ERROR_SHAPE);
      // Each read once: what is checked is what the event, the span and the store get.
      const { code, message } = error;
      if (!isErrorCode(code) || typeof message !== 'string') throw invalid(check, ERROR_SHAPE);
      check.error = { code, message };
    }
    // Read here, with the rest, so a traced call reads the response as an untraced one does (each member once).
    if (typeof responseId === 'string') check.responseId = responseId;
    return check;
  } catch (thrown) {
    if (thrown instanceof InvalidModelResponseError) throw thrown;
    // A getter or Proxy trap of the response threw (or a cycle overflowed what is not walked by depth).
    throw invalid(check, `reading it threw: ${thrownMessage(thrown)}`);
  }
}

function copyContent(content: unknown, check: Check): Content {
  if (!isRecord(content) || Array.isArray(content)) throw invalid(check, `"content" must be an object, got ${describe(content)}`);
  if (!hasPlainPrototype(content)) throw notPlain(check, '"content"');
  // A content without a role is the model's (custom models often leave it out): stored without one, an
  // adapter would send it as the user's own message. (Set on `{}`, not written as `{ role: 'model' }`: such
  // a literal has room for its one member only, and the next takes a backing store of its own.)
  const copy: Record<string, unknown> = {};
  copy.role = 'model';
  let parts: unknown;
  for (const key in content) {
    if (!Object.prototype.hasOwnProperty.call(content, key)) continue;
    const value = content[key];
    if (value === undefined) continue;
    // A model speaks as the model: a "user" role would be sent back as the user's own message.
    if (key === 'role') {
      if (value !== 'model') throw invalid(check, `"content.role" must be "model", got ${describe(value)}`);
    } else if (key === 'parts') copy.parts = parts = copyParts(value, check);
    else setMember(copy, key, copyOther(value, key, check, '"content"'));
  }
  if (parts === undefined) throw invalid(check, '"content.parts" must be an array, got undefined');
  return copy as unknown as Content;
}

function copyParts(parts: unknown, check: Check): Part[] {
  if (!Array.isArray(parts)) throw invalid(check, `"content.parts" must be an array, got ${describe(parts)}`);
  const count = parts.length;
  const copies: Part[] = new Array(count);
  let kept = 0;
  for (let index = 0; index < count; index++) {
    const copy = copyPart(parts[index], index, check);
    if (copy !== undefined) copies[kept++] = copy;
  }
  if (kept < count) copies.length = kept;
  return copies;
}

/** A part, copied; `undefined` for one that held only a file of no bytes (nothing to store or send). */
function copyPart(part: unknown, index: number, check: Check): Part | undefined {
  if (!isRecord(part)) throw invalid(check, `part ${index} must be an object, got ${describe(part)}`);
  if (Array.isArray(part) || !hasPlainPrototype(part)) throw notPlain(check, `part ${index}`);
  const copy: Record<string, unknown> = {};
  // The part's file: `null` for one of no bytes (left out), `undefined` for none (the usual part: nothing more is read).
  let file: InlineData | null | undefined;
  for (const key in part) {
    if (!Object.prototype.hasOwnProperty.call(part, key)) continue;
    const value = part[key];
    if (value === undefined) continue;
    switch (key) {
      case 'text':
        if (typeof value !== 'string') throw invalid(check, `part ${index} has "text" that is not a string`);
        copy.text = value;
        break;
      case 'thought':
        if (typeof value !== 'boolean') throw invalid(check, `part ${index} has "thought" that is not a boolean`);
        copy.thought = value;
        break;
      case 'functionCall':
        copy.functionCall = copyCall(value, index, check);
        break;
      case 'inlineData':
        // `null` is an absent file, as in a user's part; so is a file of no bytes (nothing to send).
        if (value !== null) {
          file = copyInlineData(value, index, check);
          if (file !== null) copy.inlineData = file;
        }
        break;
      case 'functionResponse':
        throw invalid(check, `part ${index} is a function response; only the runner answers calls`);
      case 'partialFunctionCall':
        throw invalid(check, `part ${index} is a partial function call; only partial responses carry one`);
      default:
        setMember(copy, key, copyOther(value, key, check, `part ${index}`));
    }
  }
  if (file === null) {
    if (Object.keys(copy).length === 0) return undefined;
  } else if (file !== undefined) {
    // The rule a user's part follows: adapters send one of them, and the text would be lost on every later turn.
    const mixed = mixedPartProblem(copy.text, undefined, file);
    if (mixed !== undefined) throw invalid(check, `part ${index} ${mixed}`);
  }
  return copy as Part;
}

function copyCall(call: unknown, index: number, check: Check): FunctionCall {
  if (!isRecord(call) || Array.isArray(call)) throw invalid(check, `part ${index} has a "functionCall" that is not an object`);
  if (!hasPlainPrototype(call)) throw notPlain(check, `the function call in part ${index}`);
  const copy: Record<string, unknown> = {};
  let id = '';
  let refusedArgs: object | undefined;
  for (const key in call) {
    if (!Object.prototype.hasOwnProperty.call(call, key)) continue;
    const value = call[key];
    if (value === undefined) continue;
    switch (key) {
      case 'id':
        if (typeof value === 'string') id = value;
        copy.id = value;
        break;
      case 'name':
        copy.name = value;
        break;
      case 'args':
        if (typeof value === 'string' || value === null) {
          copy.args = value;
        } else if (isRecord(value) && !isArrayRead(value)) {
          const args = readArgs(value, check.limits.maxDepth);
          if (args instanceof JsonBreach) {
            refusedArgs = value; // refused below, once the call's name and id are known
            copy.args = {};
          } else {
            copy.args = args;
          }
        } else {
          throw invalid(check, `the function call in part ${index} has "args" that are neither an object nor JSON text`);
        }
        break;
      default:
        setMember(copy, key, copyOther(value, key, check, `the function call in part ${index}`));
    }
  }
  if (typeof copy.name !== 'string') throw invalid(check, `the function call in part ${index} has no string "name"`);
  if (!check.sessionRead) {
    check.sessionRead = true;
    const { earlier } = check;
    check.sessionIds = earlier && collectCallIds(earlier.callIdCache, earlier.session.events);
  }
  // The copy is this check's own: a fresh id is written into it.
  if (id === '' || id === check.firstId || check.ids?.has(id) || check.sessionIds?.has(id)) id = generateCallId();
  copy.id = id;
  if (check.firstId === undefined) check.firstId = id;
  else (check.ids ??= new Set([check.firstId])).add(id);
  if (refusedArgs) (check.refusedCalls ??= new Map()).set(id, refusalFor(copy.name, refusedArgs, check.limits));
  return copy as unknown as FunctionCall;
}

/**
 * A part's inline data, made a file every adapter can send again (see `modelOutputFile`: the media type's
 * essence in lower case, a PNG, JPEG, GIF, WebP or PDF type stored as what the bytes are, base64url made
 * standard, the name made one a file may have) and copied: stored, it is sent again on every later turn.
 * `{ mimeType, data, displayName? }` with no other member (an adapter may pass it on whole); only what
 * cannot be made a file refuses the response. Each member read once. `null` for a file of no bytes (left out).
 */
function copyInlineData(value: unknown, index: number, check: Check): InlineData | null {
  if (!isRecord(value) || Array.isArray(value) || !hasPlainPrototype(value)) throw notInlineData(check, index);
  let mimeType: unknown;
  let data: unknown;
  let displayName: unknown;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const member = value[key];
    if (member === undefined) continue;
    if (key === 'mimeType') mimeType = member;
    else if (key === 'data') data = member;
    else if (key === 'displayName') displayName = member;
    else throw notInlineData(check, index);
  }
  const file = modelOutputFile(mimeType, data, displayName);
  if (file === undefined) throw notInlineData(check, index);
  return file;
}

function notInlineData(check: Check, index: number): InvalidModelResponseError {
  return invalid(check, `part ${index} has inlineData that is not ${OUTPUT_FILE_SHAPE}`);
}

/** `finishReason`'s two fields, copied: `unified` a string, `raw` a string or absent (nothing else is stored). */
function copyFinishReason(value: unknown, check: Check): FinishReason {
  if (!isRecord(value)) throw invalid(check, `"finishReason" must be an object, got ${describe(value)}`);
  const { unified, raw } = value;
  if (typeof unified !== 'string' || (raw !== undefined && typeof raw !== 'string')) throw invalid(check, '"finishReason" must have a string "unified" and, if any, a string "raw"');
  return raw === undefined ? { unified: unified as FinishReason['unified'] } : { unified: unified as FinishReason['unified'], raw };
}

/**
 * The usage of a model's complete response that no event is made of as it is (the call then failed on it: the
 * model's close threw, or an abort cut it; or an afterModel callback replaced it or threw), copied as
 * {@link checkModelResponse} copies it: the provider billed it, and the run (or the `chat` span) counts it.
 * `undefined` when the response has none, or one the check would refuse.
 */
export function usageOfComplete(raw: unknown, modelName: string): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  try {
    const { usage } = raw as { usage?: unknown };
    return usage === undefined ? undefined : copyUsage(usage, new Check(modelName, DEFAULT_ARGUMENT_LIMITS, undefined));
  } catch {
    // Refused as a response's usage would be: nothing of it is counted.
    return undefined;
  }
}

/**
 * The five token counts of a plain object, copied (nothing else is stored); a count must be a number or absent. One that
 * is not a finite number (`NaN` from adding a missing count) is left out: JSON cannot carry it.
 */
function copyUsage(value: unknown, check: Check): Usage {
  if (!isRecord(value)) throw invalid(check, `"usage" must be an object, got ${describe(value)}`);
  // A plain object, as every object of the response must be (an array, a Date, a Map or a class instance is not), with no own toJSON.
  // Its prototype read once: for the check, then for which counts are read.
  const prototype: unknown = Object.getPrototypeOf(value);
  const thisRealm = prototype === Object.prototype;
  if (!thisRealm && prototype !== null && !isObjectPrototype(prototype)) throw notPlain(check, '"usage"');
  if (value.toJSON !== undefined) throw invalid(check, '"usage" has a "toJSON" member (it must be plain data)');
  const { inputTokens, outputTokens, totalTokens, cachedInputTokens, reasoningTokens } = thisRealm && !objectPrototypeLendsCounts() ? value : ownCounts(value);
  const copy: Usage = {};
  // A number is taken here; `count` is called only for what is not one (absent, or refused).
  if (typeof inputTokens === 'number' ? Number.isFinite(inputTokens) : count(inputTokens, 'inputTokens', check)) copy.inputTokens = inputTokens as number;
  if (typeof outputTokens === 'number' ? Number.isFinite(outputTokens) : count(outputTokens, 'outputTokens', check)) copy.outputTokens = outputTokens as number;
  if (typeof totalTokens === 'number' ? Number.isFinite(totalTokens) : count(totalTokens, 'totalTokens', check)) copy.totalTokens = totalTokens as number;
  if (typeof cachedInputTokens === 'number' ? Number.isFinite(cachedInputTokens) : count(cachedInputTokens, 'cachedInputTokens', check)) copy.cachedInputTokens = cachedInputTokens as number;
  if (typeof reasoningTokens === 'number' ? Number.isFinite(reasoningTokens) : count(reasoningTokens, 'reasoningTokens', check)) copy.reasoningTokens = reasoningTokens as number;
  return copy;
}

/**
 * The counts `usage` holds as its own members: for a usage whose prototype is not this realm's
 * `Object.prototype` (another realm's, whose members are not this process's to trust), or when this
 * realm's carries a count (polluted), so that a count a prototype carries is not read as the model's.
 * Collected in an object with no prototype, which lends nothing either.
 */
function ownCounts(usage: Record<string, unknown>): Record<string, unknown> {
  const own: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of USAGE_COUNTS) if (Object.prototype.hasOwnProperty.call(usage, key)) own[key] = usage[key];
  return own;
}

/** True when `Object.prototype` carries a member named as a count (code in the process polluted it): a usage's counts are then read as its own only. */
function objectPrototypeLendsCounts(): boolean {
  const prototype = Object.prototype;
  return 'inputTokens' in prototype || 'outputTokens' in prototype || 'totalTokens' in prototype || 'cachedInputTokens' in prototype || 'reasoningTokens' in prototype;
}

const USAGE_COUNTS = ['inputTokens', 'outputTokens', 'totalTokens', 'cachedInputTokens', 'reasoningTokens'] as const;

/** For a count that is not a number: false when absent; refuses anything else. */
function count(value: unknown, name: string, check: Check): boolean {
  if (value === undefined) return false;
  throw invalid(check, `"usage.${name}" must be a number, got ${describe(value)}`);
}

/** `Array.isArray`, false for a revoked Proxy (which throws): its call is then refused alone, by {@link readArgs}. */
function isArrayRead(value: object): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** Object arguments copied, or a breach for arguments that are not plain JSON, nested too deep, or throw when read (a getter, a revoked Proxy). */
function readArgs(args: Record<string, unknown>, maxDepth: number): Record<string, unknown> | JsonBreach {
  try {
    return copyFlatArgs(args, maxDepth) ?? (copyJson(args, RESPONSE_RULES, jsonWalk(maxDepth, Infinity)) as Record<string, unknown> | JsonBreach);
  } catch {
    return new JsonBreach('not-json', '', 'threw when read');
  }
}

/**
 * Object arguments whose members are all strings, booleans, null or finite numbers (the usual call),
 * copied without the generic walk: the copy `copyJson` makes of them (a member `undefined` left out,
 * `-0` as `0`). `undefined` when a member is anything else (nested, not JSON, an own `__proto__`) or
 * the object is not plain: the walk then copies or refuses them.
 */
function copyFlatArgs(args: Record<string, unknown>, maxDepth: number): Record<string, unknown> | undefined {
  if (maxDepth < 1) return undefined;
  if (!hasPlainPrototype(args)) return undefined;
  const copy: Record<string, unknown> = {};
  for (const name in args) {
    if (!Object.prototype.hasOwnProperty.call(args, name)) continue;
    const member = args[name];
    switch (typeof member) {
      case 'string':
      case 'boolean':
        break;
      case 'number':
        if (!Number.isFinite(member)) return undefined;
        break;
      case 'undefined':
        continue;
      default:
        if (member !== null) return undefined;
    }
    if (name === '__proto__') return undefined;
    copy[name] = member === 0 ? 0 : member;
  }
  return copy;
}

/**
 * A member of no known field (`where`'s `key`), copied by the generic walk; refuses the response when it
 * is not plain JSON data. Its depth is counted as arguments' is: its own object or array is level 1,
 * wherever it is (a content's, a part's or a call's member alike).
 */
function copyOther(value: unknown, key: string, check: Check, where: string): unknown {
  const walk = (check.walk ??= jsonWalk(check.limits.maxDepth, Infinity));
  const copy = copyJson(value, RESPONSE_RULES, walk);
  if (!(copy instanceof JsonBreach)) return copy;
  const what =
    copy.kind === 'depth'
      ? `it is nested deeper than ${check.limits.maxDepth} levels, or has a cycle`
      : `${copy.key === '' ? 'it' : `its "${short(copy.key)}"`} ${copy.what || 'is not plain JSON data'}`;
  throw invalid(check, `${where} has "${short(key)}" that cannot be stored as JSON: ${what} (only plain objects, arrays, strings, numbers, booleans and null)`);
}

/** The error the model gets for arguments that cannot be stored: the parser's own error (its limit, not JSON) when one applies. */
function refusalFor(name: string, args: object, limits: ArgumentLimits): ToolsmithError {
  try {
    parseArguments(name, args as Record<string, unknown>, limits);
  } catch (error) {
    if (ToolsmithError.isInstance(error)) return error;
  }
  return new MalformedArgumentsError(name, 'they cannot be represented as JSON (a cycle, a BigInt or a similar value)');
}

function invalid(check: Check, reason: string): InvalidModelResponseError {
  return new InvalidModelResponseError(check.modelName, reason);
}

function notPlain(check: Check, what: string): InvalidModelResponseError {
  return invalid(check, `${what} is not a plain object (a class instance or a Proxy of one cannot be stored as JSON)`);
}


/**
 * A plain object's prototype (`isPlainData` for what is known not to be an array), asked here rather
 * than in json-copy's shared helper: the response's objects then keep their own, few, shapes at this site.
 */
function hasPlainPrototype(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null || isObjectPrototype(prototype);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function short(key: string): string {
  return key.length > 40 ? `${key.slice(0, 40)}…` : key;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value;
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
