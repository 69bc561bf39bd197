import type { Content, FunctionCall, FunctionResponse, InlineData, LlmRequest, Part } from '@toolsmith/core';
import { dataUrl, pairToolResults, providerDataOf, toolFileName, toolFilesIntro, unsupportedInlineDataNote } from '@toolsmith/core/adapter-kit';
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
 * `chatServerOf`) is the server that sent it, and is left out for any other.
 */
export function convertToOpenAIChatMessages(request: Pick<LlmRequest, 'systemInstruction' | 'contents'>, server?: string): ChatCompletionMessageParam[] {
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
        if (part.functionResponse.parts?.length) fileParts.push(...chatToolFiles(part.functionResponse));
      } else if (part.text !== undefined && !part.thought) {
        userParts.push({ type: 'text', text: part.text });
      } else if (part.inlineData) {
        userParts.push(chatInlineData(part.inlineData));
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

/** The output of a `function_call_output`: the JSON text, or with files a list of the JSON and each file (image or file input). */
function responsesToolOutput(response: FunctionResponse): ResponseFunctionCallOutputItemList | string {
  const text = JSON.stringify(response.response);
  if (!response.parts?.length) return text;
  return [
    { type: 'input_text', text },
    ...response.parts.map(({ inlineData }, index): ResponseFunctionCallOutputItem => {
      if (inlineData.mimeType.startsWith('image/')) return { type: 'input_image', image_url: dataUrl(inlineData), detail: 'auto' };
      return { type: 'input_file', filename: toolFileName(inlineData, index), file_data: dataUrl(inlineData) };
    }),
  ];
}

/**
 * A function response's files as user-message parts for Chat Completions (whose tool messages hold text
 * only): a line naming the call, then images as `image_url`, WAV and MP3 as `input_audio`, other files as
 * `file` parts.
 */
function chatToolFiles(response: FunctionResponse): ChatCompletionContentPart[] {
  const parts: ChatCompletionContentPart[] = [{ type: 'text', text: toolFilesIntro(response) }];
  (response.parts ?? []).forEach(({ inlineData }, index) => {
    if (inlineData.mimeType.startsWith('image/')) parts.push({ type: 'image_url', image_url: { url: dataUrl(inlineData) } });
    else if (inlineData.mimeType === 'audio/wav' || inlineData.mimeType === 'audio/mpeg') {
      parts.push({ type: 'input_audio', input_audio: { data: inlineData.data, format: inlineData.mimeType === 'audio/wav' ? 'wav' : 'mp3' } });
    } else parts.push({ type: 'file', file: { filename: toolFileName(inlineData, index), file_data: dataUrl(inlineData) } });
  });
  return parts;
}

// A message's inline data: PNG, JPEG, WebP and GIF images and PDF documents, media types compared without case
// and sent in lower case; any other type (audio too: only audio models take it, and every later turn of the
// session would send it again) as a text note saying it was left out, so the conversation can still be sent.
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/webp', 'image/gif']);

/** `data` with its media type in lower case (media types are case-insensitive; the API reads a data URL's as written). */
function lowerCased(data: InlineData): InlineData {
  const mimeType = data.mimeType.toLowerCase();
  return mimeType === data.mimeType ? data : { ...data, mimeType };
}

function chatInlineData(given: InlineData): ChatCompletionContentPart {
  const data = lowerCased(given);
  const { mimeType } = data;
  if (IMAGE_TYPES.has(mimeType)) return { type: 'image_url', image_url: { url: dataUrl(data) } };
  if (mimeType === 'application/pdf') return { type: 'file', file: { filename: 'document.pdf', file_data: dataUrl(data) } };
  return { type: 'text', text: unsupportedInlineDataNote(given, 'OpenAI') };
}

function responsesInlineData(given: InlineData): ResponseInputContent {
  const data = lowerCased(given);
  const { mimeType } = data;
  if (IMAGE_TYPES.has(mimeType)) return { type: 'input_image', image_url: dataUrl(data), detail: 'auto' };
  if (mimeType === 'application/pdf') return { type: 'input_file', filename: 'document.pdf', file_data: dataUrl(data) };
  return { type: 'input_text', text: unsupportedInlineDataNote(given, 'OpenAI') };
}

