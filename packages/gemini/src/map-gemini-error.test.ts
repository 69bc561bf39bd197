import { ContextLengthExceededError, type ProviderError, ProviderOverloadedError, RateLimitError } from '@toolsmith/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from './google-genai';
import { mapGeminiError } from './map-gemini-error';

/** Error bodies the real API sent (see __fixtures__/recorded-errors/SOURCES.md). */
const recorded = JSON.parse(readFileSync(join(__dirname, '__fixtures__', 'recorded-errors', 'errors.json'), 'utf8')) as Record<string, { status: number; body: object }>;

const apiError = (status: number, body: unknown, prefix = '') => new ApiError({ status, message: prefix + JSON.stringify(body) });

describe('mapGeminiError', () => {
  it('reads RetryInfo of a 429 into retryAfterMs', () => {
    const error = mapGeminiError(
      apiError(429, { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' }] } }),
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 1500, statusCode: 429, message: expect.stringContaining('Quota exceeded') });
    expect(mapGeminiError(apiError(429, { error: { code: 429, message: 'slow' } }))).toMatchObject({ retryAfterMs: undefined });
  });

  it.each([
    [400, [], 'BAD_REQUEST'],
    [400, [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }], 'AUTHENTICATION_FAILED'],
    [401, [], 'AUTHENTICATION_FAILED'],
    [403, [], 'AUTHENTICATION_FAILED'],
    [404, [], 'BAD_REQUEST'],
    [500, [], 'SERVER_ERROR'],
    [503, [], 'PROVIDER_OVERLOADED'],
    [409, [], 'PROVIDER_ERROR'],
  ])('maps HTTP %i (details %j) to %s', (status, details, code) => {
    const original = apiError(status, { error: { code: status, message: 'm', status: 'S', details } });
    const error = mapGeminiError(original) as ProviderError;
    expect(error).toMatchObject({ code, statusCode: status, provider: 'gemini' });
    expect(error.cause).toBe(original);
  });

  it('reads the body of errors that arrive inside a stream (prefixed message)', () => {
    const error = mapGeminiError(apiError(503, { error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } }, 'got status: UNAVAILABLE. '));
    expect(error).toMatchObject({ code: 'PROVIDER_OVERLOADED', message: 'Gemini request failed (503 UNAVAILABLE): overloaded' });
  });

  it.each([
    ['overloaded_503', ProviderOverloadedError, 'PROVIDER_OVERLOADED', true],
    ['input_token_count_exceeded', ContextLengthExceededError, 'CONTEXT_LENGTH_EXCEEDED', false],
    ['resource_exhausted_free_tier', RateLimitError, 'RATE_LIMITED', true],
  ] as const)('maps the recorded %s body to %p (%s)', (key, type, code, retryable) => {
    const { status, body } = recorded[key]!;
    const error = mapGeminiError(apiError(status, body));
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ code, statusCode: status, isRetryable: retryable, provider: 'gemini' });
  });

  it('keeps a per-minute RESOURCE_EXHAUSTED a rate limit with its RetryInfo delay (Gemini words it as a quota)', () => {
    const { status, body } = recorded['resource_exhausted_free_tier']!;
    expect(mapGeminiError(apiError(status, body))).toMatchObject({ retryAfterMs: 58_000 });
  });

  it('maps network failures (also wrapped by the SDK) to PROVIDER_CONNECTION_FAILED and the rest to PROVIDER_RESPONSE_INVALID', () => {
    expect(mapGeminiError(new TypeError('fetch failed'))).toMatchObject({ code: 'PROVIDER_CONNECTION_FAILED' });
    expect(mapGeminiError(new Error('exception TypeError: fetch failed sending request', { cause: new TypeError('fetch failed') }))).toMatchObject({
      code: 'PROVIDER_CONNECTION_FAILED',
    });
    expect(mapGeminiError(new Error('Incomplete JSON segment at the end'))).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID' });
  });

  it('retries only fetch\'s own network TypeErrors: one the SDK throws reading a received (billed) response is not a connection failure', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(mapGeminiError(new TypeError('fetch failed', { cause: reset }))).toMatchObject({ code: 'PROVIDER_CONNECTION_FAILED', isRetryable: true });
    // A body cut mid-read: the response arrived (billed), so it is not tried again.
    expect(mapGeminiError(new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }))).toMatchObject({
      code: 'PROVIDER_RESPONSE_INVALID',
      isRetryable: false,
    });
    expect(mapGeminiError(new TypeError('Failed to fetch'))).toMatchObject({ code: 'PROVIDER_CONNECTION_FAILED' });
    expect(mapGeminiError(new TypeError('socket hang up', { cause: reset }))).toMatchObject({ code: 'PROVIDER_CONNECTION_FAILED' });
    // What a bug in reading a response throws: not retried (the response was received and billed).
    const misread = mapGeminiError(new TypeError("Cannot read properties of undefined (reading 'parts')")) as ProviderError;
    expect(misread).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', isRetryable: false });
    expect(mapGeminiError(new Error('wrapped', { cause: new TypeError('x.map is not a function') }))).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID' });
  });
});
