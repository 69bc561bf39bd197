import { type LlmResponse, type Part, ProviderError } from '@toolsmith/core';
import { partialFunctionCallResponse } from '@toolsmith/core/adapter-kit';
import { checkGeminiResponseShape } from './check-gemini-response-shape';
import { geminiCallId } from './gemini-call-id';
import { type GeminiResponseData, finishGeminiResponse, mapGeminiParts } from './map-gemini-response';
import { GEMINI_PROVIDER } from './provider-tool';
import { readGeminiResponse } from './read-gemini-response';

/**
 * Turns `streamGenerateContent` chunks into Toolsmith responses: a `partial` response per text delta
 * and one per function call (a `partialFunctionCall` part with all of its arguments: Gemini streams each
 * call whole), then one complete response with the text deltas joined, the function calls (Gemini sends each one
 * whole), usage and finish reason. Parts that carry a `thoughtSignature` are never merged with
 * others, so each signature goes back on the part it came with. A stream that ends without a finish
 * reason was cut off and is reported as `PROVIDER_RESPONSE_INVALID`, as is a chunk of another shape
 * (see {@link checkGeminiResponseShape}).
 */
export async function* assembleGeminiStream(chunks: AsyncIterable<GeminiResponseData>): AsyncGenerator<LlmResponse> {
  const parts: Part[] = [];
  const last: GeminiResponseData = {};
  let finishReason: string | undefined;
  let finishMessage: string | undefined;
  let calls = 0;

  for await (const chunk of chunks) {
    const candidate = readGeminiResponse(() => {
      checkGeminiResponseShape(chunk);
      return chunk.candidates?.[0];
    });
    for (const part of readGeminiResponse(() => mapGeminiParts(candidate?.content?.parts ?? []))) {
      if (part.text && !part.functionCall) yield { partial: true, content: { role: 'model', parts: [{ text: part.text, ...(part.thought ? { thought: true } : {}) }] } };
      const call = part.functionCall;
      if (call) {
        // Gemini sends each call whole: one partial with all of its arguments. The id is given here, so the
        // finished call has the same one.
        if (!call.id) call.id = geminiCallId(chunk.responseId ?? last.responseId, calls, call.name);
        calls++;
        const argsText = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
        yield partialFunctionCallResponse(call.id, call.name, argsText, argsText);
      }
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
