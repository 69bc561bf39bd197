import { mediaTypeParameter } from '@toolsmith/core/adapter-kit';

/** The media types Gemini labels its raw PCM audio output with (text-to-speech): `audio/L16;codec=pcm;rate=24000`. */
const PCM_TYPES: ReadonlySet<string> = new Set(['audio/l16', 'audio/pcm']);

/** Gemini's speech output rate when its media type names none (its TTS models answer 24 kHz). */
const DEFAULT_RATE = 24_000;

/** The most channels a WAV header holds: its block align (`channels * 2`) is 16 bits. */
const MAX_CHANNELS = 0x7fff;

/** The most bytes a second a WAV header holds (`rate * channels * 2`, 32 bits). */
const MAX_BYTE_RATE = 0xffff_ffff;

/** The most sample bytes a WAV file holds: its RIFF size (`36 + bytes`) is 32 bits. */
const MAX_DATA_BYTES = 0xffff_ffff - 36;

/**
 * Gemini's raw PCM audio output as a WAV file: `{ mimeType: 'audio/wav', data }` with a 44-byte RIFF header
 * (the `rate=` and `channels=` of the media type, quoted or not, 24 kHz mono when it names none; 16-bit
 * samples, little-endian as Gemini sends them whatever `L16` says). Core keeps a file's media type without its
 * parameters, so the rate would be lost; and Gemini takes WAV as input (its documented audio types: WAV, MP3,
 * AIFF, AAC, OGG, FLAC; no raw PCM), so the stored turn can go back.
 *
 * Returns `undefined` for anything else, which is left as it came for core's check of a model's files: a media
 * type or data that is not a string (core refuses it), empty data (core leaves it out), another media type, and
 * PCM that cannot be made a valid WAV file, which core stores under its raw type (`audio/l16`) or refuses: a
 * `rate` or `channels` that is not a positive whole number or is more than a WAV header holds, data that is not
 * standard or URL-safe base64 (whitespace, more than two `=`, or only `=`: no bytes; core refuses these), or
 * bytes that are not a whole number of samples (2 bytes per channel).
 */
export function pcmAsWav(mimeType: unknown, data: unknown): { mimeType: string; data: string } | undefined {
  if (typeof mimeType !== 'string' || typeof data !== 'string' || data.length === 0) return undefined;
  if (!PCM_TYPES.has(mimeType.split(';', 1)[0].trim().toLowerCase())) return undefined;
  const rate = wholeParameter(mimeType, 'rate', DEFAULT_RATE);
  const channels = wholeParameter(mimeType, 'channels', 1);
  if (rate === undefined || channels === undefined || channels > MAX_CHANNELS || rate * channels * 2 > MAX_BYTE_RATE) return undefined;
  // More padding than base64 has (two `=`) is not base64, as core's check reads it.
  if (data.endsWith('===')) return undefined;
  const samples = Buffer.from(data, 'base64');
  // Node skips what is not base64: the bytes must encode back to the data (either alphabet, padded or not).
  if (samples.toString('base64url') !== data.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')) return undefined;
  // No bytes (data of only `=`): not base64 to core either, which refuses it under any media type; never an empty WAV.
  if (samples.length === 0 || samples.length % (channels * 2) !== 0 || samples.length > MAX_DATA_BYTES) return undefined;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples.length, 40);
  return { mimeType: 'audio/wav', data: Buffer.concat([header, samples]).toString('base64') };
}

/**
 * A media type parameter's positive whole value (`rate=24000` or, RFC 2045, `rate="24000"`), `fallback` when
 * the parameter is absent, `undefined` when its value is not one.
 */
function wholeParameter(mimeType: string, name: string, fallback: number): number | undefined {
  const text = mediaTypeParameter(mimeType, name);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value > 0 && Number.isSafeInteger(value) ? value : undefined;
}
