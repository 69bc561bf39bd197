import type { JsonSchema, LlmResponse, Part, ToolsmithError } from '@toolsmith/core';
import { providerDataPart } from '@toolsmith/core/adapter-kit';
import type { Response, ResponseOutputItem } from 'openai/resources/responses/responses';
import { mapOpenAIErrorCode } from './map-openai-error';
import { mapOpenAIResponseStatus } from './map-openai-finish-reason';
import { mapOpenAIResponsesUsage } from './map-openai-usage';
import { OPENAI_PROVIDER } from './provider-tool';
import { toFunctionCall } from './to-function-call';

/**
 * Maps a finished Responses API response to one complete {@link LlmResponse}: message text, reasoning
 * summaries (as `thought` parts) and the reasoning items themselves (as `providerData`, sent back
 * unchanged), function calls (by `call_id`). Items of hosted tools (web search,
 * code interpreter, …) ran at OpenAI and are not function calls; their effect is in the text.
 * `output` may be given when it was assembled from stream events. A `failed` response throws.
 */
export function mapOpenAIResponse(
  response: Pick<Response, 'status' | 'incomplete_details' | 'usage' | 'error'> & Partial<Pick<Response, 'id'>> & { output?: ResponseOutputItem[] },
  strictSchemas: Map<string, JsonSchema>,
  output: readonly ResponseOutputItem[] = response.output ?? [],
): LlmResponse {
  if (response.status === 'failed') throw responseFailure(response.error);
  const parts: Part[] = [];
  let hasCalls = false;
  for (const item of output) {
    if (item.type === 'message') {
      const text = item.content.map((part) => (part.type === 'output_text' ? part.text : part.refusal)).join('');
      if (text) parts.push({ text });
    } else if (item.type === 'reasoning') {
      const summary = item.summary.map((part) => part.text).join('\n');
      if (summary) parts.push({ text: summary, thought: true });
      // The item itself (id, encrypted content) goes back with the next request, as OpenAI asks of
      // clients that keep the conversation themselves; the summary above is for people to read.
      parts.push(providerDataPart(OPENAI_PROVIDER, item));
    } else if (item.type === 'function_call') {
      hasCalls = true;
      parts.push({ functionCall: toFunctionCall({ id: item.call_id, name: item.name, arguments: item.arguments }, strictSchemas.get(item.name)) });
    }
  }
  const result: LlmResponse = {
    content: { role: 'model', parts },
    turnComplete: true,
    finishReason: mapOpenAIResponseStatus(response.status, response.incomplete_details?.reason, hasCalls),
  };
  const usage = mapOpenAIResponsesUsage(response.usage);
  if (usage) result.usage = usage;
  if (response.id) result.responseId = response.id;
  return result;
}

/** The error of a `failed` response (or `response.failed` event). */
export function responseFailure(error: Response['error'] | undefined): ToolsmithError {
  return mapOpenAIErrorCode(error?.code, `OpenAI could not complete the response: ${error?.message ?? 'no details'}`);
}
