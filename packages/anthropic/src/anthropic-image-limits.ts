import type { InlineData } from '@toolsmith/core';
import { type ImageDimensions, imageDimensions, utf8Text } from '@toolsmith/core/adapter-kit';
import { jsonStringBytes } from './json-string-bytes';

// Anthropic's limits on one image (https://platform.claude.com/docs/en/build-with-claude/vision, "General
// limits": "The maximal dimensions per image are 8000x8000 px. If you submit more than 20 images in one API
// request, this limit is reduced to 2000x2000 px."). An image over them is refused with a 400 on every request
// that holds it, and the session holds it on every later turn.

/** At most 5 MB of base64 text ("image exceeds 5 MB maximum: … bytes > 5242880 bytes"). */
const MAX_IMAGE_BASE64_CHARS = 5 * 1024 * 1024;
/** At most 8000 pixels a side ("At least one of the image dimensions exceed max allowed size: 8000 pixels"). */
const MAX_IMAGE_SIDE = 8000;
/** In a request of more than {@link MAX_FULL_SIZE_IMAGES} images, at most 2000 pixels a side ("… max allowed size for many-image requests: 2000 pixels"). */
const MAX_MANY_IMAGES_SIDE = 2000;
/** The most images a request may hold before {@link MAX_MANY_IMAGES_SIDE} applies. */
const MAX_FULL_SIZE_IMAGES = 20;

/** How a file Anthropic takes is sent: an image, a PDF (base64, as a document), or plain text (a text document). */
export type FileKind = 'image' | 'pdf' | 'text';

/** What is read once of a stored file: its size (an image's), the bytes it takes in the request as sent, or why it is never sent. */
interface FileFacts {
  /** The data these facts were read from, to tell a replaced file. */
  readonly data: string;
  readonly size: ImageDimensions | undefined;
  /** Bytes of the request body the file takes as sent: its base64, or a text document's JSON-escaped UTF-8. */
  readonly bytes: number;
  /** Why Anthropic refuses the file whatever the request holds. */
  readonly refusal: FileRefusal | undefined;
}

/**
 * Each stored file's facts, read once: every request sends the session's files again. Keyed by the file object,
 * which a session's contents hold from one request to the next; `data` is kept to tell a replaced file.
 */
const facts = new WeakMap<InlineData, FileFacts>();

function factsOf(file: InlineData, kind: FileKind): FileFacts {
  const known = facts.get(file);
  if (known !== undefined && known.data === file.data) return known;
  const read = readFacts(file.data, kind);
  facts.set(file, read);
  return read;
}

function readFacts(data: string, kind: FileKind): FileFacts {
  const read = readFileFacts(data, kind);
  // A file that alone takes more than the files' share of a request is never sent, whatever else the request holds.
  if (read.refusal !== undefined || read.bytes <= MAX_REQUEST_FILE_BYTES) return read;
  const sent = kind === 'text' ? 'its text JSON-escaped' : 'its base64';
  const reason = `it takes ${megabytesText(read.bytes)} as sent (${sent}), over the ${MAX_REQUEST_FILE_MB} MB a request's files may take (Anthropic takes at most ${MAX_REQUEST_MB} MB a request)`;
  return { ...read, refusal: { reason, thisRequestOnly: false } };
}

function readFileFacts(data: string, kind: FileKind): FileFacts {
  if (kind === 'pdf') return { data, size: undefined, bytes: data.length, refusal: undefined };
  if (kind === 'text') {
    const text = utf8Text(data);
    if (text === undefined) return { data, size: undefined, bytes: 0, refusal: { reason: 'its bytes are not UTF-8 text', thisRequestOnly: false } };
    // The API refuses text that is empty or only whitespace ("text content blocks must contain non-whitespace text").
    if (text.trim() === '') return { data, size: undefined, bytes: 0, refusal: { reason: 'it holds no text', thisRequestOnly: false } };
    // Sent as a JSON string: a control character takes 6 bytes (\u001b), a quote 2, a CJK character 3; counted without building it.
    return { data, size: undefined, bytes: jsonStringBytes(text), refusal: undefined };
  }
  if (data.length > MAX_IMAGE_BASE64_CHARS) return { data, size: undefined, bytes: data.length, refusal: { reason: 'images over 5 MB (of base64) are not sent to Anthropic', thisRequestOnly: false } };
  const size = imageDimensions(data);
  const refusal =
    size !== undefined && Math.max(size.width, size.height) > MAX_IMAGE_SIDE
      ? { reason: `it is ${pixelsText(size)}, over Anthropic's limit of ${MAX_IMAGE_SIDE} pixels a side`, thisRequestOnly: false }
      : undefined;
  return { data, size, bytes: data.length, refusal };
}

/** What Anthropic's own block (kept in a part's `providerData`, sent back as received) takes of a request's limits. */
interface BlockFacts {
  /** Bytes of the request body it takes: its JSON's UTF-8. */
  readonly bytes: number;
  /** The base64 images it holds (`{ type: 'image', source: { type: 'base64', data } }` anywhere in it). */
  readonly images: number;
  /** Whether one of them counts as over {@link MAX_MANY_IMAGES_SIDE} pixels a side (see {@link isLarge}). */
  readonly large: boolean;
}

/** Each block's facts, read once per block object (a session's contents hold it from one request to the next). */
const blockFacts = new WeakMap<object, BlockFacts>();

function blockFactsOf(block: object): BlockFacts {
  let known = blockFacts.get(block);
  if (known === undefined) {
    const found = { images: 0, large: false };
    findImages(block, found, 0);
    known = { bytes: Buffer.byteLength(JSON.stringify(block) ?? ''), ...found };
    blockFacts.set(block, known);
  }
  return known;
}

/** The deepest a block is searched for images: JSON as Anthropic sends it nests a few levels. */
const MAX_BLOCK_DEPTH = 32;

function findImages(value: unknown, found: { images: number; large: boolean }, depth: number): void {
  if (typeof value !== 'object' || value === null || depth > MAX_BLOCK_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) findImages(item, found, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  const source = record.source as Record<string, unknown> | undefined;
  if (record.type === 'image' && typeof source === 'object' && source !== null && source.type === 'base64' && typeof source.data === 'string') {
    found.images++;
    const size = source.data.length > MAX_IMAGE_BASE64_CHARS ? undefined : imageDimensions(source.data);
    found.large ||= size === undefined || Math.max(size.width, size.height) > MAX_MANY_IMAGES_SIDE;
    return;
  }
  for (const key in record) findImages(record[key], found, depth + 1);
}

/** Why a file is not sent, for its note; `thisRequestOnly` when a limit on the request leaves it out (earlier requests may have sent it). */
export interface FileRefusal {
  readonly reason: string;
  readonly thisRequestOnly: boolean;
}

/** At most 100 images per request: the lower of Anthropic's two limits (100 for models with a 200k-token context window, 600 for the others). */
const MAX_REQUEST_IMAGES = 100;
/** Anthropic's limit on a request's body, 32 MB ("413 request_too_large"), taken as decimal: the lower reading. */
const MAX_REQUEST_MB = 32;
/**
 * The most bytes the request's files may take together as sent: 28 MB (decimal), leaving 4 MB of
 * {@link MAX_REQUEST_MB} for the rest of the request (its text, the tools, the JSON around the files).
 */
const MAX_REQUEST_FILE_MB = 28;
const MAX_REQUEST_FILE_BYTES = MAX_REQUEST_FILE_MB * 1000 * 1000;

const NEWEST_FILES = '(the newest files are sent)';

/**
 * Why Anthropic would refuse each of the files the request would send as blocks of their own (oldest first;
 * `kinds[i]` how `files[i]` is sent), by index; `undefined` for a file that is sent (and for the whole answer when
 * all are). A file Anthropic refuses whatever the request holds is a note (an image over 5 MB of base64 or 8000
 * pixels a side; text that is not UTF-8 or is blank; a file that alone takes more than {@link MAX_REQUEST_FILE_BYTES} as sent). Then, from the newest file to the oldest, a file is sent
 * when the files sent so far and it stay within Anthropic's limits on a request, else it is a note: at most
 * {@link MAX_REQUEST_IMAGES} images; at most {@link MAX_FULL_SIZE_IMAGES} when one of them is over
 * {@link MAX_MANY_IMAGES_SIDE} pixels a side (an image whose size cannot be read from its header counts as one:
 * it may be); the files' bytes as sent within {@link MAX_REQUEST_FILE_BYTES}. So the newest files are sent, as
 * many as the limits allow (a computer-use agent's current screenshot among them). Anthropic's own `blocks` (kept in
 * model turns' `providerData`, sent back as received: a web fetch's PDF) cannot be left out: they are counted
 * first, their JSON's bytes and their base64 images, and the files get what remains. Anthropic's limit of 100 PDF
 * pages a request is not enforced: a PDF's pages are not counted.
 */
export function requestFileRefusals(files: readonly InlineData[], kinds: readonly FileKind[], blocks: readonly object[] = []): (FileRefusal | undefined)[] | undefined {
  let refusals: (FileRefusal | undefined)[] | undefined;
  let images = 0;
  let large = false;
  let bytes = 0;
  // Anthropic's own blocks go back as received, whatever they hold: they are counted first, and the files get the rest.
  for (const block of blocks) {
    const sent = blockFactsOf(block);
    bytes += sent.bytes;
    images += sent.images;
    large ||= sent.large;
  }
  for (let index = files.length - 1; index >= 0; index--) {
    const kind = kinds[index];
    const file = factsOf(files[index], kind);
    const refusal = file.refusal ?? (kind === 'image' ? imagesRefusal(file, images, large) : undefined) ?? bytesRefusal(file, bytes);
    if (refusal !== undefined) {
      (refusals ??= [])[index] = refusal;
      continue;
    }
    bytes += file.bytes;
    if (kind === 'image') {
      images++;
      large ||= isLarge(file);
    }
  }
  return refusals;
}

/** Whether an image counts as over {@link MAX_MANY_IMAGES_SIDE} pixels a side: it is, or its size cannot be read. */
const isLarge = (file: FileFacts): boolean => file.size === undefined || Math.max(file.size.width, file.size.height) > MAX_MANY_IMAGES_SIDE;

/** Why the image `file` is not sent with the `images` sent so far (`large`: one of them is over 2000 pixels a side), or `undefined`. */
function imagesRefusal(file: FileFacts, images: number, large: boolean): FileRefusal | undefined {
  if (images + 1 > MAX_REQUEST_IMAGES) return { reason: `Anthropic takes at most ${MAX_REQUEST_IMAGES} images in a request ${NEWEST_FILES}`, thisRequestOnly: true };
  if (images + 1 <= MAX_FULL_SIZE_IMAGES || !(large || isLarge(file))) return undefined;
  const limit = `Anthropic takes at most ${MAX_FULL_SIZE_IMAGES} images in a request holding one over ${MAX_MANY_IMAGES_SIDE} pixels a side ${NEWEST_FILES}`;
  if (large) return { reason: limit, thisRequestOnly: true };
  return { reason: file.size === undefined ? `its size cannot be read from its header, and ${limit}` : `it is ${pixelsText(file.size)}, and ${limit}`, thisRequestOnly: true };
}

/** Why `file` is not sent with the `bytes` of the files sent so far, or `undefined`. */
function bytesRefusal(file: FileFacts, bytes: number): FileRefusal | undefined {
  if (bytes + file.bytes <= MAX_REQUEST_FILE_BYTES) return undefined;
  return { reason: `the request's files would take it past ${MAX_REQUEST_FILE_MB} MB (Anthropic takes at most ${MAX_REQUEST_MB} MB a request) ${NEWEST_FILES}`, thisRequestOnly: true };
}

const pixelsText = (size: ImageDimensions): string => `${size.width}x${size.height} pixels`;
/** `30.0 MB`: bytes in decimal megabytes, as Anthropic's limits are read here. */
const megabytesText = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`;
