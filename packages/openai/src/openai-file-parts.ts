import type { FunctionResponse, InlineData } from '@toolsmith/core';
import { dataUrl, toolFilesIntro, unsupportedInlineDataNote, unsupportedToolFileNote } from '@toolsmith/core/adapter-kit';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { ResponseFunctionCallOutputItem, ResponseFunctionCallOutputItemList, ResponseInputContent } from 'openai/resources/responses/responses';

// Files (a user's inline data, a tool's files) go natively only where the API takes them: anything else is
// sent as a text note saying it was left out, because the session keeps the file and sends it again on every
// later turn, so a file the API refused once would be refused on every turn after. Media types are compared
// without case and sent in lower case.

/** What the model of a request takes besides text (see {@link OpenAIModelOptions.audioInput}). */
export interface OpenAIInputs {
  /** WAV and MP3 as `input_audio` (Chat Completions; the Responses API takes no audio). */
  audio: boolean;
  /** Images and documents: false for OpenAI's audio models, which take text and audio only. */
  images: boolean;
}

const PROVIDER = 'OpenAI';
const NO_AUDIO = 'this model takes no audio';
const NO_IMAGES = 'this model takes no images or documents';

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/webp', 'image/gif']);

/** Chat Completions' `input_audio` formats, by media type. */
const AUDIO_FORMATS: ReadonlyMap<string, 'wav' | 'mp3'> = new Map([
  ['audio/wav', 'wav'],
  ['audio/x-wav', 'wav'],
  ['audio/wave', 'wav'],
  ['audio/mpeg', 'mp3'],
  ['audio/mp3', 'mp3'],
]);

/**
 * The documents the Responses API's `input_file` reads (OpenAI's file inputs guide: PDF, text and code, rich
 * documents, presentations, spreadsheets), each with the extension its name must end in: the API tells a
 * file's type by its name, and refuses one whose extension it does not read ("Expected context stuffing file
 * type to be a supported format"). Any other `text/*` is read as `.txt`. Chat Completions takes PDFs only.
 */
const DOCUMENT_EXTENSIONS: ReadonlyMap<string, string> = new Map([
  ['application/pdf', 'pdf'],
  ['application/json', 'json'],
  ['application/xml', 'xml'],
  ['application/rtf', 'rtf'],
  ['application/msword', 'doc'],
  ['application/vnd.ms-excel', 'xls'],
  ['application/vnd.ms-powerpoint', 'ppt'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
  ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'pptx'],
  ['application/vnd.oasis.opendocument.text', 'odt'],
  ['text/plain', 'txt'],
  ['text/markdown', 'md'],
  ['text/csv', 'csv'],
  ['text/tab-separated-values', 'tsv'],
  ['text/html', 'html'],
  ['text/xml', 'xml'],
  ['text/rtf', 'rtf'],
  ['text/css', 'css'],
  ['text/javascript', 'js'],
  ['text/x-python', 'py'],
  ['text/x-typescript', 'ts'],
  ['text/x-java', 'java'],
  ['text/x-c', 'c'],
  ['text/x-c++', 'cpp'],
  ['text/x-go', 'go'],
  ['text/x-ruby', 'rb'],
  ['text/x-sh', 'sh'],
]);

/** The extension `input_file` reads a (lower-case) media type by; `undefined` for a type it does not read. */
function documentExtension(mimeType: string): string | undefined {
  return DOCUMENT_EXTENSIONS.get(mimeType) ?? (mimeType.startsWith('text/') ? 'txt' : undefined);
}

/** The file's name as sent: its own, with the extension its type is read by appended unless it already ends in it; else `<fallback>.<extension>`. */
function fileName(inlineData: InlineData, extension: string, fallback: string): string {
  const name = inlineData.displayName;
  if (!name) return `${fallback}.${extension}`;
  return name.toLowerCase().endsWith(`.${extension}`) ? name : `${name}.${extension}`;
}

/** `data` with its media type in lower case (media types are case-insensitive; the API reads a data URL's as written). */
function lowerCased(data: InlineData): InlineData {
  const mimeType = data.mimeType.toLowerCase();
  return mimeType === data.mimeType ? data : { ...data, mimeType };
}

/**
 * How one file is sent, a user's or a tool's: the note in place of a file the API would refuse (`reason`: why,
 * when it is not the file's type), and what an unnamed file is called (`document`, `file-<n>`).
 */
interface FileSending {
  note(reason?: string): string;
  unnamed: string;
}

/** A file for Chat Completions: PNG/JPEG/WebP/GIF images, PDFs, WAV and MP3 for a model that takes audio; else a note. */
function chatFile(given: InlineData, inputs: OpenAIInputs, sending: FileSending): ChatCompletionContentPart {
  const data = lowerCased(given);
  const { mimeType } = data;
  const audio = AUDIO_FORMATS.get(mimeType);
  if (audio) return inputs.audio ? { type: 'input_audio', input_audio: { data: data.data, format: audio } } : { type: 'text', text: sending.note(NO_AUDIO) };
  const image = IMAGE_TYPES.has(mimeType);
  if (!image && mimeType !== 'application/pdf') return { type: 'text', text: sending.note() };
  if (!inputs.images) return { type: 'text', text: sending.note(NO_IMAGES) };
  return image ? { type: 'image_url', image_url: { url: dataUrl(data) } } : { type: 'file', file: { filename: fileName(data, 'pdf', sending.unnamed), file_data: dataUrl(data) } };
}

/** What the Responses API is sent for a file: a part of a user message and of a `function_call_output` alike. */
type ResponsesFilePart = { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail: 'auto' } | { type: 'input_file'; filename: string; file_data: string };

/** A file for the Responses API: images and the documents `input_file` reads; else a note (the Responses API takes no audio). */
function responsesFile(given: InlineData, inputs: OpenAIInputs, sending: FileSending): ResponsesFilePart {
  const data = lowerCased(given);
  const { mimeType } = data;
  const extension = documentExtension(mimeType);
  if (!IMAGE_TYPES.has(mimeType) && !extension) return { type: 'input_text', text: sending.note() };
  if (!inputs.images) return { type: 'input_text', text: sending.note(NO_IMAGES) };
  return extension ? { type: 'input_file', filename: fileName(data, extension, sending.unnamed), file_data: dataUrl(data) } : { type: 'input_image', image_url: dataUrl(data), detail: 'auto' };
}

/** How a user's file is sent: its note, and `document` for a file without a name. */
function userSending(given: InlineData): FileSending {
  return { note: (reason) => unsupportedInlineDataNote(given, PROVIDER, reason), unnamed: 'document' };
}

/** How a tool's file `index` is sent: a tool's note naming it, and `file-<index>` for a file without a name. */
function toolSending(given: InlineData, index: number): FileSending {
  return { note: (reason) => unsupportedToolFileNote(given, index, PROVIDER, reason), unnamed: `file-${index}` };
}

/** A user's file for Chat Completions ({@link chatFile}). */
export function chatMessageFile(given: InlineData, inputs: OpenAIInputs): ChatCompletionContentPart {
  return chatFile(given, inputs, userSending(given));
}

/** A user's file for the Responses API ({@link responsesFile}). */
export function responsesMessageFile(given: InlineData, inputs: OpenAIInputs): ResponseInputContent {
  return responsesFile(given, inputs, userSending(given));
}

/**
 * A function response's files as user-message parts for Chat Completions (whose tool messages hold text
 * only): a line naming the call, then each file as {@link chatFile} sends it.
 */
export function chatToolFiles(response: FunctionResponse, inputs: OpenAIInputs): ChatCompletionContentPart[] {
  const parts: ChatCompletionContentPart[] = [{ type: 'text', text: toolFilesIntro(response) }];
  (response.parts ?? []).forEach(({ inlineData }, index) => parts.push(chatFile(inlineData, inputs, toolSending(inlineData, index))));
  return parts;
}

/**
 * The output of a `function_call_output`: the JSON text, or with files a list of the JSON and each file as
 * {@link responsesFile} sends it.
 */
export function responsesToolOutput(response: FunctionResponse, inputs: OpenAIInputs): ResponseFunctionCallOutputItemList | string {
  const text = JSON.stringify(response.response);
  if (!response.parts?.length) return text;
  return [{ type: 'input_text', text }, ...response.parts.map(({ inlineData }, index): ResponseFunctionCallOutputItem => responsesFile(inlineData, inputs, toolSending(inlineData, index)))];
}
