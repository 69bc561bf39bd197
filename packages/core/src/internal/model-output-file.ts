import type { InlineData } from '../model/content';
import { isBase64Data, isFileName, mediaTypeEssence, safeFileName } from './inline-data-rules';
import { UNKNOWN_MEDIA_TYPE, mediaTypeOfBytes, sniffedMediaType } from './media-signatures';

/** Base64url or unpadded base64 (no other character): made standard base64 by {@link standardBase64}. */
const LOOSE_BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * A file a model answered with (or a model callback's response held), as it is stored: made a file every
 * adapter can send again, since it is the model's output, not a user's upload, and refusing it would lose
 * the response's text and the tokens it was billed. Its members were read once by the caller.
 *
 * - The media type: its essence in lower case (`audio/l16` of Gemini TTS's `audio/L16;codec=pcm;rate=24000`:
 *   the parameters are not kept). None, `application/octet-stream` or one that is not `type/subtype`: what
 *   the bytes are (PNG, JPEG, GIF, WebP, PDF, HEIC), else `application/octet-stream`.
 * - A PNG, JPEG, GIF, WebP or PDF type whose bytes are another of these (or HEIC) is stored under the type the
 *   bytes are (gemini-3-pro-image-preview labels its JPEG output `image/png`), and one whose bytes are none of
 *   them as `application/octet-stream` (see `mediaTypeOfBytes`).
 * - The data: standard base64; base64url and unpadded base64 are made standard.
 * - The name: a string, made one a file may have (`safeFileName`); `null` is none.
 *
 * Returns `null` for a file of no bytes (empty data: there is nothing to send; the caller leaves it out), and
 * `undefined` for what cannot be made a file: a media type or name of another type than a string, data that
 * is not a string or not base64 of either alphabet.
 */
export function modelOutputFile(mimeType: unknown, data: unknown, displayName: unknown): InlineData | null | undefined {
  if (typeof data !== 'string') return undefined;
  if (data.length === 0) return null;
  if (mimeType !== undefined && mimeType !== null && typeof mimeType !== 'string') return undefined;
  if (displayName !== undefined && displayName !== null && typeof displayName !== 'string') return undefined;
  const bytes = isBase64Data(data) ? data : standardBase64(data);
  if (bytes === undefined) return undefined;
  const essence = typeof mimeType === 'string' ? mediaTypeEssence(mimeType) : undefined;
  // No type, or `application/octet-stream` (what an adapter says of a file whose type was not given): the bytes tell it when they can.
  const type = essence === undefined || essence === UNKNOWN_MEDIA_TYPE ? (sniffedMediaType(bytes) ?? UNKNOWN_MEDIA_TYPE) : mediaTypeOfBytes(essence, bytes);
  if (typeof displayName !== 'string') return { mimeType: type, data: bytes };
  return { mimeType: type, data: bytes, displayName: isFileName(displayName) ? displayName : safeFileName(displayName) };
}

/** `data` (base64url, or base64 without its padding) as standard base64, or `undefined` when it is neither. */
function standardBase64(data: string): string | undefined {
  if (!LOOSE_BASE64.test(data)) return undefined;
  const unpadded = data.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  if (unpadded.length % 4 === 1) return undefined;
  const standard = unpadded.padEnd(Math.ceil(unpadded.length / 4) * 4, '=');
  return isBase64Data(standard) ? standard : undefined;
}
