import { type JsonSchema, type LlmResponse, ProviderError } from '@toolsmith/core';
import { partialFunctionCallResponse } from '@toolsmith/core/adapter-kit';
import type { ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { mapOpenAIErrorCode } from './map-openai-error';
import { mapOpenAIResponse, responseFailure } from './map-openai-response';
import { OPENAI_PROVIDER } from './provider-tool';

/**
 * Reads a Responses API event stream: yields a `partial` response per `response.output_text.delta`
 * (and `response.refusal.delta`, its text as answer text, and reasoning-summary delta), assembles output items from `output_item.added`,
 * `function_call_arguments.delta` (a `partialFunctionCall` partial per delta, with the call's `call_id`,
 * name and argument text so far) and `output_item.done`, and ends with one complete response when
 * `response.completed` (or `response.incomplete`) arrives. `response.failed` and `error` events throw
 * typed errors; a stream that ends without a terminal event throws `PROVIDER_RESPONSE_INVALID`.
 */
export async function* readOpenAIResponsesStream(
  events: AsyncIterable<ResponseStreamEvent>,
  strictSchemas: Map<string, JsonSchema>,
): AsyncGenerator<LlmResponse> {
  const items = new Map<number, ResponseOutputItem>();

  for await (const event of events) {
    switch (event.type) {
      case 'response.output_text.delta': {
        const part = textPart(items.get(event.output_index), event.content_index);
        if (part) part.text += event.delta;
        if (event.delta) yield { content: { role: 'model', parts: [{ text: event.delta }] }, partial: true };
        break;
      }
      case 'response.refusal.delta': {
        const part = refusalPart(items.get(event.output_index), event.content_index);
        if (part) part.refusal += event.delta;
        if (event.delta) yield { content: { role: 'model', parts: [{ text: event.delta }] }, partial: true };
        break;
      }
      case 'response.reasoning_summary_text.delta':
        if (event.delta) yield { content: { role: 'model', parts: [{ text: event.delta, thought: true }] }, partial: true };
        break;
      case 'response.output_item.added':
      case 'response.output_item.done':
        items.set(event.output_index, structuredClone(event.item));
        break;
      case 'response.function_call_arguments.delta': {
        const item = items.get(event.output_index);
        if (item?.type === 'function_call') {
          item.arguments += event.delta;
          if (event.delta) yield partialFunctionCallResponse(item.call_id, item.name, item.arguments, event.delta);
        }
        break;
      }
      case 'response.output_text.done': {
        const part = textPart(items.get(event.output_index), event.content_index);
        if (part) part.text = event.text;
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const assembled = [...items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
        yield mapOpenAIResponse(event.response, strictSchemas, assembled.length ? assembled : event.response.output);
        return;
      }
      case 'response.failed':
        throw responseFailure(event.response.error);
      case 'error':
        throw mapOpenAIErrorCode(event.code, `OpenAI reported an error in the stream: ${event.message}`);
      default:
        break;
    }
  }
  throw new ProviderError('PROVIDER_RESPONSE_INVALID', 'The OpenAI stream ended before the response was complete (no response.completed).', {
    provider: OPENAI_PROVIDER,
  });
}

/** The output_text part a text delta belongs to, created when the server skipped `content_part.added`. */
function textPart(item: ResponseOutputItem | undefined, index: number): { text: string } | undefined {
  if (item?.type !== 'message') return undefined;
  const existing = item.content[index];
  if (existing?.type === 'output_text') return existing;
  if (existing) return undefined;
  const created = { type: 'output_text' as const, text: '', annotations: [] };
  item.content[index] = created;
  return created;
}

/** The refusal part a refusal delta belongs to, created when the server skipped `content_part.added`. */
function refusalPart(item: ResponseOutputItem | undefined, index: number): { refusal: string } | undefined {
  if (item?.type !== 'message') return undefined;
  const existing = item.content[index];
  if (existing?.type === 'refusal') return existing;
  if (existing) return undefined;
  const created = { type: 'refusal' as const, refusal: '' };
  item.content[index] = created;
  return created;
}
