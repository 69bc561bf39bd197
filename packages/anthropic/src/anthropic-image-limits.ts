import type { InlineData } from '@toolsmith/core';
import { type ImageDimensions, imageDimensions } from '@toolsmith/core/adapter-kit';

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

/**
 * Each stored file's size, read once: every request sends the session's files again. Keyed by the file
 * object, which a session's contents hold from one request to the next; `data` is kept to tell a replaced file.
 */
const sizes = new WeakMap<InlineData, { readonly data: string; readonly size: ImageDimensions | undefined }>();

function sizeOf(file: InlineData): ImageDimensions | undefined {
  const known = sizes.get(file);
  if (known !== undefined && known.data === file.data) return known.size;
  const size = imageDimensions(file.data);
  sizes.set(file, { data: file.data, size });
  return size;
}

/** Why a file is not sent, for its note; `thisRequestOnly` when a limit on the request leaves it out (earlier requests may have sent it). */
export interface FileRefusal {
  readonly reason: string;
  readonly thisRequestOnly: boolean;
}

/** At most 100 images per request: the lower of Anthropic's two limits (100 for models with a 200k-token context window, 600 for the others). */
const MAX_REQUEST_IMAGES = 100;
/**
 * The most base64 the request's files may hold together: 30 MB, under Anthropic's 32 MB limit on a request, with
 * room for its text (a conservative rule: the rest of the request is not measured).
 */
const MAX_REQUEST_FILE_CHARS = 30 * 1024 * 1024;

/**
 * Why Anthropic would refuse each of the files the request would send as blocks of their own (oldest first;
 * `images[i]` when `files[i]` is an image of a type Anthropic takes), by index; `undefined` for a file that is
 * sent (and for the whole answer when all are). In turn:
 * 1. an image over 5 MB of base64 or 8000 pixels a side is refused (a limit on the file);
 * 2. of the images left, only the newest {@link MAX_REQUEST_IMAGES} are sent;
 * 3. when more than {@link MAX_FULL_SIZE_IMAGES} images are left and some are over 2000 pixels a side, whichever
 *    leaves out fewer images: those over 2000 pixels a side, or the oldest until 20 remain (then the 8000 pixels
 *    apply); on a tie the oldest (the newest images matter most);
 * 4. the oldest files (of any type) are left out until the base64 of those left fits in {@link MAX_REQUEST_FILE_CHARS}.
 * An image whose size cannot be read from its header counts as an image within 2000 pixels.
 */
export function requestFileRefusals(files: readonly InlineData[], images: readonly boolean[]): (FileRefusal | undefined)[] | undefined {
  let refusals: (FileRefusal | undefined)[] | undefined;
  const refused = (index: number): boolean => refusals !== undefined && refusals[index] !== undefined;
  const refuse = (index: number, refusal: FileRefusal): void => {
    (refusals ??= [])[index] = refusal;
  };
  let sent = 0;
  for (let index = 0; index < files.length; index++) {
    if (!images[index]) continue;
    const refusal = imageRefusal(files[index]);
    if (refusal === undefined) sent++;
    else refuse(index, refusal);
  }
  for (let index = 0; sent > MAX_REQUEST_IMAGES; index++) {
    if (!images[index] || refused(index)) continue;
    refuse(index, { reason: `Anthropic takes at most ${MAX_REQUEST_IMAGES} images in a request (the newest ${MAX_REQUEST_IMAGES} are sent)`, thisRequestOnly: true });
    sent--;
  }
  if (sent > MAX_FULL_SIZE_IMAGES) {
    const isLarge = (index: number): boolean => images[index] && !refused(index) && side(files[index]) > MAX_MANY_IMAGES_SIDE;
    let large = 0;
    for (let index = 0; index < files.length; index++) if (isLarge(index)) large++;
    const beyond = sent - MAX_FULL_SIZE_IMAGES;
    if (large > 0 && large < beyond) {
      for (let index = files.length - 1; index >= 0; index--) {
        const size = isLarge(index) ? sizeOf(files[index]) : undefined;
        if (size !== undefined) refuse(index, { reason: `it is ${pixelsText(size)}, over Anthropic's limit of ${MAX_MANY_IMAGES_SIDE} pixels a side in a request of more than ${MAX_FULL_SIZE_IMAGES} images`, thisRequestOnly: true });
      }
    } else if (large > 0) {
      for (let index = 0; sent > MAX_FULL_SIZE_IMAGES; index++) {
        if (!images[index] || refused(index)) continue;
        refuse(index, { reason: `Anthropic takes at most ${MAX_FULL_SIZE_IMAGES} images in a request holding one over ${MAX_MANY_IMAGES_SIDE} pixels a side (the newest ${MAX_FULL_SIZE_IMAGES} are sent)`, thisRequestOnly: true });
        sent--;
      }
    }
  }
  let chars = 0;
  for (let index = 0; index < files.length; index++) if (!refused(index)) chars += files[index].data.length;
  for (let index = 0; chars > MAX_REQUEST_FILE_CHARS; index++) {
    if (refused(index)) continue;
    chars -= files[index].data.length;
    refuse(index, { reason: "the request's files would take it past Anthropic's limit of 32 MB a request (the newest files are sent)", thisRequestOnly: true });
  }
  return refusals;
}

/** The longer side of the image `file` in pixels, 0 when its header does not give it. */
function side(file: InlineData): number {
  const size = sizeOf(file);
  return size === undefined ? 0 : Math.max(size.width, size.height);
}

/** Why Anthropic would refuse the image `file` whatever the request: over 5 MB of base64, over 8000 pixels a side. An image whose size cannot be read from its header is sent. */
function imageRefusal(file: InlineData): FileRefusal | undefined {
  if (file.data.length > MAX_IMAGE_BASE64_CHARS) return { reason: 'images over 5 MB (of base64) are not sent to Anthropic', thisRequestOnly: false };
  const size = sizeOf(file);
  if (size !== undefined && Math.max(size.width, size.height) > MAX_IMAGE_SIDE) {
    return { reason: `it is ${pixelsText(size)}, over Anthropic's limit of ${MAX_IMAGE_SIDE} pixels a side`, thisRequestOnly: false };
  }
  return undefined;
}

const pixelsText = (size: ImageDimensions): string => `${size.width}x${size.height} pixels`;
