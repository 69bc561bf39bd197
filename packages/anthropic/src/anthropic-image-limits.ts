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
export const MAX_FULL_SIZE_IMAGES = 20;

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

/**
 * Why Anthropic would refuse the image `file` (of a type it takes), for its note; `undefined` when it takes it:
 * over 5 MB of base64, over 8000 pixels a side, or, when the request holds more than {@link MAX_FULL_SIZE_IMAGES}
 * images (`manyImages`), over 2000 pixels a side. An image whose size cannot be read from its header is sent.
 */
export function imageRefusal(file: InlineData, manyImages: boolean): string | undefined {
  if (file.data.length > MAX_IMAGE_BASE64_CHARS) return 'images over 5 MB (of base64) are not sent to Anthropic';
  const size = sizeOf(file);
  if (size === undefined) return undefined;
  const side = Math.max(size.width, size.height);
  if (side > MAX_IMAGE_SIDE) return `it is ${pixelsText(size)}, over Anthropic's limit of ${MAX_IMAGE_SIDE} pixels a side`;
  if (manyImages && side > MAX_MANY_IMAGES_SIDE) {
    return `it is ${pixelsText(size)}, over Anthropic's limit of ${MAX_MANY_IMAGES_SIDE} pixels a side in a request of more than ${MAX_FULL_SIZE_IMAGES} images`;
  }
  return undefined;
}

const pixelsText = (size: ImageDimensions): string => `${size.width}x${size.height} pixels`;
