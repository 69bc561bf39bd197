import type { FunctionResponsePart, Part as GeminiPart } from '@google/genai' with { 'resolution-mode': 'import' };
import type { FunctionResponse, InlineData } from '@toolsmith/core';
import { modelTurnFileNote, toolFilesIntro, unsupportedInlineDataNote, unsupportedToolFileNote, utf8Text } from '@toolsmith/core/adapter-kit';

// Files (a user's inline data, a tool's files) go natively only where Gemini takes them: anything else is
// sent as a text note saying it was left out, because the session keeps the file and sends it again on every
// later turn, so a file Gemini refused once (`400 INVALID_ARGUMENT`) would be refused on every turn after.
// Media types are compared without case and sent in lower case. A model turn's files (Gemini's image or
// speech output, or a file a callback or another model gave) follow the same rules: Gemini's own output is of
// a type it takes, and goes back as it came.

const PROVIDER = 'Gemini';

/**
 * The types Google documents for inline data in a Gemini message:
 * - images: PNG, JPEG, WebP, HEIC, HEIF (https://ai.google.dev/gemini-api/docs/prompting_with_media#supported_file_formats,
 *   as Google's staff quote it at https://discuss.ai.google.dev/t/gemini-2-api-returns-invalid-parameter-error-for-gif-inputs/71468,
 *   where Gemini 2.x refuses `image/gif`: no GIF);
 * - audio: https://ai.google.dev/gemini-api/docs/audio ("Supported audio formats"), and `audio/mpeg`, MP3's
 *   registered type, which Google lists for the same models at
 *   https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/audio-understanding;
 * - video: https://ai.google.dev/gemini-api/docs/video-understanding ("Supported video formats");
 * - documents: PDF (https://ai.google.dev/gemini-api/docs/document-processing) and the text types Google
 *   lists for documents (https://cloud.google.com/distributed-cloud/hosted/docs/latest/gdch/gemini/capabilities/document),
 *   with `text/markdown`, Markdown's registered type, beside `text/md`.
 * Gemini refuses a type it does not list (`application/json`: "has a mimeType parameter with value
 * application/json, which is not supported", agno-agi/agno#3964): other text goes as `text/plain` ({@link geminiType}).
 */
const MESSAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/heif',
  'audio/wav',
  'audio/mp3',
  'audio/mpeg',
  'audio/aiff',
  'audio/aac',
  'audio/ogg',
  'audio/flac',
  'video/mp4',
  'video/mpeg',
  'video/mov',
  'video/avi',
  'video/x-flv',
  'video/mpg',
  'video/webm',
  'video/wmv',
  'video/3gpp',
  'application/pdf',
  'text/plain',
  'text/html',
  'text/css',
  'text/csv',
  'text/xml',
  'text/rtf',
  'text/md',
  'text/markdown',
  'text/javascript',
  'text/x-python',
]);

/**
 * What a function response's `parts` take (https://ai.google.dev/gemini-api/docs/function-calling#multimodal,
 * "Multimodal function responses"): images PNG, JPEG, WebP; documents PDF and plain text. Narrower than a
 * message's.
 */
const FUNCTION_RESPONSE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'application/pdf', 'text/plain']);

/**
 * Other names of the types above, sent under the name Google documents (the same bytes): browsers label a
 * .mov `video/quicktime` and a WAV `audio/x-wav` or `audio/wave`; JavaScript and Python under the `application/`
 * names Gemini 2.x refused (gemini-api-php/client#73) go as their `text/` types.
 */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['image/jpg', 'image/jpeg'],
  ['audio/x-wav', 'audio/wav'],
  ['audio/wave', 'audio/wav'],
  ['audio/vnd.wave', 'audio/wav'],
  ['audio/x-aiff', 'audio/aiff'],
  ['audio/x-flac', 'audio/flac'],
  ['audio/x-aac', 'audio/aac'],
  ['video/quicktime', 'video/mov'],
  ['video/x-msvideo', 'video/avi'],
  ['video/x-ms-wmv', 'video/wmv'],
  ['application/x-javascript', 'text/javascript'],
  ['application/javascript', 'text/javascript'],
  ['application/x-python', 'text/x-python'],
  ['application/xml', 'text/xml'],
]);

/** Text under an `application/` name (JSON, YAML, shell, SQL, GraphQL, TOML), sent as `text/plain` (see {@link geminiType}). */
const APPLICATION_TEXT: ReadonlySet<string> = new Set([
  'application/json',
  'application/yaml',
  'application/x-yaml',
  'application/x-sh',
  'application/sql',
  'application/graphql',
  'application/toml',
]);

/**
 * The (lower-case) type a file is sent to Gemini with: a type Google documents for messages, under its
 * documented name; any other text (`text/x-typescript`, JSON, YAML, `+json`/`+xml` types such as SVG) as `text/plain` (Google's staff: "code files such
 * as js, python, css etc… also work"; Gemini reads them as text); `undefined` for a type Gemini does not take.
 */
function geminiType(given: string): string | undefined {
  const mimeType = given.toLowerCase();
  const named = ALIASES.get(mimeType) ?? mimeType;
  if (MESSAGE_TYPES.has(named)) return named;
  // Text of any other kind (a `text/` type, one above, a `+json` or `+xml` structured syntax) Gemini reads as plain text.
  return named.startsWith('text/') || APPLICATION_TEXT.has(named) || /\+(json|xml)$/.test(named) ? 'text/plain' : undefined;
}

/**
 * The type a file is sent to Gemini with ({@link geminiType}), or why it is not sent: `{}` for a type Gemini does
 * not take, `{ reason }` for text whose bytes are not UTF-8 text (Gemini reads a text file as UTF-8: Latin-1 or
 * binary under a text type would reach the model corrupted, or be refused).
 */
function sentAs(data: InlineData): string | { reason?: string } {
  const mimeType = geminiType(data.mimeType);
  if (mimeType === undefined) return {};
  if (mimeType.startsWith('text/') && utf8Text(data.data) === undefined) return { reason: 'its bytes are not UTF-8 text' };
  return mimeType;
}

/** A user's file: `inlineData` (the type Gemini is sent, see {@link sentAs}; no `displayName`) for a file Gemini takes in a message, else a note. */
export function userFilePart(given: InlineData): GeminiPart {
  const sent = sentAs(given);
  return typeof sent === 'string' ? { inlineData: { mimeType: sent, data: given.data } } : { text: unsupportedInlineDataNote(given, PROVIDER, sent.reason) };
}

/**
 * A model turn's file: `inlineData` (the type Gemini is sent, see {@link sentAs}; no `displayName`) for a file
 * Gemini takes in a message (its own image and speech output), else a note saying the model gave it.
 */
export function modelFilePart(given: InlineData): GeminiPart {
  const sent = sentAs(given);
  return typeof sent === 'string' ? { inlineData: { mimeType: sent, data: given.data } } : { text: modelTurnFileNote(given, sent.reason ?? `files of this type are not sent to ${PROVIDER} in a message`) };
}

/** A tool's file after the function responses: `inlineData` for a file Gemini takes in a message, else a note. */
function toolFilePart(given: InlineData, index: number): GeminiPart {
  const sent = sentAs(given);
  return typeof sent === 'string' ? { inlineData: { mimeType: sent, data: given.data } } : { text: unsupportedToolFileNote(given, index, PROVIDER, sent.reason) };
}

/**
 * A function response's files split once (each file's type and text decided once), for the default mode:
 * `inside`, the files a function response takes (`functionResponse.parts`: PNG, JPEG, WebP, PDF, plain text;
 * `undefined` for none), and `after`, the others as parts after the function responses: a line naming the
 * call, then each as `inlineData` when Gemini takes it in a message (audio, video, HEIC: the model still gets
 * it), else a note (empty when all went inside).
 */
export function splitFunctionResponseFiles(response: FunctionResponse): { inside: FunctionResponsePart[] | undefined; after: GeminiPart[] } {
  let inside: FunctionResponsePart[] | undefined;
  const after: GeminiPart[] = [];
  (response.parts ?? []).forEach(({ inlineData }, index) => {
    const sent = sentAs(inlineData);
    if (typeof sent === 'string' && FUNCTION_RESPONSE_TYPES.has(sent)) (inside ??= []).push({ inlineData: { ...inlineData, mimeType: sent } });
    else after.push(typeof sent === 'string' ? { inlineData: { mimeType: sent, data: inlineData.data } } : { text: unsupportedToolFileNote(inlineData, index, PROVIDER, sent.reason) });
  });
  return { inside, after: after.length > 0 ? [{ text: toolFilesIntro(response) }, ...after] : [] };
}

/**
 * A function response's files as parts after the function responses (for models that take no files in
 * them): a line naming the call, then each file as {@link userFilePart} sends a user's (a tool's note naming
 * the file in place of one Gemini does not take).
 */
export function toolFilesAfterResponses(response: FunctionResponse): GeminiPart[] {
  if (!response.parts?.length) return [];
  return [{ text: toolFilesIntro(response) }, ...response.parts.map(({ inlineData }, index) => toolFilePart(inlineData, index))];
}
