import type { Content, FunctionCall, FunctionResponse, InlineData, LlmRequest, Part } from '@toolsmith/core';
import { dataUrl, pairToolResults, providerDataOf, toolFileName, toolFilesIntro, unsupportedInlineDataNote, unsupportedToolFileNote } from '@toolsmith/core/adapter-kit';
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type {
  ResponseFunctionCallOutputItem,
  ResponseFunctionCallOutputItemList,
  ResponseInputContent,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import { OPENAI_PROVIDER } from './provider-tool';
import { type ResponsesReplayOptions, toResponsesModelItems } from './to-responses-model-items';

/**
 * Converts the neutral conversation to Chat Completions `messages`: the system instruction first, then
 * user and assistant messages, with exactly one `tool` message per call id right after the assistant
 * message that made the calls (see `pairToolResults`). Model reasoning (`thought` parts) is not sent back.
 * A call's `extra_content` (Google's thought signature) goes back with the call when `server` (see
 * `chatServerOf`) is the server that sent it, and is left out for any other. WAV and MP3 files (a user's or
 * a tool's) go as `input_audio` only when the model takes audio (`audioInput`), else as a note.
 */
export function convertToOpenAIChatMessages(request: Pick<LlmRequest, 'systemInstruction' | 'contents'>, server?: string, audioInput = false): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.systemInstruction) messages.push({ role: 'system', content: request.systemInstruction });
  for (const content of pairToolResults(request.contents)) {
    if (content.role === 'model') {
      const text = answerText(content);
      const toolCalls: ChatCompletionMessageFunctionToolCall[] = content.parts.flatMap((part) => {
        if (!part.functionCall) return [];
        const call = part.functionCall;
        const sent: ChatCompletionMessageFunctionToolCall = { id: call.id, type: 'function', function: { name: call.name, arguments: argumentsText(call) } };
        // A call's extra_content (Google's thought signature) goes back with it, as sent, to the server that sent it.
        const kept = providerDataOf(part, OPENAI_PROVIDER);
        return [kept?.extra_content && kept.server === server ? { ...sent, extra_content: kept.extra_content } : sent];
      });
      if (!text && !toolCalls.length) continue;
      messages.push(toolCalls.length ? { role: 'assistant', content: text || null, tool_calls: toolCalls } : { role: 'assistant', content: text });
      continue;
    }
    const userParts: ChatCompletionContentPart[] = [];
    // A tool message holds text only: the results' files follow the tool messages in a user message.
    const fileParts: ChatCompletionContentPart[] = [];
    for (const part of content.parts) {
      if (part.functionResponse) {
        messages.push({ role: 'tool', tool_call_id: part.functionResponse.id, content: JSON.stringify(part.functionResponse.response) });
        if (part.functionResponse.parts?.length) fileParts.push(...chatToolFiles(part.functionResponse, audioInput));
      } else if (part.text !== undefined && !part.thought) {
        userParts.push({ type: 'text', text: part.text });
      } else if (part.inlineData) {
        userParts.push(chatInlineData(part.inlineData, audioInput));
      }
    }
    if (fileParts.length) userParts.unshift(...fileParts);
    if (!userParts.length) continue;
    // A lone text part goes as a plain string: the widest-supported form among compatible servers.
    messages.push({ role: 'user', content: userParts.length === 1 && userParts[0].type === 'text' ? userParts[0].text : userParts });
  }
  return messages;
}

/**
 * Converts the neutral conversation to Responses API `input` items (the system instruction goes to
 * `instructions`, not here): user messages, the model's turns as the output items the API returned, in
 * their order and with their ids (see `toResponsesModelItems`), and exactly one `function_call_output`
 * per call id.
 */
export function convertToOpenAIResponsesInput(contents: readonly Content[], options: ResponsesReplayOptions = {}): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const content of pairToolResults(contents)) {
    if (content.role === 'model') {
      items.push(...toResponsesModelItems(content, options));
      continue;
    }
    const userParts: ResponseInputContent[] = [];
    for (const part of content.parts) {
      if (part.functionResponse) {
        items.push({ type: 'function_call_output', call_id: part.functionResponse.id, output: responsesToolOutput(part.functionResponse) });
      } else if (part.text !== undefined && !part.thought) {
        userParts.push({ type: 'input_text', text: part.text });
      } else if (part.inlineData) {
        userParts.push(responsesInlineData(part.inlineData));
      }
    }
    if (userParts.length) items.push({ role: 'user', content: userParts });
  }
  return items;
}

function answerText(content: Content): string {
  return content.parts
    .filter((part: Part) => part.text !== undefined && !part.thought)
    .map((part) => part.text)
    .join('');
}


/** OpenAI takes arguments as JSON text; raw text the model sent earlier goes back exactly as it was. */
function argumentsText(call: FunctionCall): string {
  return typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
}

/**
 * The output of a `function_call_output`: the JSON text, or with files a list of the JSON and each file:
 * PNG, JPEG, WebP and GIF images as `input_image`, documents `input_file` takes (see {@link isResponsesFileType})
 * as `input_file`, and a note in place of any other file (a HEIC photo, audio, video, a ZIP), which the API
 * would refuse on this turn and every later one of the session.
 */
function responsesToolOutput(response: FunctionResponse): ResponseFunctionCallOutputItemList | string {
  const text = JSON.stringify(response.response);
  if (!response.parts?.length) return text;
  return [
    { type: 'input_text', text },
    ...response.parts.map(({ inlineData: given }, index): ResponseFunctionCallOutputItem => {
      const inlineData = lowerCased(given);
      if (IMAGE_TYPES.has(inlineData.mimeType)) return { type: 'input_image', image_url: dataUrl(inlineData), detail: 'auto' };
      if (isResponsesFileType(inlineData.mimeType)) return { type: 'input_file', filename: toolFileName(inlineData, index), file_data: dataUrl(inlineData) };
      return { type: 'input_text', text: unsupportedToolFileNote(given, index, 'OpenAI') };
    }),
  ];
}

/**
 * A function response's files as user-message parts for Chat Completions (whose tool messages hold text
 * only): a line naming the call, then PNG, JPEG, WebP and GIF images as `image_url`, PDFs as `file` parts (the
 * only files Chat Completions takes), WAV and MP3 as `input_audio` when the model takes audio, and a note in
 * place of any other file (which the API would refuse on this turn and every later one of the session).
 */
function chatToolFiles(response: FunctionResponse, audioInput: boolean): ChatCompletionContentPart[] {
  const parts: ChatCompletionContentPart[] = [{ type: 'text', text: toolFilesIntro(response) }];
  (response.parts ?? []).forEach(({ inlineData: given }, index) => {
    const inlineData = lowerCased(given);
    const { mimeType } = inlineData;
    if (IMAGE_TYPES.has(mimeType)) parts.push({ type: 'image_url', image_url: { url: dataUrl(inlineData) } });
    else if (mimeType === 'application/pdf') parts.push({ type: 'file', file: { filename: toolFileName(inlineData, index), file_data: dataUrl(inlineData) } });
    else if (audioInput && AUDIO_FORMATS.has(mimeType)) parts.push({ type: 'input_audio', input_audio: { data: inlineData.data, format: AUDIO_FORMATS.get(mimeType)! } });
    else parts.push({ type: 'text', text: unsupportedToolFileNote(given, index, 'OpenAI') });
  });
  return parts;
}

// A message's inline data: PNG, JPEG, WebP and GIF images and PDF documents (and on Chat, for a model that takes
// audio, WAV and MP3), media types compared without case and sent in lower case; any other type as a text note
// saying it was left out, so the conversation can still be sent (every later turn of the session sends it again).
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/webp', 'image/gif']);

/** Chat Completions' `input_audio` formats, by media type. */
const AUDIO_FORMATS: ReadonlyMap<string, 'wav' | 'mp3'> = new Map([
  ['audio/wav', 'wav'],
  ['audio/x-wav', 'wav'],
  ['audio/wave', 'wav'],
  ['audio/mpeg', 'mp3'],
  ['audio/mp3', 'mp3'],
]);

/** Documents the Responses API's `input_file` reads (PDF, text and code, rich documents, presentations, spreadsheets: OpenAI's file inputs guide). */
const RESPONSES_FILE_TYPES: ReadonlySet<string> = new Set([
  'application/pdf',
  'application/json',
  'application/xml',
  'application/rtf',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
]);

/** True for a (lower-case) media type the Responses API's `input_file` takes: the documents above and any `text/*`. */
function isResponsesFileType(mimeType: string): boolean {
  return mimeType.startsWith('text/') || RESPONSES_FILE_TYPES.has(mimeType);
}

/** `data` with its media type in lower case (media types are case-insensitive; the API reads a data URL's as written). */
function lowerCased(data: InlineData): InlineData {
  const mimeType = data.mimeType.toLowerCase();
  return mimeType === data.mimeType ? data : { ...data, mimeType };
}

function chatInlineData(given: InlineData, audioInput: boolean): ChatCompletionContentPart {
  const data = lowerCased(given);
  const { mimeType } = data;
  if (IMAGE_TYPES.has(mimeType)) return { type: 'image_url', image_url: { url: dataUrl(data) } };
  if (mimeType === 'application/pdf') return { type: 'file', file: { filename: 'document.pdf', file_data: dataUrl(data) } };
  if (audioInput && AUDIO_FORMATS.has(mimeType)) return { type: 'input_audio', input_audio: { data: data.data, format: AUDIO_FORMATS.get(mimeType)! } };
  return { type: 'text', text: unsupportedInlineDataNote(given, 'OpenAI') };
}

function responsesInlineData(given: InlineData): ResponseInputContent {
  const data = lowerCased(given);
  const { mimeType } = data;
  if (IMAGE_TYPES.has(mimeType)) return { type: 'input_image', image_url: dataUrl(data), detail: 'auto' };
  if (mimeType === 'application/pdf') return { type: 'input_file', filename: 'document.pdf', file_data: dataUrl(data) };
  return { type: 'input_text', text: unsupportedInlineDataNote(given, 'OpenAI') };
}

