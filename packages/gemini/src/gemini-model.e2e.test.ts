import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LlmRequest, ProviderError, RateLimitError } from '@toolsmith/core';
import { type RecordedRequest, type WireReply, type WireServer, collect, expectCancelsOnAbort, parseSseFixture, startWireServer } from '@toolsmith/core/testing';
import { GeminiModel, type GeminiModelOptions } from './gemini-model';
import { providerTool } from './provider-tool';

const fixture = (name: string) => parseSseFixture(readFileSync(join(__dirname, '__fixtures__', `${name}.chunks.txt`), 'utf8'));

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] }, days: { type: ['integer', 'null'] } },
    required: ['city'],
    additionalProperties: false,
  },
};
const timeTool = { name: 'get_time', description: 'Current time.', parameters: { type: 'object' } };
const ask = (text: string): LlmRequest => ({ contents: [{ role: 'user', parts: [{ text }] }], tools: [weatherTool, timeTool] });

const reply = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 5, totalTokenCount: 31, thoughtsTokenCount: 6 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'resp-1',
  ...extra,
});

const rpcError = (code: number, status: string, message: string, details: unknown[] = []): WireReply => ({
  status: code,
  headers: { 'content-type': 'application/json' },
  text: JSON.stringify({ error: { code, message, status, details } }),
});

describe('GeminiModel on the wire', () => {
  let server: WireServer | undefined;
  const start = async (handler: (request: RecordedRequest, index: number) => WireReply | Promise<WireReply>, options: Partial<GeminiModelOptions> = {}) => {
    server = await startWireServer(handler);
    // Under Node the SDK swaps in undici's global dispatcher (to lift fetch timeouts); jest's VM context
    // cannot see it, so the tests hand the SDK the global fetch, which it then uses as is.
    const httpOptions = { fetch: (input: string | URL | Request, init?: RequestInit) => fetch(input, init), ...options.httpOptions };
    return new GeminiModel({ model: 'gemini-2.5-flash', apiKey: 'test-key', baseUrl: server.url, retry: false, ...options, httpOptions });
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('sends parametersJsonSchema, systemInstruction and AUTO mode, and reads a text answer', async () => {
    const model = await start((request) => {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
      expect(request.headers['x-goog-api-key']).toBe('test-key');
      const { $schema: _dropped, ...weatherSchema } = weatherTool.parameters;
      expect(request.body).toEqual({
        contents: [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        tools: [
          {
            functionDeclarations: [
              { name: 'get_weather', description: 'Current weather for a city.', parametersJsonSchema: weatherSchema },
              { name: 'get_time', description: 'Current time.', parametersJsonSchema: { type: 'object', properties: {} } },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        generationConfig: { temperature: 0.2, maxOutputTokens: 100 },
      });
      return { json: reply([{ text: 'Sunny.' }]) };
    });
    const responses = await collect(model.generate({ ...ask('Weather in Paris?'), systemInstruction: 'Be brief.', config: { temperature: 0.2, maxOutputTokens: 100 } }));
    expect(server!.handlerErrors).toEqual([]);
    expect(responses).toEqual([
      {
        content: { role: 'model', parts: [{ text: 'Sunny.' }] },
        turnComplete: true,
        finishReason: { unified: 'stop', raw: 'STOP' },
        usage: { inputTokens: 20, outputTokens: 11, totalTokens: 31, reasoningTokens: 6 },
        responseId: 'resp-1',
        providerMetadata: { gemini: { responseId: 'resp-1', modelVersion: 'gemini-2.5-flash' } },
      },
    ]);
  });

  it('gives calls without ids stable generated ids and sends the history back as Gemini sent it', async () => {
    const call = { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnbmF0dXJl' };
    const model = await start((_request, index) => (index < 2 ? { json: reply([call]) } : { json: reply([{ text: 'Paris: 21°C.' }]) }));
    const [first] = await collect(model.generate(ask('Paris?')));
    const [again] = await collect(model.generate(ask('Paris?')));
    const part = first.content!.parts[0];
    expect(part).toEqual({ functionCall: { id: expect.stringMatching(/^toolsmith_gemini_[0-9a-f]{24}$/), name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnbmF0dXJl', thoughtSignatureProvider: 'gemini' });
    expect(again.content!.parts[0].functionCall!.id).toBe(part.functionCall!.id);
    expect(first.finishReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });

    await collect(
      model.generate({
        ...ask('Paris?'),
        contents: [
          { role: 'user', parts: [{ text: 'Paris?' }] },
          first.content!,
          { role: 'user', parts: [{ functionResponse: { id: part.functionCall!.id, name: 'get_weather', response: { tempC: 21 } } }] },
        ],
      }),
    );
    expect(server!.handlerErrors).toEqual([]);
    expect(server!.requests[2].body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Paris?' }] },
      { role: 'model', parts: [call] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { tempC: 21 } } }] },
    ]);
  });

  it('keeps ids Gemini sends, and sends failures as an object response', async () => {
    const model = await start(() => ({ json: reply([{ functionCall: { id: 'gem-call-7', name: 'get_time', args: {} } }]) }));
    const [response] = await collect(model.generate(ask('time?')));
    expect(response.content!.parts).toEqual([{ functionCall: { id: 'gem-call-7', name: 'get_time', args: {} } }]);
    await collect(
      model.generate({
        ...ask('time?'),
        contents: [
          response.content!,
          { role: 'user', parts: [{ functionResponse: { id: 'gem-call-7', name: 'get_time', response: { error: { code: 'TOOL_EXECUTION_FAILED', message: 'clock down' } }, isError: true } }] },
        ],
      }),
    );
    expect(server!.requests[1].body.contents[1]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: 'gem-call-7', name: 'get_time', response: { error: { code: 'TOOL_EXECUTION_FAILED', message: 'clock down' } } } }],
    });
  });

  it("sends OpenAPI-subset `parameters` with schemaDialect 'openapi'", async () => {
    const model = await start(() => ({ json: reply([{ text: 'ok' }]) }), { schemaDialect: 'openapi' });
    await collect(model.generate(ask('hi')));
    expect(server!.requests[0].body.tools[0].functionDeclarations).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather for a city.',
        parameters: {
          type: 'OBJECT',
          properties: {
            city: { type: 'STRING' },
            unit: { type: 'STRING', enum: ['celsius', 'fahrenheit'], format: 'enum' },
            days: { type: 'INTEGER', nullable: true },
          },
          required: ['city'],
          propertyOrdering: ['city', 'unit', 'days'],
        },
      },
      { name: 'get_time', description: 'Current time.' },
    ]);
  });

  it('refuses a schema the OpenAPI subset cannot express before sending anything', async () => {
    const model = await start(() => ({ json: reply([]) }), { schemaDialect: 'openapi' });
    const union = { name: 'lookup', description: 'Lookup.', parameters: { type: 'object', properties: { key: { type: ['string', 'integer'] } } } };
    await expect(collect(model.generate({ ...ask('hi'), tools: [union] }))).rejects.toMatchObject({
      code: 'GEMINI_SCHEMA_UNSUPPORTED',
      message: expect.stringContaining('Tool "lookup"'),
    });
    expect(server!.requests).toHaveLength(0);
  });

  it('maps tool choice to functionCallingConfig modes', async () => {
    const model = await start(() => ({ json: reply([{ text: 'ok' }]) }));
    for (const toolChoice of ['required', 'none', { type: 'tool', name: 'get_time' }] as const) {
      await collect(model.generate({ ...ask('hi'), toolChoice }));
    }
    expect(server!.requests.map((request) => request.body.toolConfig)).toEqual([
      { functionCallingConfig: { mode: 'ANY' } },
      { functionCallingConfig: { mode: 'NONE' } },
      { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_time'] } },
    ]);
  });

  it('passes built-in tools through untouched and refuses other providers’ tools', async () => {
    const model = await start(() => ({ json: reply([{ text: 'ok' }]) }));
    await collect(model.generate({ ...ask('news?'), tools: [], providerTools: [providerTool({ googleSearch: {} }), providerTool({ codeExecution: {} })] }));
    expect(server!.requests[0].body.tools).toEqual([{ googleSearch: {} }, { codeExecution: {} }]);
    expect(server!.requests[0].body.toolConfig).toBeUndefined();

    const foreign = { kind: 'provider-tool' as const, provider: 'anthropic', name: 'web_search', config: { type: 'web_search_20250305', name: 'web_search' } };
    await expect(collect(model.generate({ ...ask('news?'), providerTools: [foreign] }))).rejects.toMatchObject({ code: 'PROVIDER_TOOL_MISMATCH' });
    expect(server!.requests).toHaveLength(1);
  });

  it('streams text deltas over SSE, then one complete response keeping the signature part', async () => {
    const model = await start((request) => {
      expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
      return { sse: fixture('text') };
    });
    const responses = await collect(model.generate(ask('Weather?'), { stream: true }));
    expect(server!.handlerErrors).toEqual([]);
    expect(responses.filter((r) => r.partial).map((r) => r.content?.parts)).toEqual([[{ text: 'It is sunny' }], [{ text: ' in Paris.' }]]);
    expect(responses.filter((r) => r.turnComplete)).toEqual([
      {
        content: { role: 'model', parts: [{ text: 'It is sunny in Paris.' }, { text: '', thoughtSignature: 'CiwB0e2Kb2cGx8n1ypmU7Cd3Q0TPa0nrUfcLbRb0Kch9uWvY5mS0RpB1hQ==', thoughtSignatureProvider: 'gemini' }] },
        turnComplete: true,
        finishReason: { unified: 'stop', raw: 'STOP' },
        usage: { inputTokens: 9, outputTokens: 32, totalTokens: 41, reasoningTokens: 26 },
        responseId: 'Xr0gafOZK5iKkdUPq4qUsQ4',
        providerMetadata: { gemini: { responseId: 'Xr0gafOZK5iKkdUPq4qUsQ4', modelVersion: 'gemini-2.5-flash' } },
      },
    ]);
  });

  it('streams parallel calls: each gets its own id, the signature stays on the first', async () => {
    const model = await start(() => ({ sse: fixture('parallel-calls') }));
    const responses = await collect(model.generate(ask('Paris and Tokyo?'), { stream: true }));
    const final = responses[responses.length - 1];
    const parts = final.content!.parts;
    expect(parts.map((p) => p.functionCall?.args ?? p.text)).toEqual(['Checking both cities.', { city: 'Paris', unit: 'celsius' }, { city: 'Tokyo' }, {}]);
    expect(parts[1].thoughtSignature).toBe('CikB0e2Kb7Xy3dR9ZtQ1xk0v8n2HcLwW2a3bQm4j5Yk6Lp7Nq8Rs9Tg==');
    expect(new Set(parts.slice(1).map((p) => p.functionCall!.id)).size).toBe(3);
    expect(final.finishReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });
    expect(final.usage).toEqual({ inputTokens: 120, outputTokens: 78, totalTokens: 198, cachedInputTokens: 64, reasoningTokens: 38 });
  });

  it('streams each call (Gemini sends them whole) as one partialFunctionCall partial with all its arguments and the final id', async () => {
    const model = await start(() => ({ sse: fixture('parallel-calls') }));
    const responses = await collect(model.generate(ask('Paris and Tokyo?'), { stream: true }));
    const calls = responses.filter((r) => r.partial && r.content?.parts[0].partialFunctionCall).map((r) => r.content!.parts[0].partialFunctionCall!);
    const finals = responses[responses.length - 1].content!.parts.flatMap((p) => (p.functionCall ? [p.functionCall] : []));
    expect(calls).toEqual(finals.map((f) => ({ id: f.id, name: f.name, argsText: JSON.stringify(f.args), argsDelta: JSON.stringify(f.args) })));
    expect(calls.map((c) => c.argsText)).toEqual(['{"city":"Paris","unit":"celsius"}', '{"city":"Tokyo"}', '{}']);
  });

  it('reports a malformed function call as an error response, not a crash', async () => {
    const model = await start(() => ({
      json: {
        candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 'Malformed function call: get_weather(city=', index: 0 }],
        responseId: 'resp-bad',
      },
    }));
    const [response] = await collect(model.generate(ask('Paris?')));
    expect(response).toMatchObject({
      turnComplete: true,
      finishReason: { unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' },
      // The SDK does not pass the Gemini API's `finishMessage` on, so the message is Toolsmith's own.
      error: { code: 'MALFORMED_FUNCTION_CALL', message: 'Gemini stopped with MALFORMED_FUNCTION_CALL.' },
    });
  });

  it('maps 429 to RateLimitError with RetryInfo, and retries it under the retry policy', async () => {
    const rateLimited = rpcError(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota.', [
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '32s' },
    ]);
    let model = await start(() => rateLimited);
    const error = await collect(model.generate(ask('hi'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', statusCode: 429, retryAfterMs: 32000, provider: 'gemini', message: expect.stringContaining('exceeded your current quota') });
    await server!.close();

    // Retry-after (32 s here) is honoured up to maxDelayMs; 0 keeps the test from waiting.
    model = await start((_request, index) => (index === 0 ? rateLimited : { json: reply([{ text: 'ok' }]) }), { retry: { maxDelayMs: 0 } });
    const [response] = await collect(model.generate(ask('hi')));
    expect(response.content?.parts).toEqual([{ text: 'ok' }]);
    expect(server!.requests).toHaveLength(2);
  });

  it.each([
    [rpcError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }]), 'AUTHENTICATION_FAILED', 400, false],
    [rpcError(403, 'PERMISSION_DENIED', 'Permission denied.'), 'AUTHENTICATION_FAILED', 403, false],
    [rpcError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'), 'BAD_REQUEST', 400, false],
    [rpcError(500, 'INTERNAL', 'An internal error has occurred.'), 'SERVER_ERROR', 500, true],
    [rpcError(503, 'UNAVAILABLE', 'The model is overloaded.'), 'PROVIDER_OVERLOADED', 503, true],
  ])('maps an API error to %#: %s', async (wireReply, code, statusCode, isRetryable) => {
    const model = await start(() => wireReply);
    const error = await collect(model.generate(ask('hi'))).catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code, statusCode, isRetryable, provider: 'gemini' });
  });

  it('maps an error chunk mid-stream to a typed error', async () => {
    const model = await start(() => ({ sse: fixture('error-mid-stream') }));
    const error = await collect(model.generate(ask('hi'), { stream: true })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_OVERLOADED', statusCode: 503, message: expect.stringContaining('overloaded') });
  });

  it('reports a stream cut in the middle as PROVIDER_RESPONSE_INVALID', async () => {
    const model = await start(() => ({ sse: fixture('parallel-calls'), cutAfter: 1, delayMs: 5 }));
    const error = await collect(model.generate(ask('hi'), { stream: true })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', provider: 'gemini' });
  });

  it.each([
    [false, 'application/json', "Gemini's answer could not be read: its body is not JSON ("],
    [true, 'text/event-stream', "Gemini's answer could not be read: its stream ended with text that is not an event (a proxy's page"],
  ])('reports a 200 HTML page (a proxy) as PROVIDER_RESPONSE_INVALID, not retried, saying so (streaming: %s)', async (stream, contentType, says) => {
    const model = await start(() => ({ status: 200, headers: { 'content-type': contentType }, text: '<html>proxy login</html>' }), { retry: { initialDelayMs: 0 } });
    const error = await collect(model.generate(ask('hi'), { stream })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', provider: 'gemini', isRetryable: false, message: expect.stringContaining(says) });
    expect(server!.requests).toHaveLength(1);
  });

  it('reports an unreachable server as PROVIDER_CONNECTION_FAILED', async () => {
    const model = await start(() => ({ json: {} }));
    await server!.close();
    const error = await collect(model.generate(ask('hi'))).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_CONNECTION_FAILED', isRetryable: true });
  });

  it('refuses to start without an API key (instead of a metadata-server lookup at the first request)', () => {
    const saved = { GEMINI_API_KEY: process.env.GEMINI_API_KEY, GOOGLE_API_KEY: process.env.GOOGLE_API_KEY };
    delete process.env.GEMINI_API_KEY;
    delete process.env.GOOGLE_API_KEY;
    try {
      expect(() => new GeminiModel({ model: 'gemini-2.5-flash' })).toThrow(expect.objectContaining({ code: 'AUTHENTICATION_FAILED', message: expect.stringContaining('GEMINI_API_KEY') }));
      process.env.GEMINI_API_KEY = 'from-env';
      expect(new GeminiModel({ model: 'gemini-2.5-flash' }).modelName).toBe('gemini-2.5-flash');
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it('leaves no abort listener on a long-lived signal after each call', async () => {
    const model = await start(() => ({ json: reply([{ text: 'ok' }]) }));
    const run = new AbortController();
    for (let i = 0; i < 3; i++) await collect(model.generate(ask('hi'), { signal: run.signal }));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('cancels the HTTP request when the signal aborts (request and mid-stream)', () =>
    expectCancelsOnAbort({ start: (reply) => start(() => reply), server: () => server!, request: ask('hi'), stream: { sse: fixture('text'), delayMs: 20 } }));
});
