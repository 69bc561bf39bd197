import { ProviderError } from '@toolsmith/core';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Response as OpenAIResponse } from 'openai/resources/responses/responses';
import { OPENAI_PROVIDER } from './provider-tool';

/**
 * Checks that a (non-streamed) Chat Completions answer is a completion: an object whose `choices` holds at
 * least one choice with a `message` object. Any other JSON that came with a 2xx status — `{}`, a completion
 * without choices — throws `PROVIDER_RESPONSE_INVALID` (not retried: the server answered), saying what came
 * instead, so it is never read as an empty answer nor reported as a failure of OpenAI's own. (A body that is
 * not JSON is refused before, by the adapter kit's `readJsonAnswer`.)
 */
export function checkChatCompletionShape(body: unknown): asserts body is ChatCompletion {
  if (!isObject(body)) invalid('a chat completion', body);
  const { choices } = body as Record<string, unknown>;
  if (!Array.isArray(choices) || choices.length === 0) invalid('a chat completion', body, Array.isArray(choices) ? 'its choices are empty' : 'it has no choices');
  if (!isObject(choices[0]) || !isObject((choices[0] as Record<string, unknown>).message)) invalid('a chat completion', body, 'choices[0] has no message');
}

/**
 * Checks that a (non-streamed) Responses API answer is a response: an object whose `output` is an array.
 * Anything else (see {@link checkChatCompletionShape}) throws `PROVIDER_RESPONSE_INVALID`, not retried.
 */
export function checkResponsesShape(body: unknown): asserts body is OpenAIResponse {
  if (!isObject(body)) invalid('a response', body);
  if (!Array.isArray((body as Record<string, unknown>).output)) invalid('a response', body, 'it has no output array');
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(expected: string, body: unknown, reason?: string): never {
  throw new ProviderError('PROVIDER_RESPONSE_INVALID', `OpenAI's answer could not be read: it is not ${expected}: ${reason ?? describe(body)}.`, { provider: OPENAI_PROVIDER });
}

/** What came instead, for the message: the JSON value's kind. */
function describe(body: unknown): string {
  if (body === null) return 'the body is JSON null';
  return `the body is ${Array.isArray(body) ? 'a JSON array' : `a JSON ${typeof body}`}`;
}
