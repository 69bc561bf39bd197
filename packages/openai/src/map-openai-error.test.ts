import { ProviderError, RateLimitError, RunAbortedError, ToolsmithError } from '@toolsmith/core';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { mapOpenAIError, mapOpenAIErrorCode } from './map-openai-error';

const apiError = (status: number, headers: Record<string, string> = {}) =>
  APIError.generate(status, { error: { message: `boom ${status}`, type: 'x' } }, undefined, new Headers(headers));

describe('mapOpenAIError', () => {
  it('maps 429 to RateLimitError with retry-after', () => {
    const error = mapOpenAIError(apiError(429, { 'retry-after': '3' }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', statusCode: 429, retryAfterMs: 3000, provider: 'openai', isRetryable: true });
    expect(error.message).toContain('boom 429');
  });

  it.each([
    [401, 'AUTHENTICATION_FAILED', false],
    [403, 'AUTHENTICATION_FAILED', false],
    [400, 'BAD_REQUEST', false],
    [404, 'BAD_REQUEST', false],
    [422, 'BAD_REQUEST', false],
    [500, 'SERVER_ERROR', true],
    [503, 'SERVER_ERROR', true],
    [409, 'PROVIDER_ERROR', true],
  ])('maps HTTP %i to %s', (status, code, retryable) => {
    const error = mapOpenAIError(apiError(status)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code, statusCode: status, isRetryable: retryable });
    expect((error.cause as APIError).status).toBe(status);
  });

  it('maps connection failures and timeouts', () => {
    expect(mapOpenAIError(new APIConnectionError({ cause: new Error('ECONNREFUSED') }))).toMatchObject({
      code: 'PROVIDER_CONNECTION_FAILED',
      message: expect.stringContaining('ECONNREFUSED'),
    });
    expect(mapOpenAIError(new APIConnectionTimeoutError())).toMatchObject({ code: 'PROVIDER_CONNECTION_FAILED' });
  });

  it('maps a transport failure after the stream started to PROVIDER_RESPONSE_INVALID', () => {
    expect(mapOpenAIError(new TypeError('terminated'), { streamStarted: true })).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID' });
    expect(mapOpenAIError(new TypeError('fetch failed'))).toMatchObject({ code: 'PROVIDER_CONNECTION_FAILED' });
  });

  it('maps an error event inside a stream by its code', () => {
    const inStream = new APIError(undefined, { message: 'slow down', code: 'rate_limit_exceeded' }, undefined, undefined);
    expect(mapOpenAIError(inStream)).toBeInstanceOf(RateLimitError);
    expect(mapOpenAIErrorCode('server_error', 'x')).toMatchObject({ code: 'SERVER_ERROR' });
    expect(mapOpenAIErrorCode('invalid_prompt', 'x')).toMatchObject({ code: 'BAD_REQUEST' });
    expect(mapOpenAIErrorCode(undefined, 'x')).toMatchObject({ code: 'PROVIDER_ERROR' });
  });

  it('reports any failure of an aborted call as RunAbortedError', () => {
    const controller = new AbortController();
    controller.abort();
    expect(mapOpenAIError(new TypeError('terminated'), { signal: controller.signal })).toBeInstanceOf(RunAbortedError);
    expect(mapOpenAIError(new APIUserAbortError())).toMatchObject({ code: 'RUN_ABORTED' });
  });

  it('passes Toolsmith errors through', () => {
    const own = new ToolsmithError('X', 'y');
    expect(mapOpenAIError(own)).toBe(own);
  });
});
