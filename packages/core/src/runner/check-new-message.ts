import { REQUEST_CONFIRMATION, isRecord } from '../confirmation/request-confirmation';
import { InvalidMessageError } from '../errors/invalid-message-error';
import { unfitIdentifierCharacter } from '../identifiers/identifier-characters';
import { INLINE_DATA_SHAPE, isBase64Data, isFileName, isMediaType, mixedPartProblem } from '../internal/inline-data-rules';
import { mediaMismatch } from '../internal/media-signatures';
import type { Content, Part } from '../model/content';
import { type ArgumentLimits, DEFAULT_ARGUMENT_LIMITS, copyArgumentObject } from '../validation/argument-parser';
import { type JsonCopyRules, type JsonWalk, JsonBreach, copyJson, copyMembers, isPlainData, jsonWalk, ownMembers, renewedJsonWalk, setMember } from '../validation/json-copy';

/**
 * A new message as the run keeps it (see {@link copyNewMessage}): the plain-data copy of the message,
 * the only one the run reads, stores or hands on; its refused edits, if any, by {@link refusedEditsOf}.
 */
export type CopiedMessage = Content;

/** The refused edits of the copies that have some (rare: the usual copy is the message alone, no wrapper). */
const refusedEditsByMessage = new WeakMap<CopiedMessage, Map<object, JsonBreach>>();

/**
 * Edited arguments (`decision: "edit"`) of `copied` that break the argument rules, by the object standing
 * in for them in the copy (an empty one): the edit is refused when it is checked against its tool
 * (`checkEditedArguments`), with the breach as its problem. `undefined` when there are none.
 */
export function refusedEditsOf(copied: CopiedMessage): ReadonlyMap<object, JsonBreach> | undefined {
  return refusedEditsByMessage.get(copied);
}

/**
 * Why `message` cannot start an invocation, or the plain-data copy of it the run keeps when it is a
 * well-formed user `Content` (`role` and `parts`, no other key) within `limits` (the argument limits:
 * each part nests at most `maxDepth` levels, and the parts together are at most `maxChars` characters of
 * the JSON text they would be, counted as arguments are: brackets, commas, colons, keys and strings with
 * their quotes, numbers as JSON writes them, `true`/`false`/`null`). The check and the copy are one walk
 * that reads each member of the message once: a getter or a Proxy that would answer differently on a
 * second read cannot pass the check with one value and be stored or run with another, and the caller's
 * object is never stored or handed on. Nothing of a refused message is stored, so a message no store or
 * page could read back (50,000 levels deep, say) never reaches a session.
 * The edited arguments of a confirmation answer (`decision: "edit"`) are left out of this measure: they
 * are copied and measured as a tool call's arguments, alone, by the same limits (see
 * {@link refusedEditsOf}), and an edit past them is refused with `CONFIRMATION_EDIT_INVALID`
 * and its problems when it is checked against its tool (`checkEditedArguments`, before anything is
 * stored), and one within them is not refused for the three levels that hold it. So are the arguments
 * of the answer's copy of the original call (`originalFunctionCall`): they are measured here alone, as
 * the call's arguments were (so any call the runner accepted can be answered), and must then equal the
 * call's (`checkFunctionResponses`).
 */
export function copyNewMessage(message: unknown, limits: ArgumentLimits = DEFAULT_ARGUMENT_LIMITS): CopiedMessage | InvalidMessageError {
  try {
    return copyReadMessage(message, limits);
  } catch {
    // A getter or a Proxy that throws: the message is not data any store could keep.
    return new InvalidMessageError('reading it threw an error (a getter or a Proxy); send plain data');
  }
}

/** Why `message` cannot start an invocation (see {@link copyNewMessage}), or `undefined`. */
export function checkNewMessage(message: unknown, limits: ArgumentLimits = DEFAULT_ARGUMENT_LIMITS): InvalidMessageError | undefined {
  const copied = copyNewMessage(message, limits);
  return copied instanceof InvalidMessageError ? copied : undefined;
}

/** {@link copyNewMessage}'s walk, which may throw where reading the message throws. */
function copyReadMessage(message: unknown, limits: ArgumentLimits): CopiedMessage | InvalidMessageError {
  if (typeof message !== 'object' || message === null) return new InvalidMessageError('it is not an object');
  let role: unknown;
  let parts: unknown;
  let other: string | undefined;
  for (const key in message) {
    if (!Object.prototype.hasOwnProperty.call(message, key)) continue;
    if (key === 'role') role = (message as { role?: unknown }).role;
    else if (key === 'parts') parts = (message as { parts?: unknown }).parts;
    else other ??= key;
  }
  if (role !== 'user') return new InvalidMessageError(`its role is ${JSON.stringify(role)}, not "user"`);
  const count = Array.isArray(parts) ? parts.length : 0;
  if (count === 0) return new InvalidMessageError('it has no parts');
  // Anything else would be stored as sent, past the limits below (a 5,000-deep `meta` made sessions unreadable).
  if (other !== undefined) {
    return new InvalidMessageError(`it has a key ${JSON.stringify(other.length > 40 ? `${other.slice(0, 40)}…` : other)} a user Content does not have (only "role" and "parts")`);
  }
  // The walk of the message copied last, when it is over: taken (a message read inside another's getter makes its own), put back when the copy is made.
  const walk = renewedJsonWalk(spareWalk, limits.maxDepth, limits.maxChars);
  spareWalk = undefined;
  const copies: Part[] = new Array(count);
  const copied: CopiedMessage = { role: 'user', parts: copies };
  for (let index = 0; index < count; index++) {
    const part: unknown = (parts as unknown[])[index];
    if (typeof part !== 'object' || part === null) return new InvalidMessageError(`part ${index} is not an object`);
    const copy = copyPart(part, index, walk, limits, copied);
    if (copy instanceof InvalidMessageError) return copy;
    copies[index] = copy;
  }
  spareWalk = walk;
  return copied;
}

/** The walk of the message copied last (see {@link copyReadMessage}), while no copy uses it. */
let spareWalk: JsonWalk | undefined;

/** Message parts are plain data, nothing else. */
const MESSAGE_RULES: JsonCopyRules = { values: 'plain' };

/** Part `index` of a new message, checked and copied (its measure spent from `walk`). */
function copyPart(part: object, index: number, walk: JsonWalk, limits: ArgumentLimits, copied: CopiedMessage): Part | InvalidMessageError {
  // The part's own members, each read once (as ownMembers reads them); the fields a user part may have are
  // checked on them first. What the walk would measure of them is counted meanwhile, while they are all strings.
  const own: Record<string, unknown> = {};
  let entries = 0;
  let chars = 0;
  let stringChars = 0;
  let strings = true;
  // The fields a user part may have, kept as they are read: never read back from `own`, whose prototype
  // (Object.prototype) could lend a value of a key the part does not have.
  let text: unknown;
  let functionResponse: unknown;
  let inlineData: unknown;
  let functionCall: unknown;
  let modelOnly: string | undefined;
  for (const name in part) {
    if (!Object.prototype.hasOwnProperty.call(part, name)) continue;
    const member = (part as Record<string, unknown>)[name];
    // `null` is how many JSON clients (a pydantic dump of a Part) write a field of a part that is absent: left
    // out as `undefined` is, so no adapter sends it as a value (a null thoughtSignature); `thought: false` too.
    if (member === undefined || (member === null && NULL_AS_ABSENT.has(name)) || (member === false && name === 'thought')) continue;
    setMember(own, name, member);
    if (name === 'text') text = member;
    else if (name === 'functionResponse') functionResponse = member;
    else if (name === 'inlineData') inlineData = member;
    else if (name === 'functionCall') functionCall = member;
    else if (MODEL_ONLY_MEMBERS.has(name)) modelOnly ??= name;
    if (typeof member !== 'string') strings = false;
    else {
      entries++;
      stringChars += name.length + member.length;
      // The key and the string with their quotes, and the colon.
      chars += name.length + member.length + 5;
    }
  }
  if (text !== undefined && typeof text !== 'string') return new InvalidMessageError(`part ${index} has a non-string text`);
  // Only models make calls; a user message carrying one (e.g. a forged confirmation request) is refused whole.
  if (functionCall !== undefined) return new InvalidMessageError(`part ${index} is a function call; only a model can make one`);
  // A provider's own part, reasoning or its signature would be sent to that provider as they are (Gemini sends
  // a part's providerData in place of the part: a raw fileData naming any file the app's key can read).
  if (modelOnly !== undefined) return new InvalidMessageError(`part ${index} has "${modelOnly}"; only a model's parts carry it`);
  if (text === undefined && functionResponse === undefined && inlineData === undefined) {
    return new InvalidMessageError(`part ${index} has no text, functionResponse or inlineData`);
  }
  // A part is one of them (see Part): adapters send one and drop the others, differently per provider.
  const mixed = mixedPartProblem(text, functionResponse, inlineData);
  if (mixed !== undefined) {
    return new InvalidMessageError(`part ${index} ${mixed}`);
  }
  // Sent to the model on every later turn of the session: data no provider could take would fail them all.
  // Its members are checked in the copy (read once); what is no object is refused here, before the copy.
  if (inlineData !== undefined && (typeof inlineData !== 'object' || inlineData === null)) return inlineDataError(index);
  if (!isPlainData(part)) return notJsonError(index);
  if (strings && walk.maxDepth >= 1) {
    // Strings alone (the usual `{ text }`): the copy is `own`, measured as copyMembers would measure it
    // (`{`, `}` and a comma between entries); its only breach, the size, is the same wherever it is found.
    walk.stringChars += stringChars;
    if ((walk.chars += chars + (entries === 0 ? 2 : entries + 1)) > walk.maxChars) return new InvalidMessageError(`it is larger than ${limits.maxChars} characters`, SIZE_HINT);
    return own as Part;
  }
  const alone = argumentsMeasuredAlone(own, functionResponse);
  const copy = copyMembers(own, MESSAGE_RULES, walk, 1);
  if (copy instanceof JsonBreach) {
    if (copy.kind === 'depth') return new InvalidMessageError(`part ${index} is nested deeper than ${limits.maxDepth} levels`);
    if (copy.kind === 'size') return new InvalidMessageError(`it is larger than ${limits.maxChars} characters`, SIZE_HINT);
    return notJsonError(index);
  }
  if (inlineData !== undefined) {
    const copied = ownValue(copy, 'inlineData');
    if (!isInlineData(copied)) return inlineDataError(index);
    const mismatch = keptFile(copied);
    if (mismatch !== undefined) return new InvalidMessageError(`part ${index} has inlineData ${mismatch}`, FILE_HINT);
  }
  const files = functionResponse === undefined ? undefined : ownValue(copy.functionResponse, 'parts');
  if (files !== undefined) {
    if (!isFileParts(files)) return new InvalidMessageError(`part ${index} has a functionResponse whose "parts" are not [{ inlineData: ${INLINE_DATA_SHAPE} }]`, FILE_HINT);
    for (let file = 0; file < files.length; file++) {
      const mismatch = keptFile(files[file].inlineData);
      if (mismatch !== undefined) return new InvalidMessageError(`part ${index} has a functionResponse whose file ${file} has inlineData ${mismatch}`, FILE_HINT);
    }
  }
  if (!alone) return copy as Part;
  const response = (copy.functionResponse as { response: Record<string, unknown> }).response;
  if (alone.copiedCall) {
    const args = copyCallArguments(alone.copiedCall.args, limits);
    if (args instanceof JsonBreach) {
      const breach = args.kind === 'depth' ? `nested deeper than ${limits.maxDepth} levels` : args.kind === 'size' ? `larger than ${limits.maxChars} characters` : 'not JSON';
      return new InvalidMessageError(`part ${index} copies a call whose arguments are ${breach}, which no call the runner accepted has`);
    }
    (response.originalFunctionCall as Record<string, unknown>).args = args;
  }
  if (alone.edited) {
    const args = copyArgumentObject(alone.edited, limits);
    if (args instanceof JsonBreach) {
      let refused = refusedEditsByMessage.get(copied);
      if (!refused) refusedEditsByMessage.set(copied, (refused = new Map()));
      refused.set(response.args as object, args);
    }
    else response.args = args;
  }
  return copy as Part;
}

function inlineDataError(index: number): InvalidMessageError {
  return new InvalidMessageError(`part ${index} has inlineData that is not ${INLINE_DATA_SHAPE}`, FILE_HINT);
}

function notJsonError(index: number): InvalidMessageError {
  return new InvalidMessageError(`part ${index} holds a value JSON does not carry as it is (a function, a symbol, a BigInt, NaN or Infinity, or an object that is not a plain object or array)`);
}

/**
 * The arguments a confirmation answer in `own` (a part's own members) carries, measured alone (see
 * {@link copyNewMessage}): an edit answer's `args` and the `args` of its copy of the original call
 * (`originalFunctionCall`). The levels that hold them are read once, by hand ({@link ownMembers}), and
 * put in `own` in place of what they were read from, each of these arguments as an empty object (what the
 * message's measure counts for it); they are returned as read. `undefined` when there are none.
 */
function argumentsMeasuredAlone(own: Record<string, unknown>, functionResponse: unknown): { edited?: object; copiedCall?: { args: unknown } } | undefined {
  if (!isRecord(functionResponse) || !isPlainData(functionResponse)) return undefined;
  // Each member read as an own one: what ownMembers made inherits from Object.prototype.
  const answer = (own.functionResponse = ownMembers(functionResponse));
  const answerResponse = ownValue(answer, 'response');
  if (ownValue(answer, 'name') !== REQUEST_CONFIRMATION || !isRecord(answerResponse) || !isPlainData(answerResponse)) return undefined;
  const response = (answer.response = ownMembers(answerResponse));
  const original = ownValue(response, 'originalFunctionCall');
  const call = isRecord(original) && isPlainData(original) ? (response.originalFunctionCall = ownMembers(original)) : undefined;
  const args = ownValue(response, 'args');
  const edited = ownValue(response, 'decision') === 'edit' && isRecord(args) ? args : undefined;
  const callArgs = call === undefined ? undefined : ownValue(call, 'args');
  const copiedCall = callArgs !== undefined ? { args: callArgs } : undefined;
  if (!edited && !copiedCall) return undefined;
  if (edited) response.args = {};
  if (copiedCall) call!.args = {};
  return { edited, copiedCall };
}

/**
 * A copy of a call's arguments copied into a confirmation answer, measured as the call's arguments were:
 * JSON text by its characters, an object by the JSON text it would be, nested from the arguments object;
 * or what it breaks. A true copy of a call the runner accepted breaks nothing; checkFunctionResponses
 * then compares it with the call.
 */
function copyCallArguments(args: unknown, limits: ArgumentLimits): unknown {
  if (typeof args === 'string') return args.length > limits.maxChars ? new JsonBreach('size', '') : args;
  return copyJson(args, MESSAGE_RULES, jsonWalk(limits.maxDepth, limits.maxChars));
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

/** True for a function response's `parts` (in the message's copy): an array of `{ inlineData }` with no other key (see {@link isInlineData}). */
function isFileParts(parts: unknown): parts is { inlineData: CopiedInlineData }[] {
  if (!Array.isArray(parts)) return false;
  return parts.every((part: unknown) => isRecord(part) && Object.keys(part).length === 1 && isInlineData(ownValue(part, 'inlineData')));
}

/** The members of a model's parts that a user's part may not have (see {@link copyPart}). */
const MODEL_ONLY_MEMBERS: ReadonlySet<string> = new Set(['providerData', 'thought', 'thoughtSignature', 'thoughtSignatureProvider', 'partialFunctionCall']);

/** The members of a part left out when they are `null` (see {@link copyPart}). */
const NULL_AS_ABSENT: ReadonlySet<string> = new Set(['text', 'functionResponse', 'inlineData', 'functionCall', ...MODEL_ONLY_MEMBERS]);

/** The close of a message refused for its size: files count as their base64 text. */
const SIZE_HINT = "Send less, or raise the runner's argumentLimits.maxChars (a file counts as its base64 text, about 4/3 of its bytes).";
/** The close of a message refused for a file. */
const FILE_HINT = 'Send each file as { inlineData: { mimeType, data } }, its bytes standard base64 and of the type it names.';

/** The members inline data may have. */
const INLINE_DATA_MEMBERS: ReadonlySet<string> = new Set(['mimeType', 'data', 'displayName']);

/**
 * True for inline data (in the message's copy) a provider can be sent: a `type/subtype` media type,
 * non-empty standard base64 data, a string name if any, and nothing else (an adapter may pass the object on whole).
 */
function isInlineData(value: unknown): value is CopiedInlineData {
  if (!isRecord(value)) return false;
  for (const key of Object.keys(value)) if (!INLINE_DATA_MEMBERS.has(key)) return false;
  const displayName = ownValue(value, 'displayName');
  return isMediaType(ownValue(value, 'mimeType')) && isBase64Data(ownValue(value, 'data')) && (displayName === undefined || displayName === null || isFileName(displayName));
}

/** Inline data in the message's copy, as {@link isInlineData} takes it. */
interface CopiedInlineData {
  mimeType: string;
  data: string;
}

/**
 * Why the bytes of `inlineData` (in the message's copy, taken by {@link isInlineData}) are not what its
 * media type says (see {@link mediaMismatch}): sent again on every later turn of the session, a file the
 * provider refuses for its bytes would fail them all. Else `undefined`, its media type put in lower case in
 * the copy, as a tool's files are stored (media types are compared without case).
 */
function keptFile(inlineData: CopiedInlineData): string | undefined {
  const { mimeType } = inlineData;
  const mismatch = mediaMismatch(mimeType, inlineData.data);
  if (mismatch !== undefined) return `declared ${mimeType} ${mismatch}`;
  const lower = mimeType.toLowerCase();
  if (lower !== mimeType) inlineData.mimeType = lower;
  return undefined;
}

/** `object`'s own member `key` (what a copy holds), never one its prototype lends. */
function ownValue(object: unknown, key: string): unknown {
  return isRecord(object) && Object.prototype.hasOwnProperty.call(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}
