import type { GenerateContentResponse, GenerateContentResponseUsageMetadata, Part as GeminiPart } from '@google/genai' with { 'resolution-mode': 'import' };
import type { LlmResponse, Part, Usage } from '@toolsmith/core';
import { argsFromJsonValue, providerDataPart, signedBy } from '@toolsmith/core/adapter-kit';
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
 */
export function mapGeminiResponse(response: GeminiResponseData): LlmResponse {
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
    if (part.text !== undefined) return [{ text: part.text, ...(part.thought ? { thought: true } : {}), ...signature }];
    if (part.inlineData?.data !== undefined) {
      const { mimeType, data } = part.inlineData;
      // Speech output (raw PCM) is kept as a WAV file: its rate would be lost, and Gemini takes WAV back.
      return [{ inlineData: pcmAsWav(mimeType, data) ?? { mimeType: mimeType ?? 'application/octet-stream', data }, ...signature }];
    }
    // A signature can arrive on a part of its own; it must still go back.
    return part.thoughtSignature !== undefined ? [{ text: '', ...signature }] : [];
  });
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
