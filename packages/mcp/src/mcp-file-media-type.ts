import { isMediaType } from '@toolsmith/core/internal';

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
  const essence = mimeType.split(';', 1)[0].trim().toLowerCase();
  return isMediaType(essence) ? essence : UNKNOWN;
}
