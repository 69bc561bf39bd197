import type { Content as GeminiContent, Part as GeminiPart } from '@google/genai' with { 'resolution-mode': 'import' };
import type { Content, Part } from '@toolsmith/core';
import { argsAsObject, ownThoughtSignature, pairToolResults, providerDataOf } from '@toolsmith/core/adapter-kit';
import { isGeneratedGeminiCallId } from './gemini-call-id';
import { modelFilePart, splitFunctionResponseFiles, toolFilesAfterResponses, userFilePart } from './gemini-file-parts';
import { GEMINI_PROVIDER } from './provider-tool';

/**
 * Converts the neutral conversation into Gemini `contents`. Every function call is answered by exactly
 * one function response (core's `pairToolResults`); ids Toolsmith generated for calls Gemini sent
 * without one are left out again; `thoughtSignature`s go back on the part they came with, unchanged;
 * Gemini's `providerData` parts (code execution) go back as they came, other providers' are skipped.
 * Files go natively only where Gemini takes them, a text note in place of any other (`gemini-file-parts.ts`),
 * a model turn's too (Gemini's own image or speech output goes back as it came).
 */
export function convertToGeminiContents(contents: Content[], options: GeminiContentsOptions = {}): GeminiContent[] {
  const nested = options.toolFilesInFunctionResponse !== false;
  const out: GeminiContent[] = [];
  for (const content of pairToolResults(contents)) {
    // The function responses' files that go after them, in their order, collected as the parts are converted.
    const after: GeminiPart[] = [];
    const parts = content.parts.flatMap((part) => convertPart(part, content.role, nested, after));
    parts.push(...after);
    if (parts.length > 0) out.push({ role: content.role, parts });
  }
  return out;
}

/** How {@link convertToGeminiContents} sends the files of function responses. */
export interface GeminiContentsOptions {
  /**
   * `true` (default): inside the function response (`functionResponse.parts`, multimodal function
   * responses: PNG, JPEG, WebP, PDF, plain text), a text note after the function responses in place of
   * any other; `false`: as `inlineData` parts after the function responses of the same user turn, each
   * response's files introduced by a text part naming the call (a note in place of a type Gemini does not
   * take in a message), for models that take no files in function responses.
   */
  toolFilesInFunctionResponse?: boolean;
}

function convertPart(part: Part, role: Content['role'], nestedFiles: boolean, filesAfter: GeminiPart[]): GeminiPart[] {
  const out: GeminiPart = {};
  const signature = ownThoughtSignature(part, GEMINI_PROVIDER);
  if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    out.functionCall = { name, args: argsAsObject(args) };
    if (!isGeneratedGeminiCallId(id)) out.functionCall.id = id;
  } else if (part.functionResponse) {
    const { id, name, response } = part.functionResponse;
    out.functionResponse = { name, response: toResponseObject(response) };
    if (!isGeneratedGeminiCallId(id)) out.functionResponse.id = id;
    if (part.functionResponse.parts?.length) {
      if (nestedFiles) {
        const { inside, after } = splitFunctionResponseFiles(part.functionResponse);
        if (inside) out.functionResponse.parts = inside;
        filesAfter.push(...after);
      } else {
        filesAfter.push(...toolFilesAfterResponses(part.functionResponse));
      }
    }
  } else if (part.inlineData) {
    // A file only where Gemini takes it (else a note): Gemini's own output goes back as it came.
    Object.assign(out, role === 'model' ? modelFilePart(part.inlineData) : userFilePart(part.inlineData));
  } else if (part.providerData) {
    // Gemini's own parts (code execution) go back as they came; another provider's content means nothing here.
    const own = providerDataOf(part, GEMINI_PROVIDER);
    if (!own) return [];
    Object.assign(out, own);
  } else if (part.text !== undefined) {
    // Another provider's reasoning is not Gemini's to continue (and its signature would be refused).
    if (part.thought && part.thoughtSignature !== undefined && signature === undefined) return [];
    // An empty text part still matters when it carries the signature of the turn's thinking.
    if (part.text === '' && signature === undefined) return [];
    out.text = part.text;
    if (part.thought) out.thought = true;
  } else if (signature === undefined) {
    return [];
  }
  if (signature !== undefined) out.thoughtSignature = signature;
  return [out];
}

/** `functionResponse.response` must be a JSON object (a Struct); anything else is wrapped as `output`. */
function toResponseObject(response: unknown): Record<string, unknown> {
  return isPlainObject(response) ? response : { output: response ?? null };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
