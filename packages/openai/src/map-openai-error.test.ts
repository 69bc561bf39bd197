import {
  ContentFilterError,
  ContextLengthExceededError,
  ProviderError,
  ProviderOverloadedError,
  QuotaExceededError,
  RateLimitError,
  RunAbortedError,
  ToolsmithError,
} from '@toolsmith/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { mapOpenAIError, mapOpenAIErrorCode } from './map-openai-error';

/** Error bodies the real API sent (see __fixtures__/recorded/SOURCES.md). */
const recorded = JSON.parse(readFileSync(join(__dirname, '__fixtures__', 'recorded', 'errors.json'), 'utf8')) as Record<
  string,
  { status?: number; body?: unknown; event?: { code: string; message: string } }
>;
const recordedError = (key: string, headers: Record<string, string> = {}) =>
  APIError.generate(recorded[key]!.status, recorded[key]!.body as object, undefined, new Headers(headers));

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
    [503, 'PROVIDER_OVERLOADED', true],
    [409, 'PROVIDER_ERROR', true],
  ])('maps HTTP %i to %s', (status, code, retryable) => {
    const error = mapOpenAIError(apiError(status)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code, statusCode: status, isRetryable: retryable });
    expect((error.cause as APIError).status).toBe(status);
  });

  it.each([
    ['insufficient_quota', QuotaExceededError, 'QUOTA_EXCEEDED', 429, false],
    ['rate_limit_tpm', RateLimitError, 'RATE_LIMITED', 429, true],
    ['context_length_chat', ContextLengthExceededError, 'CONTEXT_LENGTH_EXCEEDED', 400, false],
    ['invalid_prompt_flagged', ContentFilterError, 'CONTENT_FILTERED', 400, false],
    ['overloaded_503', ProviderOverloadedError, 'PROVIDER_OVERLOADED', 503, true],
  ] as const)('maps the recorded %s body to %p (%s)', (key, type, code, statusCode, retryable) => {
    const error = mapOpenAIError(recordedError(key));
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ code, statusCode, isRetryable: retryable, provider: 'openai' });
    expect(error.message).toContain(((recorded[key]!.body as { error: { message: string } }).error.message).slice(0, 40));
  });

  it('keeps retry-after on an overloaded answer, and never retries a used-up quota even with one', () => {
    expect(mapOpenAIError(recordedError('overloaded_503', { 'retry-after': '2' }))).toMatchObject({ code: 'PROVIDER_OVERLOADED', retryAfterMs: 2000 });
    expect(mapOpenAIError(recordedError('insufficient_quota', { 'retry-after': '2' }))).toMatchObject({ code: 'QUOTA_EXCEEDED', isRetryable: false });
  });

  it('maps the recorded context-window error event of a Responses stream by its code', () => {
    const event = recorded['context_length_responses_stream']!.event!;
    expect(mapOpenAIErrorCode(event.code, event.message)).toBeInstanceOf(ContextLengthExceededError);
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
    expect(mapOpenAIErrorCode('server_error', 'That model is currently overloaded with other requests.')).toMatchObject({ code: 'PROVIDER_OVERLOADED', isRetryable: true });
    for (const code of ['content_filter', 'content_policy_violation', 'bio_policy', 'image_content_policy_violation']) {
      expect(mapOpenAIErrorCode(code, 'x')).toMatchObject({ code: 'CONTENT_FILTERED', isRetryable: false });
    }
    expect(mapOpenAIErrorCode('insufficient_quota', 'x')).toMatchObject({ code: 'QUOTA_EXCEEDED', isRetryable: false });
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
