/** An image's width and height in pixels, as its header states them. */
export interface ImageDimensions {
  /** Pixels across. */
  readonly width: number;
  /** Pixels down. */
  readonly height: number;
}

/** Bytes decoded at a time (a multiple of 3, so a window starts on a 4-character group): a PNG, GIF or WebP header and most JPEGs' segments up to the frame header. */
const WINDOW_BYTES = 384;
/**
 * The most bytes decoded for one image (42 windows): what bounds the work a crafted file can cost (a few hundred
 * µs), however many markers, fill bytes or GIF blocks it holds. A camera's EXIF and ICC segments are skipped
 * without being decoded, a window each.
 */
const MAX_DECODED_BYTES = 16 * 1024;

/**
 * Reads bytes of base64 text at any offset, decoding {@link WINDOW_BYTES} at a time: a JPEG's walk skips
 * its segments (an EXIF block of 64 KB costs one more window) without decoding what it skips. Decodes at most
 * {@link MAX_DECODED_BYTES} in all; past them it reads as the end of the data.
 */
class Base64Reader {
  private windowStart = 0;
  private window: Buffer;
  private decoded = 0;

  constructor(private readonly data: string) {
    this.window = this.decode(0);
  }

  /** The `length` bytes (at most {@link WINDOW_BYTES}) at byte `offset`, or `undefined` when the data (or the budget) ends first. */
  bytes(offset: number, length: number): Uint8Array | undefined {
    if (!this.cover(offset, length)) return undefined;
    const start = offset - this.windowStart;
    return this.window.subarray(start, start + length);
  }

  /** The offset of the first byte at or after `offset` for which `wanted` holds; `undefined` when the data (or the budget) ends first. */
  find(offset: number, wanted: (byte: number) => boolean): number | undefined {
    for (;;) {
      if (!this.cover(offset, 1)) return undefined;
      const window = this.window;
      for (let at = offset - this.windowStart; at < window.length; at++) if (wanted(window[at])) return this.windowStart + at;
      offset = this.windowStart + window.length;
    }
  }

  /** Whether the window holds the `length` bytes at `offset`, decoding the window that starts there when it does not. */
  private cover(offset: number, length: number): boolean {
    if (offset < this.windowStart || offset + length > this.windowStart + this.window.length) {
      // Past the end of the data, a fuller window would not help.
      if (this.window.length < WINDOW_BYTES && offset >= this.windowStart) return false;
      if (this.decoded >= MAX_DECODED_BYTES) return false;
      this.windowStart = offset - (offset % 3);
      this.window = this.decode(this.windowStart);
    }
    return offset - this.windowStart + length <= this.window.length;
  }

  private decode(byteOffset: number): Buffer {
    const charOffset = (byteOffset / 3) * 4;
    const window = Buffer.from(this.data.slice(charOffset, charOffset + (WINDOW_BYTES / 3) * 4), 'base64');
    this.decoded += window.length;
    return window;
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
 * told by the bytes, not by a declared media type); `undefined` for any other bytes, for a header that is
 * malformed or cut short, and for `data` that is not a string. Decodes only the bytes it reads, a few hundred at a
 * time and at most {@link MAX_DECODED_BYTES} in all: a PNG's IHDR, a GIF's logical screen and its first image
 * descriptor (the larger extent of the two: a frame may reach past the screen), a WebP's VP8, VP8L or VP8X chunk, a
 * JPEG's segment markers up to its first frame header (SOFn), skipping fill bytes and, as libjpeg does, any stray
 * bytes before a marker. Never throws. `data` should be standard base64 (see `isBase64Data`): other text reads as
 * other bytes.
 */
export function imageDimensions(data: string): ImageDimensions | undefined {
  if (typeof data !== 'string') return undefined;
  const reader = new Base64Reader(data);
  const png = reader.bytes(0, 24);
  if (png !== undefined && startsWith(png, 0, PNG_SIGNATURE)) {
    // The IHDR chunk comes first: length 13, type, width and height (4 bytes each, big-endian, at most 2^31 - 1).
    if (!startsWith(png, 8, PNG_IHDR)) return undefined;
    const width = uint32BE(png, 16);
    const height = uint32BE(png, 20);
    return width <= 0x7fffffff && height <= 0x7fffffff ? sized(width, height) : undefined;
  }
  const gif = reader.bytes(0, 13);
  if (gif !== undefined && (startsWith(gif, 0, GIF87A) || startsWith(gif, 0, GIF89A))) return gifDimensions(reader, gif);
  const webp = reader.bytes(0, 30);
  if (webp !== undefined && startsWith(webp, 0, RIFF) && startsWith(webp, 8, WEBP)) return webpDimensions(webp);
  const jpeg = reader.bytes(0, 3);
  if (jpeg !== undefined && startsWith(jpeg, 0, JPEG_SOI)) return jpegDimensions(reader);
  return undefined;
}

/**
 * A GIF's size: its logical screen (from the 13 bytes of its header), or the extent of its first image descriptor
 * when that reaches further (decoders draw the whole frame: a 10x10 screen may hold an 8200x16 frame). When no
 * descriptor is found (the trailer, a cut, a block that is not one), the logical screen's.
 */
function gifDimensions(reader: Base64Reader, head: Uint8Array): ImageDimensions | undefined {
  const screen = sized(uint16LE(head, 6), uint16LE(head, 8));
  // A global color table of 3 * 2^(n + 1) bytes follows the screen descriptor when its flag is set.
  let offset = 13 + ((head[10] & 0x80) !== 0 ? 3 << ((head[10] & 0x07) + 1) : 0);
  for (;;) {
    const introducer = reader.bytes(offset, 1)?.[0];
    if (introducer === 0x2c) {
      // Image descriptor: left, top, width, height (2 bytes each, little-endian).
      const block = reader.bytes(offset, 9);
      if (block === undefined) return screen;
      const right = uint16LE(block, 1) + uint16LE(block, 5);
      const bottom = uint16LE(block, 3) + uint16LE(block, 7);
      return sized(Math.max(screen?.width ?? 0, right), Math.max(screen?.height ?? 0, bottom));
    }
    if (introducer !== 0x21) return screen;
    // Extension: introducer, label, then data sub-blocks (a size byte, then that many bytes) up to a size of 0.
    offset += 2;
    for (;;) {
      const size = reader.bytes(offset, 1);
      if (size === undefined) return screen;
      offset += 1 + size[0];
      if (size[0] === 0) break;
    }
  }
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

const isMarkerStart = (byte: number): boolean => byte === 0xff;
const isMarkerCode = (byte: number): boolean => byte !== 0xff;

/**
 * A JPEG's size from its first frame header, walking the segments after SOI; `undefined` at the scan (SOS) or the
 * end (EOI) before one. As libjpeg reads markers: bytes up to the next 0xFF are skipped (it warns of extraneous
 * data), then any fill bytes (0xFF); 0xFF 0x00 is not a marker.
 */
function jpegDimensions(reader: Base64Reader): ImageDimensions | undefined {
  let offset = 2;
  for (;;) {
    const start = reader.find(offset, isMarkerStart);
    const at = start === undefined ? undefined : reader.find(start + 1, isMarkerCode);
    const code = at === undefined ? undefined : reader.bytes(at, 1)?.[0];
    if (at === undefined || code === undefined) return undefined;
    offset = at + 1;
    if (code === 0x00 || isStandalone(code)) continue;
    if (code === 0xda || code === 0xd9) return undefined;
    const segment = reader.bytes(at + 1, 2);
    if (segment === undefined) return undefined;
    const length = uint16BE(segment, 0);
    if (isStartOfFrame(code)) {
      // Length, sample precision (1 byte), height, width (2 bytes each, big-endian); a height of 0 is given later (DNL): not read here.
      const frame = length >= 8 ? reader.bytes(at + 3, 5) : undefined;
      return frame === undefined ? undefined : sized(uint16BE(frame, 3), uint16BE(frame, 1));
    }
    if (length < 2) return undefined;
    offset = at + 1 + length;
  }
}
