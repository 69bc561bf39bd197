import type { JsonSchema, LlmResponse, Part, ToolsmithError } from '@toolsmith/core';
import { providerDataPart } from '@toolsmith/core/adapter-kit';
import type { Response, ResponseOutputItem } from 'openai/resources/responses/responses';
import { mapOpenAIErrorCode } from './map-openai-error';
import { mapOpenAIResponseStatus } from './map-openai-finish-reason';
import { mapOpenAIResponsesUsage } from './map-openai-usage';
import { OPENAI_PROVIDER } from './provider-tool';
import { toFunctionCall } from './to-function-call';

/**
 * Maps a finished Responses API response to one complete {@link LlmResponse}, keeping every output item
 * as the API returned it (id, order, `phase`, status, annotations), so that the next request can send the
 * items back in their order with their ids: a `message` item becomes a text part, a `function_call` item
 * a function call (by `call_id`), each with the item in `providerData`; a `reasoning` item becomes its
 * summary as a `thought` part plus the item itself (encrypted content included) as a `providerData`
 * part; items of hosted tools (web search, file search, code interpreter, image generation, remote MCP,
 * …) ran at OpenAI, are not function calls and are kept as `providerData` parts. `output` may be given
 * when it was assembled from stream events. A `failed` response throws.
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
    const { providerData } = providerDataPart(OPENAI_PROVIDER, item);
    if (item.type === 'message') {
      const text = item.content.map((part) => (part.type === 'output_text' ? part.text : part.refusal)).join('');
      parts.push(text ? { text, providerData } : { providerData });
    } else if (item.type === 'reasoning') {
      const summary = item.summary.map((part) => part.text).join('\n');
      if (summary) parts.push({ text: summary, thought: true });
      // The item itself (id, encrypted content) goes back with the next request, right before the item
      // that followed it, as the API requires; the summary above is for people to read.
      parts.push({ providerData });
    } else if (item.type === 'function_call') {
      hasCalls = true;
      parts.push({ functionCall: toFunctionCall({ id: item.call_id, name: item.name, arguments: item.arguments }, strictSchemas.get(item.name)), providerData });
    } else {
      parts.push({ providerData });
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
