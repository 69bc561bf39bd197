/** An image's width and height in pixels, as its header states them. */
export interface ImageDimensions {
  /** Pixels across. */
  readonly width: number;
  /** Pixels down. */
  readonly height: number;
}

/** Bytes decoded at a time (a multiple of 3, so a window starts on a 4-character group): a PNG, GIF or WebP header and most JPEGs' segments up to the frame header. */
const WINDOW_BYTES = 384;
/** The most JPEG markers walked before the frame header (fill bytes included); a real file has a few dozen at most. */
const MAX_JPEG_MARKERS = 256;

/**
 * Reads bytes of base64 text at any offset, decoding {@link WINDOW_BYTES} at a time: a JPEG's walk skips
 * its segments (an EXIF block of 64 KB costs one more window) without decoding what it skips.
 */
class Base64Reader {
  private windowStart = 0;
  private window: Buffer;

  constructor(private readonly data: string) {
    this.window = this.decode(0);
  }

  /** The `length` bytes (at most {@link WINDOW_BYTES}) at byte `offset`, or `undefined` when the data ends first. */
  bytes(offset: number, length: number): Uint8Array | undefined {
    if (offset < this.windowStart || offset + length > this.windowStart + this.window.length) {
      // Past the end of the data, a fuller window would not help.
      if (this.window.length < WINDOW_BYTES && offset >= this.windowStart) return undefined;
      this.windowStart = offset - (offset % 3);
      this.window = this.decode(this.windowStart);
    }
    const start = offset - this.windowStart;
    return start + length <= this.window.length ? this.window.subarray(start, start + length) : undefined;
  }

  private decode(byteOffset: number): Buffer {
    const charOffset = (byteOffset / 3) * 4;
    return Buffer.from(this.data.slice(charOffset, charOffset + (WINDOW_BYTES / 3) * 4), 'base64');
  }
}

const uint16BE = (bytes: Uint8Array, at: number): number => (bytes[at] << 8) | bytes[at + 1];
const uint16LE = (bytes: Uint8Array, at: number): number => bytes[at] | (bytes[at + 1] << 8);
const uint24LE = (bytes: Uint8Array, at: number): number => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
const uint32BE = (bytes: Uint8Array, at: number): number => bytes[at] * 0x1000000 + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]);
const startsWith = (bytes: Uint8Array, at: number, expected: readonly number[]): boolean => expected.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string): number[] => Array.from(text, (char) => char.charCodeAt(0));

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_IHDR = [0x00, 0x00, 0x00, 0x0d, ...ascii('IHDR')];
const GIF87A = ascii('GIF87a');
const GIF89A = ascii('GIF89a');
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');
const VP8_LOSSY = ascii('VP8 ');
const VP8_LOSSLESS = ascii('VP8L');
const VP8_EXTENDED = ascii('VP8X');
const VP8_START_CODE = [0x9d, 0x01, 0x2a];
const JPEG_SOI = [0xff, 0xd8, 0xff];

/** `{ width, height }`, or `undefined` when either is 0 (not a size a header may state). */
const sized = (width: number, height: number): ImageDimensions | undefined => (width > 0 && height > 0 ? { width, height } : undefined);

/**
 * The width and height of the PNG, GIF, WebP or JPEG image in base64 `data`, read from its header (the format is
 * told by the bytes, not by a declared media type); `undefined` for any other bytes, and for a header that is
 * malformed or cut short. Decodes only the bytes it reads, a few hundred at a time: a PNG's IHDR, a GIF's logical
 * screen, a WebP's VP8, VP8L or VP8X chunk, a JPEG's segment markers up to its first frame header (SOFn), walking
 * at most {@link MAX_JPEG_MARKERS} of them. Never throws. `data` should be standard base64 (see `isBase64Data`):
 * other text reads as other bytes.
 */
export function imageDimensions(data: string): ImageDimensions | undefined {
  const reader = new Base64Reader(data);
  const png = reader.bytes(0, 24);
  if (png !== undefined && startsWith(png, 0, PNG_SIGNATURE)) {
    // The IHDR chunk comes first: length 13, type, width and height (4 bytes each, big-endian, at most 2^31 - 1).
    if (!startsWith(png, 8, PNG_IHDR)) return undefined;
    const width = uint32BE(png, 16);
    const height = uint32BE(png, 20);
    return width <= 0x7fffffff && height <= 0x7fffffff ? sized(width, height) : undefined;
  }
  const gif = reader.bytes(0, 10);
  if (gif !== undefined && (startsWith(gif, 0, GIF87A) || startsWith(gif, 0, GIF89A))) return sized(uint16LE(gif, 6), uint16LE(gif, 8));
  const webp = reader.bytes(0, 30);
  if (webp !== undefined && startsWith(webp, 0, RIFF) && startsWith(webp, 8, WEBP)) return webpDimensions(webp);
  const jpeg = reader.bytes(0, 3);
  if (jpeg !== undefined && startsWith(jpeg, 0, JPEG_SOI)) return jpegDimensions(reader);
  return undefined;
}

/** A WebP's size from its first chunk (the 30 bytes from the RIFF header). */
function webpDimensions(head: Uint8Array): ImageDimensions | undefined {
  if (startsWith(head, 12, VP8_LOSSY)) {
    // A key frame's 3-byte tag (bit 0 clear), the start code, then 14 bits of width and of height (the top 2 bits of each are a scale).
    if ((head[20] & 1) !== 0 || !startsWith(head, 23, VP8_START_CODE)) return undefined;
    return sized(uint16LE(head, 26) & 0x3fff, uint16LE(head, 28) & 0x3fff);
  }
  if (startsWith(head, 12, VP8_LOSSLESS)) {
    // The signature byte, then width - 1 and height - 1 in 14 bits each, least significant bit first.
    if (head[20] !== 0x2f) return undefined;
    return sized(1 + (head[21] | ((head[22] & 0x3f) << 8)), 1 + ((head[22] >> 6) | (head[23] << 2) | ((head[24] & 0x0f) << 10)));
  }
  // Flags and 3 reserved bytes, then the canvas's width - 1 and height - 1 in 3 bytes each.
  if (startsWith(head, 12, VP8_EXTENDED)) return sized(1 + uint24LE(head, 24), 1 + uint24LE(head, 27));
  return undefined;
}

/** Start-of-frame markers (SOF0–SOF15 but DHT, JPG and DAC, which share the range): the segment holding the size. */
const isStartOfFrame = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
/** Markers with no length after them: TEM, RST0–RST7, SOI. */
const isStandalone = (marker: number): boolean => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);

/** A JPEG's size from its first frame header, walking the segments after SOI; `undefined` at the scan (SOS) or the end (EOI) before one. */
function jpegDimensions(reader: Base64Reader): ImageDimensions | undefined {
  let offset = 2;
  for (let markers = 0; markers < MAX_JPEG_MARKERS; markers++) {
    const marker = reader.bytes(offset, 4);
    if (marker === undefined || marker[0] !== 0xff) return undefined;
    const code = marker[1];
    if (code === 0xff) {
      // A fill byte before the marker.
      offset += 1;
      continue;
    }
    if (isStandalone(code)) {
      offset += 2;
      continue;
    }
    if (code === 0xda || code === 0xd9) return undefined;
    const length = uint16BE(marker, 2);
    if (isStartOfFrame(code)) {
      // Length, sample precision (1 byte), height, width (2 bytes each, big-endian); a height of 0 is given later (DNL): not read here.
      const frame = length >= 8 ? reader.bytes(offset + 4, 5) : undefined;
      return frame === undefined ? undefined : sized(uint16BE(frame, 3), uint16BE(frame, 1));
    }
    if (length < 2) return undefined;
    offset += 2 + length;
  }
  return undefined;
}
