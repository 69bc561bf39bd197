import { TextDecoder } from 'node:util';
import { mediaTypeEssence, mediaTypeParameter } from '@toolsmith/core/internal';

/** What a file of a remote server is sent as when its media type names none. */
const UNKNOWN = 'application/octet-stream';

/**
 * The media type a remote server's file (image, audio or blob content) is kept with: its essence, lower-cased
 * (`audio/wav` of `Audio/WAV; codecs=1`, `text/plain` of `text/plain; charset=utf-8`), or
 * `application/octet-stream` when the server gave none or one that is not `type/subtype`. A tool's files must
 * have a `type/subtype` media type; without this, a parameter or a malformed type the server sent would fail
 * the whole call, its text included.
 */
export function fileMediaType(mimeType: unknown): string {
  if (typeof mimeType !== 'string') return UNKNOWN;
  return mediaTypeEssence(mimeType) ?? UNKNOWN;
}

/**
 * A remote server's text file as UTF-8: base64 `data` of a `text/*` media type that names another charset
 * (`text/plain; charset=iso-8859-1`) decoded by that charset and encoded again as UTF-8, since the charset
 * parameter is not kept ({@link fileMediaType}) and providers read text files as UTF-8. Anything else, or a
 * charset Node does not know, is returned as it is.
 */
export function utf8FileData(mimeType: unknown, data: string): string {
  if (typeof mimeType !== 'string') return data;
  if (!mimeType.split(';', 1)[0].trim().toLowerCase().startsWith('text/')) return data;
  const charset = mediaTypeParameter(mimeType, 'charset')?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8' || charset === 'us-ascii') return data;
  let text: string;
  try {
    text = new TextDecoder(charset).decode(Buffer.from(data, 'base64'));
  } catch {
    // A charset Node does not know (a RangeError): the bytes go as the server sent them.
    return data;
  }
  return Buffer.from(text, 'utf8').toString('base64');
}
