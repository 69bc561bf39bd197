import type { FunctionResponsePart, Part as GeminiPart } from '@google/genai' with { 'resolution-mode': 'import' };
import type { FunctionResponse, InlineData } from '@toolsmith/core';
import { toolFilesIntro, unsupportedInlineDataNote, unsupportedToolFileNote } from '@toolsmith/core/adapter-kit';

// Files (a user's inline data, a tool's files) go natively only where Gemini takes them: anything else is
// sent as a text note saying it was left out, because the session keeps the file and sends it again on every
// later turn, so a file Gemini refused once (`400 INVALID_ARGUMENT`) would be refused on every turn after.
// Media types are compared without case and sent in lower case. A model turn's own files (Gemini's image
// output) are not these: they go back as Gemini produced them.

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
 * No other `text/*` goes: Google lists none, and Gemini refuses a type it does not list (`application/json`:
 * "has a mimeType parameter with value application/json, which is not supported", agno-agi/agno#3964).
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
  'application/x-javascript',
  'text/x-python',
  'application/x-python',
]);

/**
 * What a function response's `parts` take (https://ai.google.dev/gemini-api/docs/function-calling#multimodal,
 * "Multimodal function responses"): images PNG, JPEG, WebP; documents PDF and plain text. Narrower than a
 * message's.
 */
const FUNCTION_RESPONSE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'application/pdf', 'text/plain']);

/** `data` with its media type in lower case (media types are case-insensitive). */
function lowerCased(data: InlineData): InlineData {
  const mimeType = data.mimeType.toLowerCase();
  return mimeType === data.mimeType ? data : { ...data, mimeType };
}

/** A user's file: `inlineData` (type in lower case, without its `displayName`) for a type Gemini takes in a message, else a note. */
export function userFilePart(given: InlineData): GeminiPart {
  const mimeType = given.mimeType.toLowerCase();
  return MESSAGE_TYPES.has(mimeType) ? { inlineData: { mimeType, data: given.data } } : { text: unsupportedInlineDataNote(given, PROVIDER) };
}

/** A function response's files inside it (`functionResponse.parts`): those a function response takes; `undefined` for none. */
export function functionResponseParts(response: FunctionResponse): FunctionResponsePart[] | undefined {
  const parts = (response.parts ?? []).filter(({ inlineData }) => FUNCTION_RESPONSE_TYPES.has(inlineData.mimeType.toLowerCase()));
  return parts.length > 0 ? parts.map(({ inlineData }) => ({ inlineData: { ...lowerCased(inlineData) } })) : undefined;
}

/**
 * A function response's files that cannot go inside it (see {@link functionResponseParts}), as parts after the
 * function responses: a line naming the call, then each such file as `inlineData` when Gemini takes its type in
 * a message (audio, video, HEIC: the model still gets it), else a note.
 */
export function filesAfterFunctionResponse(response: FunctionResponse): GeminiPart[] {
  const after: GeminiPart[] = [];
  (response.parts ?? []).forEach(({ inlineData }, index) => {
    const mimeType = inlineData.mimeType.toLowerCase();
    if (FUNCTION_RESPONSE_TYPES.has(mimeType)) return;
    after.push(MESSAGE_TYPES.has(mimeType) ? { inlineData: { mimeType, data: inlineData.data } } : { text: unsupportedToolFileNote(inlineData, index, PROVIDER) });
  });
  return after.length > 0 ? [{ text: toolFilesIntro(response) }, ...after] : [];
}

/**
 * A function response's files as parts after the function responses (for models that take no files in
 * them): a line naming the call, then each file as {@link userFilePart} sends a user's (a tool's note naming
 * the file in place of one Gemini does not take).
 */
export function toolFilesAfterResponses(response: FunctionResponse): GeminiPart[] {
  if (!response.parts?.length) return [];
  return [
    { text: toolFilesIntro(response) },
    ...response.parts.map(({ inlineData }, index): GeminiPart => {
      const mimeType = inlineData.mimeType.toLowerCase();
      return MESSAGE_TYPES.has(mimeType) ? { inlineData: { mimeType, data: inlineData.data } } : { text: unsupportedToolFileNote(inlineData, index, PROVIDER) };
    }),
  ];
}
