import { ProviderError } from '@toolsmith/core';
import type Anthropic from '@anthropic-ai/sdk';
import { ANTHROPIC_PROVIDER } from './provider-tool';

/**
 * Checks that a (non-streamed) Messages API answer is a message: an object whose `content` is an array. Any
 * other JSON that came with a 2xx status (`{}`, `null`, an array) throws `PROVIDER_RESPONSE_INVALID`, not
 * retried (the server answered), saying what came instead, never a `TypeError` read as a failed connection.
 * (A body that is not JSON is refused before, by the adapter kit's `readJsonAnswer`.)
 */
export function checkAnthropicMessageShape(body: unknown): asserts body is Anthropic.Message {
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (isObject && Array.isArray((body as { content?: unknown }).content)) return;
  const what = isObject ? 'it has no content array' : `the body is ${body === null ? 'JSON null' : Array.isArray(body) ? 'a JSON array' : `a JSON ${typeof body}`}`;
  throw new ProviderError('PROVIDER_RESPONSE_INVALID', `Anthropic's answer could not be read: it is not a message: ${what}.`, { provider: ANTHROPIC_PROVIDER });
}
