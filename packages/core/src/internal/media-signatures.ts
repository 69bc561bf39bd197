/** A media type whose files all start with the same bytes, and what such a file is called in an error. */
interface MediaSignature {
  readonly mediaType: string;
  readonly kind: string;
  /** The bytes a file of the type may start with (one of them), in order; `undefined` for a byte that may be anything. */
  readonly starts: readonly (readonly (number | undefined)[])[];
  /** True when files of the type may start otherwise too: the bytes are named by it, a file declared it is not checked. */
  readonly sniffedOnly?: true;
}

const ascii = (text: string): number[] => Array.from(text, (char) => char.charCodeAt(0));

/**
 * The media types adapters send natively whose files start with a fixed signature. A file declared one
 * of them whose bytes are something else is refused by the provider on every turn it is sent again.
 */
const SIGNATURES: readonly MediaSignature[] = [
  { mediaType: 'image/png', kind: 'a PNG image', starts: [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]] },
  { mediaType: 'image/jpeg', kind: 'a JPEG image', starts: [[0xff, 0xd8, 0xff]] },
  // The common misspelling of image/jpeg, which adapters send as a JPEG (after image/jpeg: bytes are named by the first match).
  { mediaType: 'image/jpg', kind: 'a JPEG image', starts: [[0xff, 0xd8, 0xff]] },
  { mediaType: 'image/gif', kind: 'a GIF image', starts: [ascii('GIF87a'), ascii('GIF89a')] },
  // RIFF, the size of the rest (4 bytes), WEBP.
  { mediaType: 'image/webp', kind: 'a WebP image', starts: [[...ascii('RIFF'), undefined, undefined, undefined, undefined, ...ascii('WEBP')]] },
  { mediaType: 'application/pdf', kind: 'a PDF document', starts: [ascii('%PDF-')] },
  // An ISO BMFF box (its size, 4 bytes), ftyp, a HEIC major brand (Apple's photos: heic). HEIF files of other brands
  // (mif1, also AVIF's) are not named, so a file declared image/heic is not checked.
  {
    mediaType: 'image/heic',
    kind: 'a HEIC image',
    starts: ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx'].map((brand) => [undefined, undefined, undefined, undefined, ...ascii('ftyp'), ...ascii(brand)]),
    sniffedOnly: true,
  },
];

/** The signatures of the types a file declared is checked against, by media type (lower case). */
const BY_MEDIA_TYPE: ReadonlyMap<string, MediaSignature> = new Map(SIGNATURES.filter((signature) => !signature.sniffedOnly).map((signature) => [signature.mediaType, signature]));

/** Base64 characters that hold the longest signature (a whole number of 4-character groups). */
const HEAD_CHARS = Math.ceil(Math.max(...SIGNATURES.flatMap((signature) => signature.starts.map((start) => start.length))) / 3) * 4;

/** True when `head` (a file's first bytes) starts as files of `signature`'s type do. */
function startsAs(head: Uint8Array, signature: MediaSignature): boolean {
  return signature.starts.some((start) => head.length >= start.length && start.every((byte, index) => byte === undefined || head[index] === byte));
}

/**
 * Why base64 `data` declared `mediaType` is not a file of that type, or `undefined` (also for media types
 * that are not sniffed: only PNG, JPEG, GIF, WebP and PDF, compared without case, have a signature here).
 * Only the first {@link HEAD_CHARS} characters are decoded. The reason reads after the media type, e.g.
 * `whose bytes are a JPEG image (image/jpeg)` or `whose bytes do not start as a PNG image's do`.
 * `data` must be standard base64 (see `isBase64Data`).
 */
export function mediaMismatch(mediaType: string, data: string): string | undefined {
  const declared = BY_MEDIA_TYPE.get(mediaType.toLowerCase());
  if (declared === undefined) return undefined;
  const head = Buffer.from(data.length > HEAD_CHARS ? data.slice(0, HEAD_CHARS) : data, 'base64');
  if (startsAs(head, declared)) return undefined;
  const actual = SIGNATURES.find((signature) => startsAs(head, signature));
  if (actual !== undefined) return `whose bytes are ${actual.kind} (${actual.mediaType})`;
  if (declared.mediaType === 'application/pdf') {
    // PDF readers look for the header in the first 1024 bytes; the providers' do not say they do. Said, so the sender can remove what precedes it.
    const offset = Buffer.from(data.slice(0, PDF_HEADER_WINDOW_CHARS), 'base64').indexOf(PDF_HEADER);
    if (offset > 0) return `whose bytes start with ${offset} ${offset === 1 ? 'byte' : 'bytes'} before the %PDF- header (a PDF must start with it: remove them)`;
  }
  return `whose bytes do not start as ${declared.kind}'s do`;
}

const PDF_HEADER = Buffer.from('%PDF-', 'latin1');
/** Base64 characters of a PDF's first 1024 bytes, where readers look for its header. */
const PDF_HEADER_WINDOW_CHARS = Math.ceil(1024 / 3) * 4;

/**
 * The media type a file's bytes are stored under when they are not what `mediaType` says (a model's output,
 * not a user's upload: see model-output-file.ts): `mediaType` itself when it has no signature here or the
 * bytes start as its files do, else the type the bytes are (an image labelled `image/png` whose bytes are a
 * JPEG: `image/jpeg`; a HEIC photo: `image/heic`), else `application/octet-stream`. `mediaType` in lower case; `data` standard base64.
 */
export function mediaTypeOfBytes(mediaType: string, data: string): string {
  const declared = BY_MEDIA_TYPE.get(mediaType);
  if (declared === undefined) return mediaType;
  const head = Buffer.from(data.length > HEAD_CHARS ? data.slice(0, HEAD_CHARS) : data, 'base64');
  if (startsAs(head, declared)) return mediaType;
  return SIGNATURES.find((signature) => startsAs(head, signature))?.mediaType ?? UNKNOWN_MEDIA_TYPE;
}

/** The media type of a file whose type is not known. */
export const UNKNOWN_MEDIA_TYPE = 'application/octet-stream';

/** The media type `data`'s first bytes say it is (PNG, JPEG, GIF, WebP, PDF, HEIC), else `undefined`. `data` standard base64. */
export function sniffedMediaType(data: string): string | undefined {
  const head = Buffer.from(data.length > HEAD_CHARS ? data.slice(0, HEAD_CHARS) : data, 'base64');
  return SIGNATURES.find((signature) => startsAs(head, signature))?.mediaType;
}
