/** The media types Gemini labels its raw PCM audio output with (text-to-speech): `audio/L16;codec=pcm;rate=24000`. */
const PCM_TYPES: ReadonlySet<string> = new Set(['audio/l16', 'audio/pcm']);

/** Gemini's speech output rate when its media type names none (its TTS models answer 24 kHz). */
const DEFAULT_RATE = 24_000;

/**
 * Gemini's raw PCM audio output as a WAV file: `{ mimeType: 'audio/wav', data }` with a 44-byte RIFF header
 * (the `rate=` and `channels=` of the media type, 24 kHz mono when it names none; 16-bit samples,
 * little-endian as Gemini sends them whatever `L16` says), or `undefined` for any other media type. Core
 * keeps a file's media type without its parameters, so the rate would be lost; and Gemini takes WAV as input
 * (its documented audio types: WAV, MP3, AIFF, AAC, OGG, FLAC; no raw PCM), so the stored turn can go back.
 */
export function pcmAsWav(mimeType: string | undefined, data: string): { mimeType: string; data: string } | undefined {
  if (mimeType === undefined || data.length === 0) return undefined;
  const [essence, ...parameters] = mimeType.split(';');
  if (!PCM_TYPES.has(essence.trim().toLowerCase())) return undefined;
  const rate = parameter(parameters, 'rate') ?? DEFAULT_RATE;
  const channels = parameter(parameters, 'channels') ?? 1;
  const samples = Buffer.from(data, 'base64');
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

/** A media type parameter's positive integer value (`rate=24000`), or `undefined` when absent or not one a WAV header holds. */
function parameter(parameters: readonly string[], name: string): number | undefined {
  for (const item of parameters) {
    const equals = item.indexOf('=');
    if (equals < 0 || item.slice(0, equals).trim().toLowerCase() !== name) continue;
    const value = Number(item.slice(equals + 1).trim());
    return Number.isInteger(value) && value > 0 && value <= 0xffff_ffff / 8 ? value : undefined;
  }
  return undefined;
}
