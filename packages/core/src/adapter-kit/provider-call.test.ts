import { retryDelayMs, waitBeforeRetry } from './retry-policy';
import { getEventListeners } from 'node:events';
import { ProviderError, RateLimitError } from '../errors/provider-errors';
import type { ToolsmithError } from '../errors/toolsmith-error';
import type { LlmResponse } from '../model/llm-response';
import type { ProviderExchange } from '../model/provider-exchange';
import { collect } from '../testing/collect';
import { createProviderError } from './create-provider-error';
import { type ProviderCall, callProvider } from './provider-call';

const final: LlmResponse = { content: { role: 'model', parts: [{ text: 'hi' }] }, turnComplete: true };
const partial: LlmResponse = { content: { role: 'model', parts: [{ text: 'h' }] }, partial: true };

function mapError(error: unknown): unknown {
  return new ProviderError('PROVIDER_CONNECTION_FAILED', `Could not reach Acme: ${(error as Error).message}`, { provider: 'acme' });
}

function call(overrides: Partial<ProviderCall>): ProviderCall {
  return {
    provider: 'acme',
    providerName: 'Acme',
    stream: false,
    request: async () => final,
    openStream: async () => (async function* () {})(),
    mapError,
    body: () => ({ model: 'acme-1' }),
    retry: { maxRetries: 0, initialDelayMs: 0, maxDelayMs: 0 },
    ...overrides,
  };
}

describe('callProvider: retries', () => {
  const retry = { maxRetries: 2, initialDelayMs: 0, maxDelayMs: 0 };
  const failing = (errors: unknown[]) => {
    let attempts = 0;
    return {
      get attempts() {
        return attempts;
      },
      request: async () => {
        const error = errors[attempts++];
        if (error) throw error;
        return final;
      },
    };
  };

  it('retries a retryable failure (429, 5xx, connection) before any response, then answers', async () => {
    const flaky = failing([
      new RateLimitError('slow down', { provider: 'acme', statusCode: 429, retryAfterMs: 0 }),
      new ProviderError('SERVER_ERROR', 'overloaded', { provider: 'acme', statusCode: 503 }),
    ]);
    const responses: LlmResponse[] = [];
    for await (const response of callProvider(call({ request: flaky.request, mapError: (e) => e, retry }))) responses.push(response);
    expect(responses).toEqual([final]);
    expect(flaky.attempts).toBe(3);
  });

  it('gives up after maxRetries, and never retries what is not retryable', async () => {
    const down = failing(Array.from({ length: 5 }, () => new ProviderError('SERVER_ERROR', 'down', { provider: 'acme', statusCode: 500 })));
    await expect(failure(callProvider(call({ request: down.request, mapError: (e) => e, retry })))).resolves.toMatchObject({ code: 'SERVER_ERROR' });
    expect(down.attempts).toBe(3);
    const bad = failing([new ProviderError('BAD_REQUEST', 'no', { provider: 'acme', statusCode: 400 })]);
    await failure(callProvider(call({ request: bad.request, mapError: (e) => e, retry })));
    expect(bad.attempts).toBe(1);
  });

  it('retries an overloaded provider after its retry-after, never a used-up quota, an overlong context or a filtered request', async () => {
    const busy = failing([createProviderError('PROVIDER_OVERLOADED', 'Overloaded', { provider: 'acme', statusCode: 529, retryAfterMs: 0 })]);
    const responses = await collect(callProvider(call({ request: busy.request, mapError: (e) => e, retry })));
    expect(responses).toEqual([final]);
    expect(busy.attempts).toBe(2);
    for (const code of ['QUOTA_EXCEEDED', 'CONTEXT_LENGTH_EXCEEDED', 'CONTENT_FILTERED'] as const) {
      const final429 = failing([createProviderError(code, 'no', { provider: 'acme', statusCode: code === 'QUOTA_EXCEEDED' ? 429 : 400 })]);
      await expect(failure(callProvider(call({ request: final429.request, mapError: (e) => e, retry })))).resolves.toMatchObject({ code, isRetryable: false });
      expect(final429.attempts).toBe(1);
    }
  });

  it('re-sends a stream that failed before its first response (events without output yield none), reporting each attempt', async () => {
    let opened = 0;
    const exchanges: ProviderExchange[] = [];
    const overloaded = createProviderError('PROVIDER_OVERLOADED', 'Overloaded', { provider: 'acme', statusCode: 529 });
    const streamed = call({
      stream: true,
      retry,
      mapError: (e) => e,
      observe: (exchange) => exchanges.push(exchange),
      openStream: async () => {
        const attempt = ++opened;
        return (async function* () {
          if (attempt === 1) throw overloaded;
          yield partial;
          yield final;
        })();
      },
    });
    expect(await collect(callProvider(streamed))).toEqual([partial, final]);
    expect(opened).toBe(2);
    expect(exchanges.map((exchange) => exchange.error?.code)).toEqual(['PROVIDER_OVERLOADED', undefined]);
  });

  it('does not re-send a stream that broke after responses flowed', async () => {
    let opened = 0;
    const broken = call({
      stream: true,
      retry,
      openStream: async () => {
        opened++;
        return (async function* () {
          yield partial;
          throw new Error('cut');
        })();
      },
    });
    await failure(callProvider(broken));
    expect(opened).toBe(1);
  });

  it('honours retry-after (capped by maxDelayMs) and stops waiting when the signal aborts', () => {
    const policy = { maxRetries: 3, initialDelayMs: 100, maxDelayMs: 5_000 };
    const limited = new RateLimitError('wait', { provider: 'acme', statusCode: 429, retryAfterMs: 2_000 });
    expect(retryDelayMs(policy, 0, limited)).toBe(2_000);
    expect(retryDelayMs(policy, 0, new RateLimitError('wait', { provider: 'acme', statusCode: 429, retryAfterMs: 60_000 }))).toBe(5_000);
    const server = new ProviderError('SERVER_ERROR', 'x', { provider: 'acme', statusCode: 500 });
    expect(retryDelayMs(policy, 2, server, () => 1)).toBe(400); // 100 × 2², full jitter range top
    expect(retryDelayMs(policy, 3, server)).toBeUndefined();
    // A retryAfterMs that is NaN says nothing: the backoff, never a NaN delay.
    expect(retryDelayMs(policy, 2, new RateLimitError('wait', { provider: 'acme', statusCode: 429, retryAfterMs: Number.NaN }), () => 1)).toBe(400);
    const overloaded = createProviderError('PROVIDER_OVERLOADED', 'busy', { provider: 'acme', statusCode: 529, retryAfterMs: 1_500 });
    expect(retryDelayMs(policy, 0, overloaded)).toBe(1_500);
    // Any retryable status that says when (a 500, 502, 408 or 409 with retry-after) waits that long; an error that is not retried keeps none.
    for (const [code, statusCode] of [['SERVER_ERROR', 500], ['SERVER_ERROR', 502], ['PROVIDER_ERROR', 408], ['PROVIDER_ERROR', 409]] as const) {
      const asked = createProviderError(code, 'x', { provider: 'acme', statusCode, retryAfterMs: 2_000 });
      expect([statusCode, asked.retryAfterMs, retryDelayMs(policy, 0, asked, () => 0)]).toEqual([statusCode, 2_000, 2_000]);
    }
    expect(createProviderError('QUOTA_EXCEEDED', 'x', { provider: 'acme', statusCode: 429, retryAfterMs: 2_000 }).retryAfterMs).toBeUndefined();
    expect(createProviderError('BAD_REQUEST', 'x', { provider: 'acme', statusCode: 400, retryAfterMs: 2_000 }).toJSON()).not.toHaveProperty('retryAfterMs');
    const controller = new AbortController();
    const waiting = waitBeforeRetry(60_000, controller.signal);
    controller.abort('stop');
    return expect(waiting).rejects.toMatchObject({ code: 'RUN_ABORTED' });
  });
});

async function failure(responses: AsyncIterable<LlmResponse>): Promise<ToolsmithError> {
  try {
    await collect(responses);
  } catch (error) {
    return error as ToolsmithError;
  }
  throw new Error('expected the call to fail');
}

describe('callProvider', () => {
  it('yields the one response of a plain request, and every response of a stream', async () => {
    expect(await collect(callProvider(call({})))).toEqual([final]);
    const streamed = call({ stream: true, openStream: async () => (async function* () { yield partial; yield final; })() });
    expect(await collect(callProvider(streamed))).toEqual([partial, final]);
  });

  it('hands the SDK a per-call signal and leaves no listener on the caller signal', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    await collect(callProvider(call({ signal: controller.signal, request: async (signal) => ((seen = signal), final) })));
    expect(seen).toBeDefined();
    expect(seen).not.toBe(controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('maps a failure before the stream starts through mapError, as is', async () => {
    const error = await failure(callProvider(call({ stream: true, openStream: async () => { throw new Error('ECONNREFUSED'); } })));
    expect(error.code).toBe('PROVIDER_CONNECTION_FAILED');
    expect(error.message).toBe('Could not reach Acme: ECONNREFUSED');
  });

  it('reports a connection failure after the stream started as a truncated answer', async () => {
    const cut = new Error('socket hang up');
    const streamed = call({ stream: true, openStream: async () => (async function* () { yield partial; throw cut; })() });
    const error = await failure(callProvider(streamed));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error.code).toBe('PROVIDER_RESPONSE_INVALID');
    expect(error.message).toBe('Acme stream was cut off mid-way: Could not reach Acme: socket hang up');
    expect((error as ProviderError).provider).toBe('acme');
    expect(error.cause).toBe(cut);
  });

  it('passes other mid-stream failures through mapError unchanged', async () => {
    const badRequest = new ProviderError('BAD_REQUEST', 'no', { provider: 'acme' });
    const streamed = call({
      stream: true,
      openStream: async () => (async function* () { yield partial; throw new Error('x'); })(),
      mapError: () => badRequest,
    });
    expect(await failure(callProvider(streamed))).toBe(badRequest);
  });

  it("closes the SDK's stream when the caller stops reading it", async () => {
    let closed = false;
    const streamed = call({
      stream: true,
      openStream: async () =>
        (async function* () {
          try {
            yield partial;
            yield final;
          } finally {
            closed = true;
          }
        })(),
    });
    for await (const response of callProvider(streamed)) if (response.partial) break;
    expect(closed).toBe(true);
  });

  it('sends nothing when the caller already aborted', async () => {
    const controller = new AbortController();
    controller.abort('too late');
    let sent = false;
    const error = await failure(callProvider(call({ signal: controller.signal, request: async () => ((sent = true), final) })));
    expect(error.code).toBe('RUN_ABORTED');
    expect(sent).toBe(false);
  });

  it('tells mapError whether the stream had started', async () => {
    const seen: boolean[] = [];
    const record = (error: unknown, where: { streamStarted: boolean }) => (seen.push(where.streamStarted), mapError(error));
    await failure(callProvider(call({ stream: true, mapError: record, openStream: async () => { throw new Error('refused'); } })));
    await failure(callProvider(call({ stream: true, mapError: record, openStream: async () => (async function* () { throw new Error('cut'); })() })));
    expect(seen).toEqual([false, true]);
  });

  it('delivers no complete response after an abort, even when the SDK ends the stream quietly', async () => {
    const controller = new AbortController();
    const seen: LlmResponse[] = [];
    const streamed = call({
      signal: controller.signal,
      stream: true,
      openStream: async () =>
        (async function* () {
          yield partial;
          yield final;
        })(),
    });
    const error = await (async () => {
      for await (const response of callProvider(streamed)) {
        seen.push(response);
        controller.abort('stop');
      }
    })().catch((e: ToolsmithError) => e);
    expect(seen).toEqual([partial]);
    expect(error).toMatchObject({ code: 'RUN_ABORTED' });
  });

  it('reports any failure after the caller aborted as RUN_ABORTED, with the reason', async () => {
    const controller = new AbortController();
    const streamed = call({
      signal: controller.signal,
      stream: true,
      openStream: async (signal) =>
        (async function* () {
          yield partial;
          controller.abort('user left');
          expect(signal.aborted).toBe(true);
          throw new Error('terminated');
        })(),
    });
    const error = await failure(callProvider(streamed));
    expect(error.code).toBe('RUN_ABORTED');
    expect(error.cause).toBe('user left');
  });
});

describe('callProvider: observing each attempt', () => {
  const retry = { maxRetries: 2, initialDelayMs: 0, maxDelayMs: 0 };

  it('reports every attempt with the body, its number, latency and the mapped error', async () => {
    const exchanges: ProviderExchange[] = [];
    const body = { model: 'acme-1', messages: [{ role: 'user', content: 'hi' }] };
    let attempts = 0;
    const request = async () => {
      if (attempts++ === 0) throw new Error('429 slow down');
      return final;
    };
    const mapped = (error: unknown) => new RateLimitError((error as Error).message, { provider: 'acme', statusCode: 429, retryAfterMs: 0 });
    const responses = await collect(callProvider(call({ request, mapError: mapped, retry, body: () => body, observe: (exchange) => exchanges.push(exchange) })));
    expect(responses).toEqual([final]);
    expect(exchanges).toEqual([
      { provider: 'acme', attempt: 1, body, latencyMs: expect.any(Number), error: { code: 'RATE_LIMITED', message: '429 slow down' } },
      { provider: 'acme', attempt: 2, body, latencyMs: expect.any(Number) },
    ]);
  });

  it('reports a streaming attempt once its first response arrived, and builds no body without an observer', async () => {
    const exchanges: ProviderExchange[] = [];
    const streamed = call({ stream: true, openStream: async () => (async function* () { yield partial; yield final; })(), body: () => ({ stream: true }), observe: (exchange) => exchanges.push(exchange) });
    expect(await collect(callProvider(streamed))).toEqual([partial, final]);
    expect(exchanges).toEqual([{ provider: 'acme', attempt: 1, body: { stream: true }, latencyMs: expect.any(Number) }]);
    const body = jest.fn(() => ({}));
    expect(await collect(callProvider(call({ body })))).toEqual([final]);
    expect(body).not.toHaveBeenCalled();
  });

  it('never lets an observer that throws break the call: the retry still happens, one warning says why, later attempts are not reported', async () => {
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      let sent = 0;
      const request = async () => {
        if (sent++ === 0) throw new Error('429 slow down');
        return final;
      };
      const mapped = (error: unknown) => new RateLimitError((error as Error).message, { provider: 'acme', statusCode: 429, retryAfterMs: 0 });
      const observe = jest.fn(() => {
        throw new Error('observer broke');
      });
      expect(await collect(callProvider(call({ request, mapError: mapped, retry, observe })))).toEqual([final]);
      expect(sent).toBe(2);
      expect(observe).toHaveBeenCalledTimes(1);
      expect(emitWarning.mock.calls).toEqual([
        [
          'The onProviderExchange observer of a model call to Acme threw (Error: observer broke); the call went on without it (its retries included), and this call\'s later attempts are not reported to it.',
          { code: 'TOOLSMITH_PROVIDER_OBSERVER_FAILED' },
        ],
      ]);
    } finally {
      emitWarning.mockRestore();
    }
  });

  it('describes whatever an observer throws, a revoked Proxy included, and redacts secret-looking text', async () => {
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const revocable = Proxy.revocable({}, {});
      revocable.revoke();
      const unreadable = Object.create(Error.prototype, { message: { get: () => { throw new Error('getter'); } } }) as Error;
      const thrown: unknown[] = [revocable.proxy, unreadable, Symbol('s'), Object.create(null), new Error('saw key sk-proj-AbCdEfGhIjKl0123')];
      for (const value of thrown) {
        const observe = () => {
          throw value;
        };
        expect(await collect(callProvider(call({ observe })))).toEqual([final]);
      }
      expect(emitWarning.mock.calls.map(([message]) => String(message).replace(/^.*? threw \((.*)\); the call.*$/, '$1'))).toEqual([
        'a thrown object that cannot be converted to text',
        'Error: a thrown object that cannot be converted to text',
        'Symbol(s)',
        'a thrown object that cannot be converted to text',
        'Error: saw key [redacted]',
      ]);
    } finally {
      emitWarning.mockRestore();
    }
  });

  it('relays a stream whose observer threw when it opened, and releases its abort scope', async () => {
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const controller = new AbortController();
      const observe = () => {
        throw new Error('observer broke');
      };
      const streamed = call({ stream: true, signal: controller.signal, openStream: async () => (async function* () { yield partial; yield final; })(), observe });
      expect(await collect(callProvider(streamed))).toEqual([partial, final]);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      expect(emitWarning).toHaveBeenCalledTimes(1);
      expect(emitWarning.mock.calls[0]![1]).toEqual({ code: 'TOOLSMITH_PROVIDER_OBSERVER_FAILED' });
    } finally {
      emitWarning.mockRestore();
    }
  });

  it('does not report an attempt the caller aborted', async () => {
    const controller = new AbortController();
    const exchanges: ProviderExchange[] = [];
    const request = async () => {
      controller.abort();
      throw new Error('aborted');
    };
    await expect(collect(callProvider(call({ request, signal: controller.signal, observe: (exchange) => exchanges.push(exchange) })))).rejects.toMatchObject({ code: 'RUN_ABORTED' });
    expect(exchanges).toEqual([]);
  });
});
