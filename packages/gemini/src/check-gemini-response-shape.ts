import { ProviderError } from '@toolsmith/core';
import type { GeminiResponseData } from './map-gemini-response';
import { GEMINI_PROVIDER } from './provider-tool';

/**
 * Checks the shape of what the mapping reads of a Gemini response (or stream chunk): the body, `candidates`
 * (an array: its first candidate), that candidate's `content` and its `parts` (each an object),
 * `usageMetadata` and `promptFeedback` must be objects, and `candidates` and `parts` arrays, where present. An absent field (or `null`,
 * which JSON for protocol buffers reads as absent) is left as it was: a response with no candidates (a
 * blocked prompt) stays one. Throws `PROVIDER_RESPONSE_INVALID` (not retried) naming the field, so a body of
 * another shape is never read as an empty answer. What a part holds is left to core's check of a model's
 * response.
 */
export function checkGeminiResponseShape(response: unknown): asserts response is GeminiResponseData {
  if (!isObject(response)) invalid('the response', response);
  const { candidates, usageMetadata, promptFeedback } = response as Record<string, unknown>;
  if (candidates != null) {
    if (!Array.isArray(candidates)) invalid('candidates', candidates);
    const candidate: unknown = candidates[0];
    if (candidates.length > 0) {
      if (!isObject(candidate)) invalid('candidates[0]', candidate);
      const content = (candidate as Record<string, unknown>).content;
      if (content != null) {
        if (!isObject(content)) invalid('candidates[0].content', content);
        const parts = (content as Record<string, unknown>).parts;
        if (parts != null) {
          if (!Array.isArray(parts)) invalid('candidates[0].content.parts', parts);
          for (let i = 0; i < parts.length; i++) if (!isObject(parts[i])) invalid(`candidates[0].content.parts[${i}]`, parts[i]);
        }
      }
    }
  }
  if (usageMetadata != null && !isObject(usageMetadata)) invalid('usageMetadata', usageMetadata);
  if (promptFeedback != null && !isObject(promptFeedback)) invalid('promptFeedback', promptFeedback);
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(field: string, value: unknown): never {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  throw new ProviderError('PROVIDER_RESPONSE_INVALID', `Gemini response could not be read: ${field} is ${kind}, not ${field === 'candidates' || field.endsWith('.parts') ? 'an array' : 'an object'}.`, {
    provider: GEMINI_PROVIDER,
  });
}
