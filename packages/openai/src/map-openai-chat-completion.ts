import type { FunctionCall, JsonSchema, LlmResponse, Part } from '@toolsmith/core';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { mapOpenAIFinishReason } from './map-openai-finish-reason';
import { mapOpenAIChatUsage } from './map-openai-usage';
import { toFunctionCall } from './to-function-call';
import { mapOpenAIErrorCode } from './map-openai-error';

/** The pieces of one assistant turn, gathered from a completion or from stream chunks. */
export interface ChatTurn {
  /** Reasoning text some compatible servers send (`reasoning_content` / `reasoning`). */
  reasoning: string;
  text: string;
  calls: Array<{ id?: string | null; name: string; arguments?: string | null }>;
  finishReason: string | null | undefined;
  usage: ChatCompletion['usage'];
  /** The completion's id (`chatcmpl-…`), from the response or its first chunk. */
  id?: string;
}

/** Maps a (non-streaming) Chat Completions response to one complete {@link LlmResponse}. */
export function mapOpenAIChatCompletion(completion: ChatCompletion, strictSchemas: Map<string, JsonSchema>): LlmResponse {
  const choice = completion.choices?.[0];
  if (!choice) {
    throw mapOpenAIErrorCode('invalid_response', 'OpenAI returned a completion without choices.');
  }
  const message = choice.message as ChatCompletion.Choice['message'] & { reasoning_content?: unknown; reasoning?: unknown };
  const reasoning = typeof message.reasoning_content === 'string' ? message.reasoning_content : typeof message.reasoning === 'string' ? message.reasoning : '';
  return chatTurnResponse(
    {
      reasoning,
      text: (message.content ?? '') + (message.refusal ?? ''),
      calls: (message.tool_calls ?? []).flatMap((call) =>
        call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
      ),
      finishReason: choice.finish_reason,
      usage: completion.usage,
      id: completion.id,
    },
    strictSchemas,
  );
}

/** Builds the complete response of a turn (shared by the non-streaming and streaming paths). */
export function chatTurnResponse(turn: ChatTurn, strictSchemas: Map<string, JsonSchema>): LlmResponse {
  const parts: Part[] = [];
  if (turn.reasoning) parts.push({ text: turn.reasoning, thought: true });
  if (turn.text) parts.push({ text: turn.text });
  const calls: FunctionCall[] = turn.calls.map((call) => toFunctionCall(call, strictSchemas.get(call.name)));
  for (const call of calls) parts.push({ functionCall: call });
  const response: LlmResponse = { content: { role: 'model', parts }, turnComplete: true, finishReason: mapOpenAIFinishReason(turn.finishReason) };
  const usage = mapOpenAIChatUsage(turn.usage);
  if (usage) response.usage = usage;
  if (turn.id) response.responseId = turn.id;
  return response;
}
