import { ApiError } from './google-genai';
import { ProviderError } from '@toolsmith/core';
import type { ProviderErrorCode } from '@toolsmith/core';
import { createProviderError, providerErrorCodeForStatus } from '@toolsmith/core/adapter-kit';
import { GEMINI_PROVIDER } from './provider-tool';

/** The `error` object of a Google API error body (`google.rpc.Status`). */
interface GoogleRpcError {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ '@type'?: string; retryDelay?: string; reason?: string }>;
}

/**
 * Maps an error thrown by `@google/genai` to a {@link ProviderError}. The SDK's `ApiError` carries the
 * HTTP status and the response body as its message; the body's `google.rpc` details give the retry
 * delay of a 429 (`RetryInfo.retryDelay`, e.g. `"32s"`) and tell an invalid API key (`API_KEY_INVALID`,
 * sent as a 400) from a bad request; a 400 whose input token count exceeds the maximum is
 * `CONTEXT_LENGTH_EXCEEDED`, a 503 (`UNAVAILABLE`, "The model is overloaded") `PROVIDER_OVERLOADED`. A
 * 429 stays a `RateLimitError`: Gemini sends the same `RESOURCE_EXHAUSTED` body for a per-minute limit and a
 * used-up quota. Network failures before any response are connection errors; anything else means the
 * response could not be read.
 */
export function mapGeminiError(error: unknown): unknown {
  if (ProviderError.isInstance(error)) return error;
  const options = { provider: GEMINI_PROVIDER, cause: error };
  if (error instanceof ApiError) {
    const status = error.status;
    const body = readRpcError(error.message);
    const detail = body?.message ?? error.message;
    const code = codeFromBody(body) ?? providerErrorCodeForStatus(status);
    const retryAfterMs = retryDelayMs(body);
    if (code === 'RATE_LIMITED') return createProviderError(code, `Gemini rate limit reached: ${detail}`, { ...options, statusCode: status, retryAfterMs });
    const message = `Gemini request failed (${status}${body?.status ? ` ${body.status}` : ''}): ${detail}`;
    return createProviderError(code, message, { ...options, statusCode: status, retryAfterMs });
  }
  if (isNetworkError(error)) {
    return new ProviderError('PROVIDER_CONNECTION_FAILED', `Could not reach Gemini: ${describe(error)}`, options);
  }
  const unreadable = unreadableBody(error);
  if (unreadable) return new ProviderError('PROVIDER_RESPONSE_INVALID', `Gemini's answer could not be read: ${unreadable} (a proxy's page, not Gemini's answer?).`, options);
  return new ProviderError('PROVIDER_RESPONSE_INVALID', `Gemini response could not be read: ${describe(error)}`, options);
}

/**
 * What a 2xx body the SDK could not parse was, from what the SDK threw (it reads the body itself and gives none
 * back, so no excerpt): a body that is not JSON (its parser's `SyntaxError`, read by name: it may come from
 * another realm) or a stream that ends with text that is no event.
 */
function unreadableBody(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { name, message } = error as Error;
  if (name === 'SyntaxError') return `its body is not JSON (${message})`;
  if (message === 'Incomplete JSON segment at the end') return 'its stream ended with text that is not an event';
  return undefined;
}

/** What the `google.rpc.Status` body says beyond its HTTP status. */
function codeFromBody(body: GoogleRpcError | undefined): ProviderErrorCode | undefined {
  if (body?.details?.some((entry) => entry.reason === 'API_KEY_INVALID')) return 'AUTHENTICATION_FAILED';
  if (/input token count.*exceeds the maximum/i.test(body?.message ?? '')) return 'CONTEXT_LENGTH_EXCEEDED';
  return undefined;
}

/** The SDK puts the JSON body in the message, after a prefix for errors that arrive inside a stream. */
function readRpcError(message: string): GoogleRpcError | undefined {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as { error?: GoogleRpcError };
    return typeof parsed.error === 'object' && parsed.error !== null ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

function retryDelayMs(body: GoogleRpcError | undefined): number | undefined {
  const delay = body?.details?.find((entry) => entry['@type']?.endsWith('google.rpc.RetryInfo'))?.retryDelay;
  const match = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay.trim()) : null;
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/**
 * What fetch implementations throw for a request that got no response: undici's `fetch failed` (its cause names
 * the socket error), and the browsers' words for the same.
 */
const FETCH_NETWORK_MESSAGES: ReadonlySet<string> = new Set([
  'fetch failed',
  'Failed to fetch',
  'NetworkError when attempting to fetch resource.',
  'Load failed',
  'network error',
]);

/**
 * A fetch network failure, thrown as it is or wrapped by the SDK (as its `cause`). Only fetch's own
 * `TypeError`s count: any other `TypeError` (one the SDK throws while reading a response it received,
 * which was billed) is not retried as a connection failure.
 */
function isNetworkError(error: unknown): boolean {
  return isFetchFailure(error) || isFetchFailure((error as { cause?: unknown } | undefined)?.cause);
}

function isFetchFailure(error: unknown): boolean {
  // Read by name, not instanceof: fetch's errors can come from another realm (a test runner's, a worker's).
  if (typeof error !== 'object' || error === null || (error as Error).name !== 'TypeError') return false;
  // undici's body cut mid-read: the response arrived (and was billed), so it is not tried again.
  if ((error as Error).message === 'terminated') return false;
  if (FETCH_NETWORK_MESSAGES.has((error as Error).message)) return true;
  // A fetch of another runtime may word it otherwise, but names the system error it failed on (`ECONNRESET`, `UND_ERR_SOCKET`).
  const cause = (error as { cause?: unknown }).cause;
  return typeof (cause as { code?: unknown } | undefined)?.code === 'string';
}

function describe(error: unknown): string {
  if (typeof (error as Error | undefined)?.message !== 'string') return String(error);
  const message = (error as Error).message;
  const cause = (error as Error & { cause?: { message?: unknown } }).cause;
  return typeof cause?.message === 'string' ? `${message} (${cause.message})` : message;
}
