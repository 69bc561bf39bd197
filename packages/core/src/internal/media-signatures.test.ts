import { mediaMismatch, mediaTypeOfBytes, sniffedMediaType } from './media-signatures';

const base64 = (bytes: Buffer | string): string => (typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes).toString('base64');
const hex = (text: string): Buffer => Buffer.from(text, 'hex');

/** A file of each sniffed type: its signature, then bytes of a real file's header. */
const FILES = {
  'image/png': base64(hex('89504e470d0a1a0a0000000d4948445200000001000000010806000000')),
  'image/jpeg': base64(hex('ffd8ffe000104a46494600010100000100010000')),
  'image/gif': base64('GIF89a\x01\x00\x01\x00\x80\x00\x00'),
  'image/webp': base64('RIFF\x24\x00\x00\x00WEBPVP8 '),
  'application/pdf': base64('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n'),
} as const;

const KINDS = {
  'image/png': 'a PNG image',
  'image/jpeg': 'a JPEG image',
  'image/gif': 'a GIF image',
  'image/webp': 'a WebP image',
  'application/pdf': 'a PDF document',
} as const;

type Sniffed = keyof typeof FILES;
const TYPES = Object.keys(FILES) as Sniffed[];

describe('mediaMismatch: the first bytes of a file declared a sniffed type', () => {
  it.each(TYPES)('takes %s whose bytes start as its files do', (type) => {
    expect(mediaMismatch(type, FILES[type])).toBeUndefined();
  });

  it('says how many bytes precede a PDF\'s %PDF- header in its first 1024 bytes (readers take such a PDF; the providers do not say they do)', () => {
    expect(mediaMismatch('application/pdf', base64(Buffer.from('\ufeff%PDF-1.7\n', 'utf8')))).toBe('whose bytes start with 3 bytes before the %PDF- header (a PDF must start with it: remove them)');
    expect(mediaMismatch('application/pdf', base64(`\n%PDF-1.7\n`))).toBe('whose bytes start with 1 byte before the %PDF- header (a PDF must start with it: remove them)');
    expect(mediaMismatch('application/pdf', base64(`${' '.repeat(1020)}%PDF-1.7\n`))).toBe('whose bytes start with 1020 bytes before the %PDF- header (a PDF must start with it: remove them)');
    expect(mediaMismatch('application/pdf', base64(`${' '.repeat(1025)}%PDF-1.7\n`))).toBe("whose bytes do not start as a PDF document's do");
  });

  it('checks image/jpg, the common misspelling adapters send as a JPEG, as image/jpeg', () => {
    expect(mediaMismatch('image/jpg', FILES['image/jpeg'])).toBeUndefined();
    expect(mediaMismatch('IMAGE/JPG', FILES['image/gif'])).toBe('whose bytes are a GIF image (image/gif)');
    expect(mediaMismatch('image/png', FILES['image/jpeg'])).toBe('whose bytes are a JPEG image (image/jpeg)');
  });

  it('takes GIF87a as GIF89a', () => {
    expect(mediaMismatch('image/gif', base64('GIF87a\x01\x00\x01\x00'))).toBeUndefined();
  });

  it('compares the media type without case', () => {
    expect(mediaMismatch('IMAGE/PNG', FILES['image/png'])).toBeUndefined();
    expect(mediaMismatch('Image/Png', FILES['image/jpeg'])).toBe('whose bytes are a JPEG image (image/jpeg)');
  });

  it.each(TYPES.flatMap((declared) => TYPES.filter((actual) => actual !== declared).map((actual) => [declared, actual] as const)))(
    'names what the bytes are: %s declared, %s given',
    (declared, actual) => {
      expect(mediaMismatch(declared, FILES[actual])).toBe(`whose bytes are ${KINDS[actual]} (${actual})`);
    },
  );

  it.each(TYPES)('says bytes of no known type do not start as %s files do', (type) => {
    expect(mediaMismatch(type, base64('hello, world: no file'))).toBe(`whose bytes do not start as ${KINDS[type]}'s do`);
  });

  it.each([
    ['1 byte', base64(hex('89'))],
    ['2 bytes', base64(hex('8950'))],
    ['3 bytes', base64(hex('89504e'))],
    ['7 bytes of the 8', base64(hex('89504e470d0a1a'))],
  ])('refuses a PNG cut short: %s of its signature', (_what, data) => {
    expect(mediaMismatch('image/png', data)).toBe("whose bytes do not start as a PNG image's do");
  });

  it.each([
    ['1 byte', 'image/jpeg', base64(hex('ff')), "whose bytes do not start as a JPEG image's do"],
    ['2 bytes', 'image/jpeg', base64(hex('ffd8')), "whose bytes do not start as a JPEG image's do"],
    ['3 bytes (the whole signature)', 'image/jpeg', base64(hex('ffd8ff')), undefined],
    ['a PDF of 5 bytes (its signature)', 'application/pdf', base64('%PDF-'), undefined],
    ['a PDF of 4 bytes', 'application/pdf', base64('%PDF'), "whose bytes do not start as a PDF document's do"],
    ['a JPEG of 3 bytes declared image/png', 'image/png', base64(hex('ffd8ff')), 'whose bytes are a JPEG image (image/jpeg)'],
    ['a WebP whose size bytes are anything', 'image/webp', base64('RIFF\xff\xff\xff\xffWEBP'), undefined],
    ['a RIFF file that is not WebP (a WAV)', 'image/webp', base64('RIFF\x24\x00\x00\x00WAVEfmt '), "whose bytes do not start as a WebP image's do"],
    ['GIF88a', 'image/gif', base64('GIF88a\x01\x00'), "whose bytes do not start as a GIF image's do"],
    ['a lower-case %pdf-', 'application/pdf', base64('%pdf-1.7'), "whose bytes do not start as a PDF document's do"],
  ])('reads data of any length and padding: %s', (_what, type, data, expected) => {
    expect(mediaMismatch(type, data)).toBe(expected);
  });

  it.each(['image/heic', 'image/svg+xml', 'audio/wav', 'text/plain', 'application/octet-stream'])('does not sniff %s', (type) => {
    expect(mediaMismatch(type, FILES['image/png'])).toBeUndefined();
    expect(mediaMismatch(type, base64('anything'))).toBeUndefined();
  });
});

describe('HEIC: its bytes are named, a file declared image/heic is not checked', () => {
  const heic = (brand: string) => base64(Buffer.concat([hex('00000018'), Buffer.from(`ftyp${brand}`, 'latin1'), hex('000000006d696631')]));

  it.each(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx'])('bytes of the major brand %s are image/heic', (brand) => {
    expect(sniffedMediaType(heic(brand))).toBe('image/heic');
    expect(mediaTypeOfBytes('image/png', heic(brand))).toBe('image/heic');
    expect(mediaMismatch('image/png', heic(brand))).toBe('whose bytes are a HEIC image (image/heic)');
  });

  it('other ISO BMFF brands (mif1, AVIF, MP4) are not named; image/heic is kept whatever its bytes', () => {
    for (const brand of ['mif1', 'avif', 'isom']) expect(sniffedMediaType(heic(brand))).toBeUndefined();
    expect(mediaTypeOfBytes('image/png', heic('avif'))).toBe('application/octet-stream');
    expect(mediaTypeOfBytes('image/heic', heic('mif1'))).toBe('image/heic');
    expect(mediaTypeOfBytes('image/heic', FILES['image/png'])).toBe('image/heic');
    expect(mediaMismatch('image/heic', heic('mif1'))).toBeUndefined();
  });
});
