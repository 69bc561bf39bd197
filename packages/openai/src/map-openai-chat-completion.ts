import { type FunctionCall, type JsonSchema, type LlmResponse, type Part, ProviderError } from '@toolsmith/core';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { REFUSAL, mapOpenAIFinishReason } from './map-openai-finish-reason';
import { mapOpenAIChatUsage } from './map-openai-usage';
import { toFunctionCall } from './to-function-call';
import { OPENAI_PROVIDER } from './provider-tool';
import { checkChatCompletionShape } from './check-openai-answer-shape';

/** The pieces of one assistant turn, gathered from a completion or from stream chunks. */
export interface ChatTurn {
  /** Reasoning text some compatible servers send (`reasoning_content` / `reasoning`). */
  reasoning: string;
  text: string;
  /** Whether the model refused (`refusal` on the message or in the deltas); its text is part of `text`. */
  refused?: boolean;
  /** `extraContent`: a call's `extra_content` (Google's OpenAI-compatible endpoint puts `google.thought_signature` there), sent back with the call. */
  calls: Array<{ id?: string | null; name: string; arguments?: string | null; extraContent?: Record<string, unknown> }>;
  finishReason: string | null | undefined;
  usage: ChatCompletion['usage'];
  /** The completion's id (`chatcmpl-…`), from the response or its first chunk. */
  id?: string;
}

/**
 * Where a turn came from and how to read its calls: the strict schemas of the request's tools, and the
 * server (its {@link chatServerOf} key) that a call's `extra_content` is kept for.
 */
export interface ChatTurnContext {
  strictSchemas: Map<string, JsonSchema>;
  server: string;
}

/**
 * Maps a (non-streaming) Chat Completions response to one complete {@link LlmResponse}; an answer that is not a
 * completion throws `PROVIDER_RESPONSE_INVALID` (see {@link checkChatCompletionShape}).
 */
export function mapOpenAIChatCompletion(completion: unknown, context: ChatTurnContext): LlmResponse {
  checkChatCompletionShape(completion);
  const choice = completion.choices[0];
  const message = choice.message as ChatCompletion.Choice['message'] & { reasoning_content?: unknown; reasoning?: unknown };
  const content = readChatContent(message.content);
  const reasoning = (typeof message.reasoning_content === 'string' ? message.reasoning_content : typeof message.reasoning === 'string' ? message.reasoning : '') + content.thinking;
  return chatTurnResponse(
    {
      reasoning,
      text: content.text + (message.refusal ?? ''),
      refused: !!message.refusal,
      calls: (message.tool_calls ?? []).flatMap((call) =>
        call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments, extraContent: extraContentOf(call) }] : [],
      ),
      finishReason: choice.finish_reason,
      usage: completion.usage,
      id: completion.id,
    },
    context,
  );
}

/**
 * A message's `content`: a string, `null`, or (some compatible servers, e.g. Mistral's reasoning models) an array of
 * parts: strings and `{ type: 'text', text }` are the text, `{ type: 'thinking', thinking }` (its text, or text
 * parts) reasoning. Anything else throws `PROVIDER_RESPONSE_INVALID`, never read as `[object Object]`.
 */
function readChatContent(content: unknown): { text: string; thinking: string } {
  if (content === null || content === undefined) return { text: '', thinking: '' };
  if (typeof content === 'string') return { text: content, thinking: '' };
  if (!Array.isArray(content)) throw unreadableContent(content);
  let text = '';
  let thinking = '';
  for (const part of content as unknown[]) {
    if (typeof part === 'string') text += part;
    else if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') text += part.text;
    else if (isRecord(part) && part.type === 'thinking') thinking += thinkingText(part.thinking, part);
    else throw unreadableContent(part);
  }
  return { text, thinking };
}

function thinkingText(thinking: unknown, part: unknown): string {
  if (typeof thinking === 'string') return thinking;
  if (!Array.isArray(thinking)) throw unreadableContent(part);
  return (thinking as unknown[]).map((inner) => (isRecord(inner) && typeof inner.text === 'string' ? inner.text : typeof inner === 'string' ? inner : '')).join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unreadableContent(value: unknown): ProviderError {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? `an object${isRecord(value) && typeof value.type === 'string' ? ` of type ${JSON.stringify(value.type).slice(0, 40)}` : ''}` : `a ${typeof value}`;
  return new ProviderError('PROVIDER_RESPONSE_INVALID', `OpenAI's answer could not be read: it is not a chat completion: the message's content is ${kind}, not text.`, { provider: OPENAI_PROVIDER });
}

/**
 * The key of the server a client talks to: its base URL's origin and path (no credentials, query or
 * trailing slash). A call's `extra_content` is kept with this key and goes back only to the same server.
 */
export function chatServerOf(baseURL: string): string {
  const url = new URL(baseURL);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A tool call's `extra_content` object (a plain-JSON copy), when the server sent one. */
export function extraContentOf(call: object): Record<string, unknown> | undefined {
  const extra: unknown = (call as { extra_content?: unknown }).extra_content;
  return typeof extra === 'object' && extra !== null && !Array.isArray(extra) ? (JSON.parse(JSON.stringify(extra)) as Record<string, unknown>) : undefined;
}

/** Builds the complete response of a turn (shared by the non-streaming and streaming paths). */
export function chatTurnResponse(turn: ChatTurn, { strictSchemas, server }: ChatTurnContext): LlmResponse {
  const parts: Part[] = [];
  if (turn.reasoning) parts.push({ text: turn.reasoning, thought: true });
  if (turn.text) parts.push({ text: turn.text });
  for (const call of turn.calls) {
    const functionCall: FunctionCall = toFunctionCall(call, strictSchemas.get(call.name));
    // Kept with the call, and with the server that sent it: Google requires its thought signature back on
    // the call, and another server (OpenAI's own) refuses a field it does not know.
    parts.push(call.extraContent ? { functionCall, providerData: { provider: OPENAI_PROVIDER, data: { extra_content: call.extraContent, server } } } : { functionCall });
  }
  // A refusal is the model declining: its text stays the answer, and the finish reason says so (unless cut or filtered).
  const finishReason = turn.refused && turn.finishReason === 'stop' ? REFUSAL : mapOpenAIFinishReason(turn.finishReason);
  const response: LlmResponse = { content: { role: 'model', parts }, turnComplete: true, finishReason };
  const usage = mapOpenAIChatUsage(turn.usage);
  if (usage) response.usage = usage;
  if (turn.id) response.responseId = turn.id;
  return response;
}
