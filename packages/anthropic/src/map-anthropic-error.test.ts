import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { type ProviderError, RateLimitError } from '@toolsmith/core';
import { mapAnthropicError } from './map-anthropic-error';

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
    [529, 'SERVER_ERROR'],
    [402, 'PROVIDER_ERROR'],
  ])('maps HTTP %i to %s and keeps the SDK error as cause', (status, code) => {
    const original = apiError(status, 'some_error');
    const error = mapAnthropicError(original) as ProviderError;
    expect(error).toMatchObject({ code, statusCode: status });
    expect(error.cause).toBe(original);
  });

  it('maps stream error events by their type', () => {
    expect(mapAnthropicError(new APIError(undefined, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, undefined, undefined))).toMatchObject({
      code: 'SERVER_ERROR',
      statusCode: 529,
      isRetryable: true,
    });
    expect(mapAnthropicError(new APIError(undefined, { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }, undefined, undefined))).toBeInstanceOf(
      RateLimitError,
    );
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
});
