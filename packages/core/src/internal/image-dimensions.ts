/** An image's width and height in pixels, as its header states them. */
export interface ImageDimensions {
  /** Pixels across. */
  readonly width: number;
  /** Pixels down. */
  readonly height: number;
}

/**
 * The most bytes read of one image: what bounds the work a crafted file can cost (about a millisecond, once per
 * stored file), however many segments, fill bytes or GIF sub-blocks it holds. Only the bytes at headers are read
 * (a JPEG's markers and segment lengths, a GIF's block introducers and sub-block sizes), each from the two base64
 * characters that hold it: a segment of 64 KB costs 4 bytes read, so a real file (a camera's 45 extended-XMP
 * segments, a GIF's 50 KB comment) is read to its frame.
 */
const MAX_READ_BYTES = 65_536;

/** The 6-bit value of each base64 character by its code, -1 for any other (padding included). */
const BASE64_VALUES = (() => {
  const values = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let index = 0; index < alphabet.length; index++) values[alphabet.charCodeAt(index)] = index;
  return values;
})();

/**
 * Reads single bytes of base64 text at any offset, decoding only the two characters that hold each (nothing is
 * decoded in bulk, nothing allocated but for {@link bytes}). Reads at most {@link MAX_READ_BYTES}; past them
 * ({@link spent} is then set), or past the data, or at a character that is not base64, it reads as the end of the data.
 */
class Base64Reader {
  private reads = 0;
  /** Whether a read was refused by the budget: what was read ends there, not at the end of the data. */
  spent = false;

  constructor(private readonly data: string) {}

  /** The byte at `offset`, or `undefined` when the data (or the budget) ends first. */
  byte(offset: number): number | undefined {
    if (++this.reads > MAX_READ_BYTES) {
      this.spent = true;
      return undefined;
    }
    const group = (offset / 3) | 0;
    const within = offset - group * 3;
    // Byte 0 of a 4-character group is chars 0-1, byte 1 chars 1-2, byte 2 chars 2-3.
    const high = this.value(group * 4 + within);
    const low = this.value(group * 4 + within + 1);
    if (high < 0 || low < 0) return undefined;
    return ((high << (2 + 2 * within)) | (low >> (4 - 2 * within))) & 0xff;
  }

  /** The first bytes of the data, up to `length` (fewer when the data is shorter). */
  head(length: number): Uint8Array {
    const bytes = new Uint8Array(length);
    for (let index = 0; index < length; index++) {
      const byte = this.byte(index);
      if (byte === undefined) return bytes.subarray(0, index);
      bytes[index] = byte;
    }
    return bytes;
  }

  /** The `length` bytes at byte `offset` (a header's few), or `undefined` when the data (or the budget) ends first. */
  bytes(offset: number, length: number): Uint8Array | undefined {
    const bytes = new Uint8Array(length);
    for (let index = 0; index < length; index++) {
      const byte = this.byte(offset + index);
      if (byte === undefined) return undefined;
      bytes[index] = byte;
    }
    return bytes;
  }

  private value(char: number): number {
    const code = this.data.charCodeAt(char);
    return code < 128 ? BASE64_VALUES[code] : -1;
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
 * malformed or cut short, for a header not read within the budget (a GIF's logical screen alone is not its size
 * then: its frame is unread), and for `data` that is not a string. Reads only the bytes of its headers, each decoded
 * from the two base64 characters that hold it, and at most {@link MAX_READ_BYTES} in all: a PNG's IHDR, a GIF's
 * logical screen and its first image descriptor (the larger extent of the two: a frame may reach past the screen),
 * after its extensions' sub-blocks, a WebP's VP8, VP8L or VP8X chunk, a JPEG's segment markers and lengths up to its
 * first frame header (SOFn), skipping fill bytes and, as libjpeg does, any stray
 * bytes before a marker. Never throws. `data` should be standard base64 (see `isBase64Data`): it reads as ending at
 * the first character that is not (whitespace, padding, URL-safe base64).
 */
export function imageDimensions(data: string): ImageDimensions | undefined {
  if (typeof data !== 'string') return undefined;
  const reader = new Base64Reader(data);
  const head = reader.head(30);
  if (head.length >= 24 && startsWith(head, 0, PNG_SIGNATURE)) {
    // The IHDR chunk comes first: length 13, type, width and height (4 bytes each, big-endian, at most 2^31 - 1).
    if (!startsWith(head, 8, PNG_IHDR)) return undefined;
    const width = uint32BE(head, 16);
    const height = uint32BE(head, 20);
    return width <= 0x7fffffff && height <= 0x7fffffff ? sized(width, height) : undefined;
  }
  if (head.length >= 13 && (startsWith(head, 0, GIF87A) || startsWith(head, 0, GIF89A))) {
    // A GIF read to the budget has not shown its first frame, which may reach past its screen: its size is unknown.
    const size = gifDimensions(reader, head);
    return reader.spent ? undefined : size;
  }
  if (head.length >= 30 && startsWith(head, 0, RIFF) && startsWith(head, 8, WEBP)) return webpDimensions(head);
  if (startsWith(head, 0, JPEG_SOI)) return jpegDimensions(reader);
  return undefined;
}

/**
 * A GIF's size: its logical screen (from the 13 bytes of its header), or the extent of its first image descriptor
 * when that reaches further (decoders draw the whole frame: a 10x10 screen may hold an 8200x16 frame). When no
 * descriptor is found (the trailer, a cut, a block that is not one), the logical screen's; the caller tells a
 * budget spent ({@link Base64Reader.spent}) from these.
 */
function gifDimensions(reader: Base64Reader, head: Uint8Array): ImageDimensions | undefined {
  const screen = sized(uint16LE(head, 6), uint16LE(head, 8));
  // A global color table of 3 * 2^(n + 1) bytes follows the screen descriptor when its flag is set.
  let offset = 13 + ((head[10] & 0x80) !== 0 ? 3 << ((head[10] & 0x07) + 1) : 0);
  for (;;) {
    const introducer = reader.byte(offset);
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
      const size = reader.byte(offset);
      if (size === undefined) return screen;
      offset += 1 + size;
      if (size === 0) break;
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

/**
 * A JPEG's size from its first frame header, walking the segments after SOI; `undefined` at the scan (SOS) or the
 * end (EOI) before one. As libjpeg reads markers: bytes up to the next 0xFF are skipped (it warns of extraneous
 * data), then any fill bytes (0xFF); 0xFF 0x00 is not a marker.
 */
function jpegDimensions(reader: Base64Reader): ImageDimensions | undefined {
  let offset = 2;
  for (;;) {
    let byte = reader.byte(offset);
    while (byte !== undefined && byte !== 0xff) byte = reader.byte(++offset);
    while (byte === 0xff) byte = reader.byte(++offset);
    if (byte === undefined) return undefined;
    const at = offset;
    offset = at + 1;
    if (byte === 0x00 || isStandalone(byte)) continue;
    if (byte === 0xda || byte === 0xd9) return undefined;
    const lengthHigh = reader.byte(at + 1);
    const lengthLow = reader.byte(at + 2);
    if (lengthHigh === undefined || lengthLow === undefined) return undefined;
    const length = (lengthHigh << 8) | lengthLow;
    if (isStartOfFrame(byte)) {
      // Length, sample precision (1 byte), height, width (2 bytes each, big-endian); a height of 0 is given later (DNL): not read here.
      const frame = length >= 8 ? reader.bytes(at + 3, 5) : undefined;
      return frame === undefined ? undefined : sized(uint16BE(frame, 3), uint16BE(frame, 1));
    }
    if (length < 2) return undefined;
    offset = at + 1 + length;
  }
}
