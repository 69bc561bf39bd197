/**
 * A media type as `type/subtype` (RFC 6838 characters, at most 127 each), e.g. `image/png`. Bounded: the type
 * is stored with the file and repeated in every later request (in an adapter's note too).
 */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
/** Standard base64 text (no `data:` prefix, no line breaks). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True for a `type/subtype` media type (each at most 127 characters, as RFC 6838 allows), as every provider takes inline data's. */
export function isMediaType(value: unknown): value is string {
  return typeof value === 'string' && MEDIA_TYPE.test(value);
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

/** The longest file name kept with a file (as most file systems allow): it is stored and repeated in every later request. */
export const MAX_FILE_NAME_CHARS = 255;

/** True for a file's name as it may be kept: a string of at most {@link MAX_FILE_NAME_CHARS} characters with no control character. */
export function isFileName(value: unknown): value is string {
   
  return typeof value === 'string' && value.length <= MAX_FILE_NAME_CHARS && !/[\u0000-\u001f\u007f]/.test(value);
}
