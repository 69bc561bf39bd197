/** A media type as `type/subtype` (RFC 6838 characters), e.g. `image/png`. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
/** Standard base64 text (no `data:` prefix, no line breaks). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True for a `type/subtype` media type, as every provider takes inline data's. */
export function isMediaType(value: unknown): value is string {
  return typeof value === 'string' && MEDIA_TYPE.test(value);
}

/** True for non-empty standard base64 text (a whole number of 4-character groups), as inline data's bytes are sent. */
export function isBase64Data(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length % 4 === 0 && BASE64.test(value);
}
