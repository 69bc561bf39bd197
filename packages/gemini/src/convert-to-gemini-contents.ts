import type { Content as GeminiContent, Part as GeminiPart } from '@google/genai' with { 'resolution-mode': 'import' };
import type { Content, Part } from '@toolsmith/core';
import { argsAsObject, pairToolResults, providerDataOf } from '@toolsmith/core/adapter-kit';
import { isGeneratedGeminiCallId } from './gemini-call-id';
import { GEMINI_PROVIDER } from './provider-tool';

/**
 * Converts the neutral conversation into Gemini `contents`. Every function call is answered by exactly
 * one function response (core's `pairToolResults`); ids Toolsmith generated for calls Gemini sent
 * without one are left out again; `thoughtSignature`s go back on the part they came with, unchanged;
 * Gemini's `providerData` parts (code execution) go back as they came, other providers' are skipped.
 */
export function convertToGeminiContents(contents: Content[]): GeminiContent[] {
  const out: GeminiContent[] = [];
  for (const content of pairToolResults(contents)) {
    const parts = content.parts.flatMap(convertPart);
    if (parts.length > 0) out.push({ role: content.role, parts });
  }
  return out;
}

function convertPart(part: Part): GeminiPart[] {
  const out: GeminiPart = {};
  if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    out.functionCall = { name, args: argsAsObject(args) };
    if (!isGeneratedGeminiCallId(id)) out.functionCall.id = id;
  } else if (part.functionResponse) {
    const { id, name, response } = part.functionResponse;
    out.functionResponse = { name, response: toResponseObject(response) };
    if (!isGeneratedGeminiCallId(id)) out.functionResponse.id = id;
  } else if (part.inlineData) {
    out.inlineData = { mimeType: part.inlineData.mimeType, data: part.inlineData.data };
  } else if (part.providerData) {
    // Gemini's own parts (code execution) go back as they came; another provider's content means nothing here.
    const own = providerDataOf(part, GEMINI_PROVIDER);
    if (!own) return [];
    Object.assign(out, own);
  } else if (part.text !== undefined) {
    // An empty text part still matters when it carries the signature of the turn's thinking.
    if (part.text === '' && part.thoughtSignature === undefined) return [];
    out.text = part.text;
    if (part.thought) out.thought = true;
  } else if (part.thoughtSignature === undefined) {
    return [];
  }
  if (part.thoughtSignature !== undefined) out.thoughtSignature = part.thoughtSignature;
  return [out];
}

/** `functionResponse.response` must be a JSON object (a Struct); anything else is wrapped as `output`. */
function toResponseObject(response: unknown): Record<string, unknown> {
  return isPlainObject(response) ? response : { output: response ?? null };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
