import { CONTROL_CHARACTER_RANGES, unfitIdentifierCharacter } from '../identifiers/identifier-characters';
import { mediaMismatch } from './media-signatures';

/**
 * A media type as `type/subtype` (RFC 6838 characters, at most 127 each), e.g. `image/png`. Bounded: the type
 * is stored with the file and repeated in every later request (in an adapter's note too).
 */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
/** Standard base64 text (no `data:` prefix, no line breaks). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * What inline data must be, for error messages (a user's file, a model response's): `isMediaType`,
 * `isBase64Data` and `isFileName` say it, with no member but the three.
 */
export const INLINE_DATA_SHAPE = '{ mimeType: "type/subtype", data, displayName?: string } with no other key, its data standard base64 (A-Z, a-z, 0-9, + and /, padded with =, no line breaks; not a data URL), the media type at most 127 characters a side, a name of at most 255 characters (UTF-16 code units) with no control character, lone surrogate, line separator or bidirectional control';

/** True for a `type/subtype` media type (each at most 127 characters, as RFC 6838 allows), as every provider takes inline data's. */
export function isMediaType(value: unknown): value is string {
  return typeof value === 'string' && MEDIA_TYPE.test(value);
}

/**
 * The essence of a media type, in lower case (`audio/l16` of `audio/L16;codec=pcm;rate=24000`, `text/plain` of
 * `text/plain; charset=utf-8`): what is before its first `;`, trimmed, when that is `type/subtype` (see
 * {@link isMediaType}), else `undefined`. Files from elsewhere (a model's output, a remote server's) are kept
 * with it: the parameters are not kept.
 */
export function mediaTypeEssence(value: string): string | undefined {
  const semicolon = value.indexOf(';');
  const essence = (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  return isMediaType(essence) ? essence : undefined;
}

/**
 * The value of a media type's parameter `name` (`24000` of `audio/L16;codec=pcm;rate=24000` for `rate`), its
 * quotes removed when it is a quoted string (RFC 2045: `rate="24000"`), trimmed: the first parameter of that
 * name, compared without case; `undefined` when the media type names none. Its parameters are read where the
 * essence that files keep ({@link mediaTypeEssence}) would lose what they say (a charset, a sample rate).
 */
export function mediaTypeParameter(value: string, name: string): string | undefined {
  const parameters = value.split(';');
  for (let index = 1; index < parameters.length; index++) {
    const parameter = parameters[index];
    const equals = parameter.indexOf('=');
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== name) continue;
    const text = parameter.slice(equals + 1).trim();
    return /^"(.*)"$/.test(text) ? text.slice(1, -1) : text;
  }
  return undefined;
}

/**
 * What is wrong with a part that holds more than one of `text`, `functionResponse` and `inlineData` (each
 * `undefined` when absent), as a message says it after "part N": adapters send one of them and drop the
 * others, differently per provider. The same rule for a user's message, a model's response and a request a
 * callback left.
 */
export function mixedPartProblem(text: unknown, functionResponse: unknown, inlineData: unknown): string | undefined {
  if ((text !== undefined ? 1 : 0) + (functionResponse !== undefined ? 1 : 0) + (inlineData !== undefined ? 1 : 0) <= 1) return undefined;
  return 'has more than one of text, functionResponse and inlineData; send each in a part of its own';
}

/** True for non-empty standard base64 text (a whole number of 4-character groups), as inline data's bytes are sent. */
export function isBase64Data(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length % 4 === 0 && BASE64.test(value);
}

/** A media type as an error quotes it: JSON, cut to 60 characters (what was given may be anything, of any length). */
export function quotedMediaType(value: unknown): string {
  const quoted = JSON.stringify(value) ?? String(value);
  return quoted.length > 60 ? `${quoted.slice(0, 59)}…` : quoted;
}

/**
 * What is wrong with a file's members (read once by the caller, which refuses any other member), as a message
 * says it after "inlineData": `that is not { mimeType: … }` (see {@link INLINE_DATA_SHAPE}), or
 * `declared image/png whose bytes are a JPEG image (image/jpeg)` (see `mediaMismatch`). `undefined` for a
 * file a provider can be sent: a `type/subtype` media type, non-empty standard base64 data whose first bytes
 * are what the media type says, a name {@link isFileName} takes or none (`undefined`, `null`).
 */
export function inlineDataProblem(mimeType: unknown, data: unknown, displayName: unknown): string | undefined {
  if (!isMediaType(mimeType) || !isBase64Data(data) || (displayName !== undefined && displayName !== null && !isFileName(displayName))) return `that is not ${INLINE_DATA_SHAPE}`;
  const mismatch = mediaMismatch(mimeType, data);
  return mismatch === undefined ? undefined : `declared ${mimeType} ${mismatch}`;
}

/** The longest file name kept with a file, in UTF-16 code units (JavaScript's string length): it is stored and repeated in every later request. */
export const MAX_FILE_NAME_CHARS = 255;

/**
 * What a file's name may not hold beside a control character or a lone surrogate (see identifier-characters.ts):
 * a line or paragraph separator and the bidirectional controls, which would start a new line or turn text
 * around where an adapter quotes the name to the model (its notes).
 */
const NAME_FORMAT_RANGES = '\\u2028\\u2029\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const NAME_FORMAT_CHARACTER = new RegExp(`[${NAME_FORMAT_RANGES}]`);

/**
 * True for a file's name as it may be kept: a string of at most {@link MAX_FILE_NAME_CHARS} UTF-16 code units
 * with no control character (C0, DEL, C1), lone surrogate, line or paragraph separator or bidirectional control.
 */
export function isFileName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_FILE_NAME_CHARS && unfitIdentifierCharacter(value) === undefined && !NAME_FORMAT_CHARACTER.test(value);
}

/** Every character {@link isFileName} refuses, and the path separators `/` and `\\`. */
const UNSAFE_NAME_CHARACTERS = new RegExp(`[${CONTROL_CHARACTER_RANGES}${NAME_FORMAT_RANGES}/\\\\]|\\p{Cs}`, 'gu');

/**
 * `name` (from elsewhere: a remote server's URI) made a name {@link isFileName} takes and one path segment: each
 * refused character and path separator replaced by `_`, and a name over {@link MAX_FILE_NAME_CHARS} cut, its
 * extension kept, never inside a surrogate pair.
 */
export function safeFileName(name: string): string {
  const safe = name.replace(UNSAFE_NAME_CHARACTERS, '_');
  if (safe.length <= MAX_FILE_NAME_CHARS) return safe;
  const extension = /\.[A-Za-z0-9]{1,10}$/.exec(safe)?.[0] ?? '';
  let end = MAX_FILE_NAME_CHARS - extension.length - 1;
  // Not between the two halves of a pair (a high surrogate last): that would leave a lone surrogate.
  if (/[\ud800-\udbff]/.test(safe[end - 1])) end--;
  return `${safe.slice(0, end)}…${extension}`;
}
