import { type JsonSchema, type LlmResponse, type Part, ProviderError, type ToolsmithError } from '@toolsmith/core';
import { providerDataPart } from '@toolsmith/core/adapter-kit';
import type { Response, ResponseOutputItem } from 'openai/resources/responses/responses';
import { mapOpenAIErrorCode } from './map-openai-error';
import { REFUSAL, mapOpenAIResponseStatus } from './map-openai-finish-reason';
import { mapOpenAIResponsesUsage } from './map-openai-usage';
import { OPENAI_PROVIDER } from './provider-tool';
import { toFunctionCall } from './to-function-call';

/**
 * The key a kept `reasoning` item holds the id of the output item that followed it in its response under
 * (`null` when none did): Toolsmith's, not the API's, taken off before the item is sent back.
 */
export const FOLLOWED_BY = 'followedBy';

/**
 * Maps a finished Responses API response to one complete {@link LlmResponse}, keeping every output item
 * as the API returned it (id, order, `phase`, status, annotations), so that the next request can send the
 * items back in their order with their ids: a `message` item becomes a text part, a `function_call` item
 * a function call (by `call_id`), each with the item in `providerData`; a `reasoning` item becomes its
 * summary as a `thought` part plus the item itself (encrypted content included, and the id of the item
 * that followed it under {@link FOLLOWED_BY}) as a `providerData` part; items of hosted tools (web search, file search, code interpreter, image generation, remote MCP,
 * …) ran at OpenAI, are not function calls and are kept as `providerData` parts; a call an incomplete response
 * cut (its status not `completed`) is left out. `output` may be given
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
  let refused = false;
  output.forEach((item, index) => {
    // A reasoning item keeps the id of the item that followed it (FOLLOWED_BY): it may go back only right before that item.
    const { providerData } = providerDataPart(OPENAI_PROVIDER, item.type === 'reasoning' ? { ...item, [FOLLOWED_BY]: output[index + 1]?.id ?? null } : item);
    if (item.type === 'message') {
      const text = item.content.map((part) => outputText(part.type === 'output_text' ? part.text : part.refusal)).join('');
      if (item.content.some((part) => part.type === 'refusal')) refused = true;
      parts.push(text ? { text, providerData } : { providerData });
    } else if (item.type === 'reasoning') {
      const summary = item.summary.map((part) => part.text).join('\n');
      if (summary) parts.push({ text: summary, thought: true });
      // The item itself (id, encrypted content) goes back with the next request, right before the item
      // that followed it, as the API requires; the summary above is for people to read.
      parts.push({ providerData });
    } else if (item.type === 'function_call' && response.status === 'incomplete' && item.status !== 'completed') {
      // Cut by the token limit (`max_output_tokens`): its arguments are unfinished, so it is not run, and not
      // kept (sent back without an output, the API would refuse it); the finish reason says max-tokens.
    } else if (item.type === 'function_call') {
      hasCalls = true;
      parts.push({ functionCall: toFunctionCall({ id: item.call_id, name: item.name, arguments: item.arguments }, strictSchemas.get(item.name)), providerData });
    } else {
      parts.push({ providerData });
    }
  });
  const result: LlmResponse = {
    content: { role: 'model', parts },
    turnComplete: true,
    // A refusal (a `refusal` content part) is the model declining: its text stays the answer, the finish reason says so.
    finishReason: refused && response.status === 'completed' ? REFUSAL : mapOpenAIResponseStatus(response.status, response.incomplete_details?.reason, hasCalls),
  };
  const usage = mapOpenAIResponsesUsage(response.usage);
  if (usage) result.usage = usage;
  if (response.id) result.responseId = response.id;
  return result;
}

/** A message item's text (or refusal): a string, else `PROVIDER_RESPONSE_INVALID`, never read as `[object Object]`. */
function outputText(text: unknown): string {
  if (typeof text === 'string') return text;
  throw new ProviderError('PROVIDER_RESPONSE_INVALID', `OpenAI's answer could not be read: it is not a response: a message's text is ${text === null ? 'null' : Array.isArray(text) ? 'an array' : `a JSON ${typeof text}`}.`, {
    provider: OPENAI_PROVIDER,
  });
}

/** The error of a `failed` response (or `response.failed` event). */
export function responseFailure(error: Response['error'] | undefined): ToolsmithError {
  return mapOpenAIErrorCode(error?.code, `OpenAI could not complete the response: ${error?.message ?? 'no details'}`);
}
