import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ContextLengthExceededError, type ProviderError, ProviderOverloadedError, QuotaExceededError, RateLimitError } from '@toolsmith/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mapAnthropicError } from './map-anthropic-error';

/** Error bodies the real API sent (see __fixtures__/recorded-errors/SOURCES.md). */
const recorded = JSON.parse(readFileSync(join(__dirname, '__fixtures__', 'recorded-errors', 'errors.json'), 'utf8')) as Record<string, { status: number; body: object }>;
const recordedError = (key: string, headers: Record<string, string> = {}) =>
  APIError.generate(recorded[key]!.status, recorded[key]!.body, undefined, new Headers(headers));

const apiError = (status: number | undefined, type: string, headers: Record<string, string> = {}) =>
  APIError.generate(status, { type: 'error', error: { type, message: `${type} message` } }, undefined, new Headers(headers));

describe('mapAnthropicError', () => {
  it('maps 429 to RateLimitError with retry-after in ms', () => {
    const error = mapAnthropicError(apiError(429, 'rate_limit_error', { 'retry-after': '3' }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 3000, statusCode: 429, provider: 'anthropic', message: expect.stringContaining('rate_limit_error message') });
  });

  it.each([
    [401, 'AUTHENTICATION_FAILED'],
    [403, 'AUTHENTICATION_FAILED'],
    [400, 'BAD_REQUEST'],
    [404, 'BAD_REQUEST'],
    [413, 'BAD_REQUEST'],
    [500, 'SERVER_ERROR'],
    [529, 'PROVIDER_OVERLOADED'],
    [402, 'PROVIDER_ERROR'],
  ])('maps HTTP %i to %s and keeps the SDK error as cause', (status, code) => {
    const original = apiError(status, 'some_error');
    const error = mapAnthropicError(original) as ProviderError;
    expect(error).toMatchObject({ code, statusCode: status });
    expect(error.cause).toBe(original);
  });

  it('maps an overloaded_error body to ProviderOverloadedError whatever its HTTP status', () => {
    const error = mapAnthropicError(apiError(500, 'overloaded_error'));
    expect(error).toBeInstanceOf(ProviderOverloadedError);
    expect(error).toMatchObject({ code: 'PROVIDER_OVERLOADED', statusCode: 500, isRetryable: true });
  });

  it('maps stream error events by their type', () => {
    expect(mapAnthropicError(new APIError(undefined, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, undefined, undefined))).toMatchObject({
      code: 'PROVIDER_OVERLOADED',
      statusCode: 529,
      isRetryable: true,
    });
    expect(mapAnthropicError(new APIError(undefined, { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }, undefined, undefined))).toBeInstanceOf(
      RateLimitError,
    );
  });

  it.each([
    ['overloaded_529', ProviderOverloadedError, 'PROVIDER_OVERLOADED', true],
    ['credit_balance_too_low', QuotaExceededError, 'QUOTA_EXCEEDED', false],
    ['prompt_too_long', ContextLengthExceededError, 'CONTEXT_LENGTH_EXCEEDED', false],
    ['context_limit_with_max_tokens', ContextLengthExceededError, 'CONTEXT_LENGTH_EXCEEDED', false],
  ] as const)('maps the recorded %s body to %p (%s)', (key, type, code, retryable) => {
    const error = mapAnthropicError(recordedError(key, { 'retry-after': '4' }));
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ code, statusCode: recorded[key]!.status, isRetryable: retryable, provider: 'anthropic' });
    if (type === ProviderOverloadedError) expect(error).toMatchObject({ retryAfterMs: 4000 });
  });

  it('maps a content-filtered request to ContentFilterError', () => {
    const body = { type: 'error', error: { type: 'invalid_request_error', message: 'Output blocked by content filtering policy' } };
    expect(mapAnthropicError(APIError.generate(400, body, undefined, new Headers()))).toMatchObject({ code: 'CONTENT_FILTERED', isRetryable: false });
  });

  it('maps connection failures, leaves aborts alone and treats anything else as an unreadable response', () => {
    expect(mapAnthropicError(new APIConnectionError({ message: 'ECONNREFUSED' }))).toMatchObject({ code: 'PROVIDER_CONNECTION_FAILED', isRetryable: true });
    const abort = new APIUserAbortError();
    expect(mapAnthropicError(abort)).toBe(abort);
    expect(mapAnthropicError(new SyntaxError('Unexpected token'))).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID' });
  });

  it('reports missing credentials (the SDK throws before sending) as AUTHENTICATION_FAILED with the fix', () => {
    const error = mapAnthropicError(new Error('Could not resolve authentication method. Expected one of apiKey, authToken, credentials, config, or profile to be set.'));
    expect(error).toMatchObject({ code: 'AUTHENTICATION_FAILED', message: expect.stringContaining('ANTHROPIC_API_KEY') });
  });

  it('treats a thrown value that cannot be turned into text as an unreadable response, never throwing', () => {
    expect(mapAnthropicError(Object.create(null))).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', message: expect.stringContaining('Anthropic response could not be read') });
  });
});
