import type { GenerateContentResponse, GenerateContentResponseUsageMetadata, Part as GeminiPart } from '@google/genai' with { 'resolution-mode': 'import' };
import type { InlineData, LlmResponse, Part, Usage } from '@toolsmith/core';
import { argsFromJsonValue, providerDataPart, signedBy } from '@toolsmith/core/adapter-kit';
import { checkGeminiResponseShape } from './check-gemini-response-shape';
import { geminiCallId } from './gemini-call-id';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';
import { GEMINI_PROVIDER } from './provider-tool';
import { pcmAsWav } from './gemini-pcm-audio';

/** The fields of a `GenerateContentResponse` the mapping reads (streamed chunks have the same shape). */
export type GeminiResponseData = Pick<GenerateContentResponse, 'candidates' | 'usageMetadata' | 'promptFeedback' | 'responseId' | 'modelVersion'>;

/**
 * Maps a complete `GenerateContentResponse` (of the first candidate) to the final {@link LlmResponse}.
 * Function calls without an id get a generated one; `thoughtSignature`s stay on their part; a blocked
 * prompt or a malformed function call is reported in `error`, as a failure inside a successful exchange.
 * A body of another shape (see {@link checkGeminiResponseShape}) throws `PROVIDER_RESPONSE_INVALID`.
 */
export function mapGeminiResponse(response: GeminiResponseData): LlmResponse {
  checkGeminiResponseShape(response);
  const candidate = response.candidates?.[0];
  return finishGeminiResponse(response, mapGeminiParts(candidate?.content?.parts ?? []), candidate?.finishReason, candidate?.finishMessage);
}

/** Builds the final response from already-assembled parts (shared with the stream assembler). */
export function finishGeminiResponse(response: GeminiResponseData, parts: Part[], finishReason?: string, finishMessage?: string): LlmResponse {
  let position = 0;
  for (const part of parts) {
    if (part.functionCall && !part.functionCall.id) part.functionCall.id = geminiCallId(response.responseId, position, part.functionCall.name);
    if (part.functionCall) position++;
  }
  const blockReason = response.promptFeedback?.blockReason;
  const result: LlmResponse = {
    content: { role: 'model', parts },
    turnComplete: true,
    finishReason: blockReason ? { unified: 'content-filter', raw: blockReason } : mapGeminiFinishReason(finishReason, position > 0),
  };
  const usage = mapGeminiUsage(response.usageMetadata);
  if (usage) result.usage = usage;
  if (blockReason) {
    result.error = { code: 'PROMPT_BLOCKED', message: response.promptFeedback?.blockReasonMessage ?? `Gemini blocked the prompt (${blockReason}).` };
  } else if (result.finishReason?.unified === 'error') {
    result.error = { code: finishReason ?? 'ERROR', message: finishMessage ?? `Gemini stopped with ${finishReason}.` };
  }
  if (response.responseId) result.responseId = response.responseId;
  result.providerMetadata = { gemini: { responseId: response.responseId, modelVersion: response.modelVersion } };
  return result;
}

/**
 * Maps Gemini parts to neutral parts; function calls keep the id Gemini sent (if any), and
 * `executableCode` / `codeExecutionResult` parts become `providerData` parts.
 */
export function mapGeminiParts(parts: GeminiPart[]): Part[] {
  return parts.flatMap((part): Part[] => {
    const signature = signedBy(GEMINI_PROVIDER, part.thoughtSignature);
    if (part.functionCall) {
      const { id, name, args } = part.functionCall;
      return [{ functionCall: { id: id ?? '', name: name ?? '', args: argsFromJsonValue(args) }, ...signature }];
    }
    // Code execution has no neutral form; the parts are kept whole so they go back to Gemini as they came.
    if (part.executableCode) return [{ ...providerDataPart(GEMINI_PROVIDER, { executableCode: part.executableCode }), ...signature }];
    if (part.codeExecutionResult) return [{ ...providerDataPart(GEMINI_PROVIDER, { codeExecutionResult: part.codeExecutionResult }), ...signature }];
    const file = part.inlineData?.data !== undefined ? modelFile(part.inlineData) : undefined;
    if (part.text !== undefined) {
      const text: Part = { text: part.text, ...(part.thought ? { thought: true } : {}), ...signature };
      // A part with both (not seen from Gemini, whose parts hold one) keeps its file as a part of its own.
      return file ? [text, { inlineData: file }] : [text];
    }
    if (file) return [{ inlineData: file, ...signature }];
    // A signature can arrive on a part of its own; it must still go back.
    return part.thoughtSignature !== undefined ? [{ text: '', ...signature }] : [];
  });
}

/**
 * A response's inline data as a neutral file: speech output (raw PCM) as a WAV file (its rate would be lost, and
 * Gemini takes WAV back); anything else as it came, for core's check of a model's files (which refuses what is
 * not strings, with no retry), with no media type read as `application/octet-stream`.
 */
function modelFile(inlineData: NonNullable<GeminiPart['inlineData']>): InlineData {
  const { mimeType, data } = inlineData;
  return pcmAsWav(mimeType, data) ?? { mimeType: mimeType ?? 'application/octet-stream', data: data! };
}

/**
 * Maps `usageMetadata`: thinking tokens are billed as output, so they count toward `outputTokens`;
 * tool-use prompt tokens count as input.
 */
export function mapGeminiUsage(usage: GenerateContentResponseUsageMetadata | undefined): Usage | undefined {
  if (!usage) return undefined;
  const result: Usage = {
    inputTokens: (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0),
    outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
  };
  result.totalTokens = usage.totalTokenCount ?? result.inputTokens! + result.outputTokens!;
  if (usage.cachedContentTokenCount) result.cachedInputTokens = usage.cachedContentTokenCount;
  if (usage.thoughtsTokenCount) result.reasoningTokens = usage.thoughtsTokenCount;
  return result;
}
