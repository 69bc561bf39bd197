import { imageDimensions } from './image-dimensions';

const bytes = (...chunks: (Buffer | string | number[])[]): Buffer =>
  Buffer.concat(chunks.map((chunk) => (Buffer.isBuffer(chunk) ? chunk : typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : Buffer.from(chunk))));
const uint16BE = (value: number): Buffer => Buffer.from([value >> 8, value & 0xff]);
const uint16LE = (value: number): Buffer => Buffer.from([value & 0xff, value >> 8]);
const uint24LE = (value: number): Buffer => Buffer.from([value & 0xff, (value >> 8) & 0xff, value >> 16]);
const uint32BE = (value: number): Buffer => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
};
const uint32LE = (value: number): Buffer => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value);
  return buffer;
};

/** A PNG's signature and IHDR chunk (8-bit RGBA), then an IEND chunk. */
const png = (width: number, height: number): Buffer =>
  bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], uint32BE(13), 'IHDR', uint32BE(width), uint32BE(height), [8, 6, 0, 0, 0], uint32BE(0), uint32BE(0), 'IEND', uint32BE(0xae426082));
/** A GIF's header and logical screen descriptor, then its trailer. */
const gif = (width: number, height: number, version = 'GIF89a'): Buffer => bytes(version, uint16LE(width), uint16LE(height), [0, 0, 0], ';');
/** A GIF image descriptor: left, top, width, height, no local color table. */
const gifFrame = (left: number, top: number, width: number, height: number): Buffer => bytes([0x2c], uint16LE(left), uint16LE(top), uint16LE(width), uint16LE(height), [0]);
/** A GIF extension: introducer, label, the payload in sub-blocks of at most 255 bytes, the terminator. */
const gifExtension = (label: number, payload: Buffer): Buffer => {
  const blocks: Buffer[] = [];
  for (let at = 0; at < payload.length; at += 255) {
    const block = payload.subarray(at, at + 255);
    blocks.push(bytes([block.length], block));
  }
  return bytes([0x21, label], ...blocks, [0]);
};
/** A GIF whose logical screen is `screen` and whose global color table (of 2^(tableBits + 1) colors, when given) and blocks follow. */
const gifWith = (screenWidth: number, screenHeight: number, tableBits: number | undefined, ...blocks: Buffer[]): Buffer =>
  bytes('GIF89a', uint16LE(screenWidth), uint16LE(screenHeight), [tableBits === undefined ? 0 : 0x80 | tableBits, 0, 0], tableBits === undefined ? [] : Buffer.alloc(3 << (tableBits + 1), 7), ...blocks, [2, 2, 0x4c, 0x01, 0], ';');
/** A RIFF/WEBP file holding one chunk. */
const webp = (fourcc: string, payload: Buffer): Buffer => bytes('RIFF', uint32LE(payload.length + 12), 'WEBP', fourcc, uint32LE(payload.length), payload);
/** A lossy WebP: a key frame's tag, the start code, 14 bits of width and height (the top 2 bits a scale). */
const vp8 = (width: number, height: number): Buffer => webp('VP8 ', bytes([0x50, 0x02, 0x00, 0x9d, 0x01, 0x2a], uint16LE(width | 0x4000), uint16LE(height | 0x8000), Buffer.alloc(10)));
/** A lossless WebP: the signature byte, then width - 1 and height - 1 in 14 bits each, packed from the least significant bit. */
const vp8l = (width: number, height: number): Buffer => {
  const packed = (width - 1) | ((height - 1) << 14) | (1 << 28); // bit 28: alpha used; bits 29-31: version 0
  return webp('VP8L', bytes([0x2f], uint32LE(packed >>> 0), Buffer.alloc(8)));
};
/** An extended WebP: flags, 3 reserved bytes, the canvas's width - 1 and height - 1 in 3 bytes each. */
const vp8x = (width: number, height: number): Buffer => webp('VP8X', bytes([0x10, 0, 0, 0], uint24LE(width - 1), uint24LE(height - 1)));

/** A JPEG segment: marker, length (counting itself), payload. */
const segment = (marker: number, payload: Buffer): Buffer => bytes([0xff, marker], uint16BE(payload.length + 2), payload);
const JFIF = segment(0xe0, bytes('JFIF\0', [1, 1, 0], uint16BE(72), uint16BE(72), [0, 0]));
const QUANTIZATION = segment(0xdb, bytes([0], Buffer.alloc(64, 1)));
/** A frame header: precision 8, height, width, 3 components. */
const frame = (marker: number, width: number, height: number): Buffer => segment(marker, bytes([8], uint16BE(height), uint16BE(width), [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]));
const HUFFMAN = segment(0xc4, bytes([0], Buffer.alloc(16, 0), [0]));
const SCAN = bytes(segment(0xda, bytes([3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0])), Buffer.alloc(32, 0x55), [0xff, 0xd9]);
/** A JPEG: SOI, the given segments, then a scan and EOI. */
const jpeg = (...segments: Buffer[]): Buffer => bytes([0xff, 0xd8], ...segments, SCAN);
/** An APP1 segment holding EXIF data of `size` bytes, as a camera writes before the frame (a thumbnail makes it large). */
const exif = (size: number): Buffer => segment(0xe1, bytes('Exif\0\0', 'MM\0*', uint32BE(8), Buffer.alloc(size - 14, 0xff)));

const base64 = (file: Buffer): string => file.toString('base64');

describe('imageDimensions: the size a base64 image header states', () => {
  it.each([
    ['a PNG (IHDR)', png(640, 480), 640, 480],
    ['a PNG over 8000 pixels wide', png(12000, 300), 12000, 300],
    ['a GIF89a (logical screen)', gif(320, 200), 320, 200],
    ['a GIF87a', gif(9000, 1, 'GIF87a'), 9000, 1],
    ['a lossy WebP (VP8)', vp8(1920, 1080), 1920, 1080],
    ['a lossless WebP (VP8L)', vp8l(16383, 3), 16383, 3],
    ['an extended WebP (VP8X)', vp8x(16384, 9000), 16384, 9000],
    ['a baseline JPEG (SOF0 after APP0 and DQT)', jpeg(JFIF, QUANTIZATION, frame(0xc0, 4032, 3024), HUFFMAN), 4032, 3024],
    ['a progressive JPEG (SOF2)', jpeg(JFIF, QUANTIZATION, frame(0xc2, 2000, 2001)), 2000, 2001],
    ['a JPEG with a 60 KB EXIF segment before SOF0', jpeg(exif(60_000), QUANTIZATION, QUANTIZATION, frame(0xc0, 8001, 6000), HUFFMAN), 8001, 6000],
    ['a JPEG with fill bytes and a restart marker before the frame', jpeg(JFIF, bytes([0xff, 0xff, 0xff, 0xd0]), QUANTIZATION, bytes([0xff]), frame(0xc1, 12, 34)), 12, 34],
    ['a JPEG with 300 fill bytes after SOI (any number is allowed)', jpeg(Buffer.alloc(300, 0xff), frame(0xc0, 8200, 16)), 8200, 16],
    ['a JPEG with 260 one-byte comments before the frame', jpeg(...Array.from({ length: 260 }, () => segment(0xfe, Buffer.alloc(1))), frame(0xc0, 8200, 16)), 8200, 16],
    ['a JPEG with a stray byte between two segments (skipped to the next 0xFF, as libjpeg does)', jpeg(JFIF, bytes([0x00]), frame(0xc0, 8200, 16)), 8200, 16],
    ['a JPEG with stray bytes and 0xFF 0x00 (not a marker) before the frame', jpeg(JFIF, bytes([0x12, 0xff, 0x00, 0x34, 0xff, 0xff]), frame(0xc0, 8200, 16)), 8200, 16],
    ['a GIF whose frame reaches past its 10x10 logical screen', gifWith(10, 10, undefined, gifFrame(0, 0, 8200, 16)), 8200, 16],
    ['a GIF whose offset frame reaches past its screen', gifWith(100, 50, undefined, gifFrame(8000, 40, 10, 20)), 8010, 60],
    ['a GIF whose frame lies inside its screen', gifWith(640, 480, undefined, gifFrame(10, 10, 20, 20)), 640, 480],
    ['a GIF whose frame follows a color table, a graphic control, a comment and an application extension', gifWith(10, 10, 7, gifExtension(0xf9, Buffer.alloc(4)), gifExtension(0xfe, Buffer.alloc(2000, 0x41)), gifExtension(0xff, Buffer.alloc(600, 1)), gifFrame(0, 0, 16, 8200)), 16, 8200],
  ])('reads %s', (_name, file, width, height) => {
    expect(imageDimensions(base64(file))).toEqual({ width, height });
  });

  it('reads a JPEG segment whose marker sits at every offset within a 3-byte group (windows start on whole base64 groups)', () => {
    for (const padding of [1, 2, 3, 383, 384, 385, 1000]) {
      const comment = segment(0xfe, Buffer.alloc(padding, 0x41));
      expect(imageDimensions(base64(jpeg(comment, frame(0xc0, 100 + padding, 50))))).toEqual({ width: 100 + padding, height: 50 });
    }
  });

  it('reads real files to their frame, however large their segments: a camera\'s 45 extended-XMP segments of 64 KB, a GIF with a 50 KB comment before its frame', () => {
    const xmp = Array.from({ length: 45 }, () => segment(0xe1, Buffer.alloc(65_531, 0x41)));
    expect(imageDimensions(base64(jpeg(exif(20_000), ...xmp, QUANTIZATION, frame(0xc0, 4032, 3024))))).toEqual({ width: 4032, height: 3024 });
    expect(imageDimensions(base64(gifWith(10, 10, 7, gifExtension(0xfe, Buffer.alloc(50_000, 0x41)), gifFrame(0, 0, 8200, 16))))).toEqual({ width: 8200, height: 16 });
  });

  it.each([
    ['no bytes', Buffer.alloc(0)],
    ['a PDF', bytes('%PDF-1.7\n')],
    ['a PNG cut in its IHDR', png(640, 480).subarray(0, 20)],
    ['a PNG whose first chunk is not IHDR (an iPhone CgBI file)', bytes(png(1, 1).subarray(0, 8), uint32BE(4), 'CgBI', png(640, 480).subarray(8))],
    ['a PNG wider than 2^31 - 1', png(0x80000000, 1)],
    ['a PNG of width 0', png(0, 10)],
    ['a GIF cut in its logical screen', gif(320, 200).subarray(0, 8)],
    ['a GIF of height 0', gif(320, 0)],
    ['a WebP cut in its chunk', vp8x(10, 10).subarray(0, 26)],
    ['a WebP of an unknown chunk', webp('ALPH', Buffer.alloc(18))],
    ['a lossy WebP whose frame is not a key frame', (() => { const file = vp8(10, 10); file[20] |= 1; return file; })()],
    ['a lossy WebP without the start code', (() => { const file = vp8(10, 10); file[23] = 0; return file; })()],
    ['a lossless WebP without its signature byte', (() => { const file = vp8l(10, 10); file[20] = 0; return file; })()],
    ['a JPEG with no frame header before the scan', jpeg(JFIF, QUANTIZATION)],
    ['a JPEG cut before its frame header', jpeg(JFIF, QUANTIZATION, frame(0xc0, 10, 10)).subarray(0, 30)],
    ['a JPEG cut inside its frame header', bytes([0xff, 0xd8], frame(0xc0, 10, 10).subarray(0, 7))],
    ['a JPEG whose segment length is below 2', bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01], frame(0xc0, 10, 10))],
    ['a JPEG whose frame header is too short to hold a size', bytes([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x07], Buffer.alloc(12, 1))],
    ['a JPEG whose height is given later (DNL, height 0)', jpeg(frame(0xc0, 10, 0))],
    ['a JPEG of fill bytes only', bytes([0xff, 0xd8], Buffer.alloc(5000, 0xff))],
  ])('gives up on %s (undefined, never a throw)', (_name, file) => {
    expect(imageDimensions(base64(file))).toBeUndefined();
  });

  it('reads at most 64 KB of header bytes, however a file is made: past them the size is unknown (a GIF is not given its logical screen: its frame is unread)', () => {
    const comments = (count: number) => Array.from({ length: count }, () => segment(0xfe, Buffer.alloc(1)));
    // A one-byte comment costs 4 bytes read (its marker and length): 16,000 are read, 17,000 are not.
    expect(imageDimensions(base64(jpeg(...comments(16_000), frame(0xc0, 10, 10))))).toEqual({ width: 10, height: 10 });
    const gifBlocks = (count: number) => bytes([0x21, 0xfe], Buffer.from(Array.from({ length: count * 2 }, (_, index) => (index % 2 === 0 ? 1 : 0x41))), [0]);
    expect(imageDimensions(base64(gifWith(10, 10, undefined, gifBlocks(65_000), gifFrame(0, 0, 8200, 16))))).toEqual({ width: 8200, height: 16 });
    const crafted: [string, Buffer][] = [
      ['17,000 one-byte comments before the frame', jpeg(...comments(17_000), frame(0xc0, 10, 10))],
      ['100 KB of fill bytes', jpeg(Buffer.alloc(100_000, 0xff), frame(0xc0, 10, 10))],
      ['100 KB of stray bytes', jpeg(Buffer.alloc(100_000, 0x01), frame(0xc0, 10, 10))],
      ['100 KB of restart markers', jpeg(Buffer.from(Array.from({ length: 100_000 }, (_, index) => (index % 2 === 0 ? 0xff : 0xd0))), frame(0xc0, 10, 10))],
      ['66,000 GIF sub-blocks of 1 byte', gifWith(10, 10, undefined, gifBlocks(66_000), gifFrame(0, 0, 8200, 16))],
    ];
    for (const [name, file] of crafted) expect({ name, size: imageDimensions(base64(file)) }).toEqual({ name, size: undefined });
    // Cut short (not the budget), a GIF with no frame states its logical screen.
    expect(imageDimensions(base64(gifWith(10, 10, undefined, gifBlocks(100)).subarray(0, 150)))).toEqual({ width: 10, height: 10 });
  });

  it('reads a frame header after 300 markers and 30 large segments, 1 MB into the file (a bound on markers would refuse it)', () => {
    const markers = Array.from({ length: 300 }, () => segment(0xfe, Buffer.alloc(1)));
    const profile = Array.from({ length: 30 }, () => segment(0xe2, Buffer.alloc(35_000, 0x11)));
    expect(imageDimensions(base64(jpeg(...markers, ...profile, frame(0xc0, 10, 10))))).toEqual({ width: 10, height: 10 });
  });

  it('gives undefined for data that is not a string (a JS caller), never a throw', () => {
    for (const data of [undefined, null, 42, {}, ['iVBORw0KGgo='], Buffer.from('GIF89a')]) expect(imageDimensions(data as unknown as string)).toBeUndefined();
  });

  it('gives up on text that is not base64 of an image, whatever it is', () => {
    for (const text of ['', '=', 'not base64 at all', '////', 'iVBORw0KGgo=', '/9j/', '/9j/4AAQ']) expect(imageDimensions(text)).toBeUndefined();
  });
});
