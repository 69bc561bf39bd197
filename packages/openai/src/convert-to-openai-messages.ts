import type { Content, FunctionCall, LlmRequest, Part } from '@toolsmith/core';
import { pairToolResults, providerDataOf } from '@toolsmith/core/adapter-kit';
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ResponseInputContent, ResponseInputItem } from 'openai/resources/responses/responses';
import { type OpenAIInputs, chatMessageFile, chatToolFiles, responsesMessageFile, responsesToolOutput } from './openai-file-parts';
import { OPENAI_PROVIDER } from './provider-tool';
import { OPENAI_CHAT_CALL_IDS, OPENAI_RESPONSES_CALL_IDS } from './openai-tool-limits';
import { type ResponsesReplayOptions, toResponsesModelItems } from './to-responses-model-items';

/** What a model takes unless told otherwise: text, images and documents, no audio. */
const TEXT_AND_IMAGES: OpenAIInputs = { audio: false, images: true };

/**
 * Converts the neutral conversation to Chat Completions `messages`: the system instruction first, then
 * user and assistant messages, with exactly one `tool` message per call id right after the assistant
 * message that made the calls (see `pairToolResults`). Model reasoning (`thought` parts) is not sent back,
 * except to a compatible server (`server` given and not OpenAI's, see {@link sendsReasoningBack}): an assistant
 * message with tool calls then carries its unsigned thought parts' text as `reasoning_content`, as DeepSeek's
 * thinking mode requires.
 * A call's `extra_content` (Google's thought signature) goes back with the call when `server` (see
 * `chatServerOf`) is the server that sent it, and is left out for any other. Files (a user's or a tool's) go
 * as the model takes them (`inputs`, see openai-file-parts.ts), else as a note.
 */
export function convertToOpenAIChatMessages(request: Pick<LlmRequest, 'systemInstruction' | 'contents'>, server?: string, inputs: OpenAIInputs = TEXT_AND_IMAGES): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.systemInstruction) messages.push({ role: 'system', content: request.systemInstruction });
  for (const content of pairToolResults(request.contents, OPENAI_CHAT_CALL_IDS)) {
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
      if (!toolCalls.length) {
        messages.push({ role: 'assistant', content: text });
        continue;
      }
      const reasoning = sendsReasoningBack(server) ? reasoningText(content) : undefined;
      // reasoning_content is not in the SDK's types (a compatible server's field).
      messages.push({ role: 'assistant', content: text || null, tool_calls: toolCalls, ...(reasoning ? { reasoning_content: reasoning } : {}) });
      continue;
    }
    const userParts: ChatCompletionContentPart[] = [];
    // A tool message holds text only: the results' files follow the tool messages in a user message.
    const fileParts: ChatCompletionContentPart[] = [];
    for (const part of content.parts) {
      if (part.functionResponse) {
        messages.push({ role: 'tool', tool_call_id: part.functionResponse.id, content: JSON.stringify(part.functionResponse.response) });
        if (part.functionResponse.parts?.length) fileParts.push(...chatToolFiles(part.functionResponse, inputs));
      } else if (part.text !== undefined && !part.thought) {
        userParts.push({ type: 'text', text: part.text });
      } else if (part.inlineData) {
        userParts.push(chatMessageFile(part.inlineData, inputs));
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
export function convertToOpenAIResponsesInput(contents: readonly Content[], options: ResponsesReplayOptions = {}, inputs: OpenAIInputs = TEXT_AND_IMAGES): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const content of pairToolResults(contents, OPENAI_RESPONSES_CALL_IDS)) {
    if (content.role === 'model') {
      items.push(...toResponsesModelItems(content, options));
      continue;
    }
    const userParts: ResponseInputContent[] = [];
    for (const part of content.parts) {
      if (part.functionResponse) {
        items.push({ type: 'function_call_output', call_id: part.functionResponse.id, output: responsesToolOutput(part.functionResponse, inputs) });
      } else if (part.text !== undefined && !part.thought) {
        userParts.push({ type: 'input_text', text: part.text });
      } else if (part.inlineData) {
        userParts.push(responsesMessageFile(part.inlineData, inputs));
      }
    }
    if (userParts.length) items.push({ role: 'user', content: userParts });
  }
  return items;
}

/**
 * Whether an assistant message's reasoning goes back to `server` as `reasoning_content`: to a compatible
 * server (DeepSeek's thinking mode refuses a tool-calling assistant message without it: "Missing
 * `reasoning_content` field in the assistant message at message index 1",
 * https://api-docs.deepseek.com/guides/thinking_mode#tool-calls), never to OpenAI's own API, whose recorded
 * requests hold no such field.
 */
function sendsReasoningBack(server: string | undefined): boolean {
  return server !== undefined && new URL(server).hostname !== 'api.openai.com';
}

/** The text of a turn's thought parts that carry no signature (a signed one is Anthropic's or Gemini's, not the server's). */
function reasoningText(content: Content): string {
  return content.parts
    .filter((part) => part.thought && part.text !== undefined && part.thoughtSignature === undefined)
    .map((part) => part.text)
    .join('');
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


