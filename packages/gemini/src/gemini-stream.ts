import { type LlmResponse, type Part, ProviderError } from '@toolsmith/core';
import { type GeminiResponseData, finishGeminiResponse, mapGeminiParts } from './map-gemini-response';
import { GEMINI_PROVIDER } from './provider-tool';

/**
 * Turns `streamGenerateContent` chunks into Toolsmith responses: a `partial` response per text delta,
 * then one complete response with the text deltas joined, the function calls (Gemini sends each one
 * whole), usage and finish reason. Parts that carry a `thoughtSignature` are never merged with
 * others, so each signature goes back on the part it came with. A stream that ends without a finish
 * reason was cut off and is reported as `PROVIDER_RESPONSE_INVALID`.
 */
export async function* assembleGeminiStream(chunks: AsyncIterable<GeminiResponseData>): AsyncGenerator<LlmResponse> {
  const parts: Part[] = [];
  const last: GeminiResponseData = {};
  let finishReason: string | undefined;
  let finishMessage: string | undefined;

  for await (const chunk of chunks) {
    const candidate = chunk.candidates?.[0];
    for (const part of mapGeminiParts(candidate?.content?.parts ?? [])) {
      if (part.text && !part.functionCall) yield { partial: true, content: { role: 'model', parts: [{ text: part.text, ...(part.thought ? { thought: true } : {}) }] } };
      append(parts, part);
    }
    finishReason = candidate?.finishReason ?? finishReason;
    finishMessage = candidate?.finishMessage ?? finishMessage;
    // Usage is cumulative; the last chunk that has it is the total.
    last.usageMetadata = chunk.usageMetadata ?? last.usageMetadata;
    last.promptFeedback = chunk.promptFeedback ?? last.promptFeedback;
    last.responseId = chunk.responseId ?? last.responseId;
    last.modelVersion = chunk.modelVersion ?? last.modelVersion;
  }
  if (finishReason === undefined && last.promptFeedback?.blockReason === undefined) {
    throw new ProviderError('PROVIDER_RESPONSE_INVALID', 'Gemini stream ended without a finish reason; the response is incomplete.', {
      provider: GEMINI_PROVIDER,
    });
  }
  yield finishGeminiResponse(last, parts.filter((part) => part.text !== '' || part.thoughtSignature !== undefined || !('text' in part)), finishReason, finishMessage);
}

/** Joins a text delta onto the previous text part of the same kind, unless either carries a signature. */
function append(parts: Part[], part: Part): void {
  const previous = parts[parts.length - 1];
  const mergeable = (p: Part) => p.text !== undefined && !p.functionCall && !p.inlineData && p.thoughtSignature === undefined;
  if (previous && mergeable(previous) && mergeable(part) && Boolean(previous.thought) === Boolean(part.thought)) {
    previous.text += part.text!;
  } else {
    parts.push({ ...part });
  }
}
