import { type LlmResponse, ProviderError } from '@toolsmith/core';
import { generateCallId, partialFunctionCallResponse } from '@toolsmith/core/adapter-kit';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { type ChatTurn, type ChatTurnContext, chatTurnResponse, extraContentOf } from './map-openai-chat-completion';
import { OPENAI_PROVIDER } from './provider-tool';

/** A call being assembled; `partialId` is the id its partials carry when the server sent none (the finished call gets it too). */
type StreamedCall = { id?: string; partialId?: string; name: string; arguments: string; extraContent?: Record<string, unknown> };

/**
 * Reads a Chat Completions stream: yields a `partial` response per text (or reasoning) delta, assembles
 * tool-call names and arguments from their deltas by `index` (a `partialFunctionCall` partial per
 * argument delta, with the text so far), and ends with one complete response
 * holding everything, the finish reason and the usage (sent in a last chunk with
 * `stream_options.include_usage`). A stream that ends before a `finish_reason` throws
 * `PROVIDER_RESPONSE_INVALID`.
 */
export async function* readOpenAIChatStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  context: ChatTurnContext,
): AsyncGenerator<LlmResponse> {
  const turn: ChatTurn = { reasoning: '', text: '', calls: [], finishReason: undefined, usage: undefined };
  const byIndex = new Map<number, StreamedCall>();
  let finished = false;

  for await (const chunk of chunks) {
    if (chunk.usage) turn.usage = chunk.usage;
    if (chunk.id) turn.id ??= chunk.id;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta as (ChatCompletionChunk.Choice.Delta & { reasoning_content?: unknown; reasoning?: unknown }) | undefined;
    const reasoning = typeof delta?.reasoning_content === 'string' ? delta.reasoning_content : typeof delta?.reasoning === 'string' ? delta.reasoning : '';
    if (reasoning) {
      turn.reasoning += reasoning;
      yield { content: { role: 'model', parts: [{ text: reasoning, thought: true }] }, partial: true };
    }
    if (delta?.refusal) turn.refused = true;
    const text = (delta?.content ?? '') + (delta?.refusal ?? '');
    if (text) {
      turn.text += text;
      yield { content: { role: 'model', parts: [{ text }] }, partial: true };
    }
    for (const toolDelta of delta?.tool_calls ?? []) {
      let call = byIndex.get(toolDelta.index);
      // Some compatible servers send each whole call with the same index; a new id then starts a new call.
      if (call && toolDelta.id && call.id && toolDelta.id !== call.id) {
        turn.calls.push(call);
        call = undefined;
      }
      if (!call) byIndex.set(toolDelta.index, (call = { name: '', arguments: '' }));
      if (toolDelta.id) call.id = toolDelta.id;
      const extra = extraContentOf(toolDelta);
      if (extra) call.extraContent = { ...call.extraContent, ...extra };
      if (toolDelta.function?.name) call.name += toolDelta.function.name;
      const piece: unknown = toolDelta.function?.arguments;
      // Some compatible servers stream a whole call with its arguments as an object rather than text.
      if (piece != null && piece !== '') {
        const text = typeof piece === 'string' ? piece : JSON.stringify(piece);
        call.arguments += text;
        yield partialFunctionCallResponse(call.id ?? (call.partialId ??= generateCallId()), call.name, call.arguments, text);
      }
    }
    if (choice.finish_reason) {
      turn.finishReason = choice.finish_reason;
      finished = true;
    }
  }

  if (!finished) {
    throw new ProviderError('PROVIDER_RESPONSE_INVALID', 'The OpenAI stream ended before the response was complete (no finish_reason).', {
      provider: OPENAI_PROVIDER,
    });
  }
  turn.calls.push(...[...byIndex.entries()].sort(([a], [b]) => a - b).map(([, call]) => call));
  for (const call of turn.calls as StreamedCall[]) call.id ??= call.partialId;
  yield chatTurnResponse(turn, context);
}
