import { ProviderError } from '@toolsmith/core';
import { GEMINI_PROVIDER } from './provider-tool';

/**
 * Runs the adapter's own reading of a Gemini response (or stream chunk), so that an error it throws on a body
 * of an unexpected shape is `PROVIDER_RESPONSE_INVALID`, not retried: `mapGeminiError` reads a `TypeError`
 * as a failure of the SDK's fetch (a connection failure, retried), and a `TypeError` from reading a body (a
 * member of another type) is not one.
 */
export function readGeminiResponse<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (ProviderError.isInstance(error)) throw error;
    const message = typeof (error as Error | undefined)?.message === 'string' ? (error as Error).message : String(error);
    throw new ProviderError('PROVIDER_RESPONSE_INVALID', `Gemini response could not be read: ${message}`, { provider: GEMINI_PROVIDER, cause: error });
  }
}
