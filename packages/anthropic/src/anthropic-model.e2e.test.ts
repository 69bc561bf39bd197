import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LlmRequest, ProviderError, RateLimitError } from '@toolsmith/core';
import { type RecordedRequest, type WireReply, type WireServer, collect, expectCancelsOnAbort, parseSseFixture, startWireServer } from '@toolsmith/core/testing';
import { AnthropicModel } from './anthropic-model';
import { providerTool } from './provider-tool';
import { anthropicMessage } from './__fixtures__/anthropic-message';

const fixture = (name: string) => parseSseFixture(readFileSync(join(__dirname, '__fixtures__', `${name}.chunks.txt`), 'utf8'));

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] } },
    required: ['city'],
    additionalProperties: false,
  },
};
const timeTool = { name: 'get_time', description: 'Current time.', parameters: { type: 'object' } };

const ask = (text: string): LlmRequest => ({ contents: [{ role: 'user', parts: [{ text }] }], tools: [weatherTool, timeTool] });

const message = (content: unknown[], stopReason = 'end_turn') =>
  anthropicMessage(content, { id: 'msg_01', stopReason, usage: { input_tokens: 30, output_tokens: 10, cache_read_input_tokens: 5, cache_creation_input_tokens: 0 } });

describe('AnthropicModel on the wire', () => {
  let server: WireServer | undefined;
  const start = async (handler: (request: RecordedRequest, index: number) => WireReply | Promise<WireReply>, maxRetries = 0) => {
    server = await startWireServer(handler);
    return new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 512, apiKey: 'test-key', baseURL: server.url, maxRetries });
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('sends tools as input_schema, the system instruction as `system`, and reads a text answer', async () => {
    const model = await start((request) => {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/v1/messages');
      // SDK 1.x sends the key as a bearer token; older ones used x-api-key.
      expect(request.headers['x-api-key'] ?? request.headers.authorization).toMatch(/test-key$/);
      expect(request.headers['anthropic-version']).toBeDefined();
      expect(request.body).toEqual({
        model: 'claude-sonnet-5-5',
        max_tokens: 512,
        system: 'Be brief.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }],
        tools: [
          { name: 'get_weather', description: 'Current weather for a city.', input_schema: weatherTool.parameters },
          { name: 'get_time', description: 'Current time.', input_schema: { type: 'object', properties: {} } },
        ],
      });
      return { json: message([{ type: 'text', text: 'Sunny.' }]) };
    });
    const responses = await collect(model.generate({ ...ask('Weather in Paris?'), systemInstruction: 'Be brief.' }));
    expect(server!.handlerErrors).toEqual([]);
    expect(responses).toEqual([
      {
        content: { role: 'model', parts: [{ text: 'Sunny.' }] },
        turnComplete: true,
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage: { inputTokens: 35, outputTokens: 10, totalTokens: 45, cachedInputTokens: 5 },
        responseId: 'msg_01',
        providerMetadata: { anthropic: { messageId: 'msg_01', model: 'claude-sonnet-5-5' } },
      },
    ]);
  });

  it('moves a top-level anyOf/oneOf/allOf out of input_schema (Anthropic rejects it) into the description', async () => {
    const contact = {
      name: 'contact',
      description: 'Contacts a customer.',
      parameters: {
        type: 'object',
        properties: { email: { type: 'string' }, phone: { type: 'string' } },
        anyOf: [{ required: ['email'] }, { required: ['phone'] }],
        additionalProperties: false,
      },
    };
    const model = await start((request) => {
      const [tool] = request.body.tools as Array<{ description: string; input_schema: Record<string, unknown> }>;
      for (const keyword of ['anyOf', 'oneOf', 'allOf']) expect(tool.input_schema).not.toHaveProperty(keyword);
      expect(tool.input_schema).toEqual({ type: 'object', properties: { email: { type: 'string' }, phone: { type: 'string' } }, additionalProperties: false });
      expect(tool.description).toBe('Contacts a customer.\n\nMust also satisfy (JSON Schema): {"anyOf":[{"required":["email"]},{"required":["phone"]}]}.');
      return { json: message([{ type: 'text', text: 'ok' }]) };
    });
    await collect(model.generate({ ...ask('reach Ann'), tools: [contact] }));
    expect(server!.handlerErrors).toEqual([]);
    expect(server!.requests).toHaveLength(1);
  });

  it('reads one tool_use block as a function call with the block id', async () => {
    const model = await start(() => ({
      json: message(
        [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris' }, caller: { type: 'direct' } },
        ],
        'tool_use',
      ),
    }));
    const [response] = await collect(model.generate(ask('Weather in Paris?')));
    expect(response.content?.parts).toEqual([
      { text: 'Checking.' },
      { functionCall: { id: 'toolu_01A', name: 'get_weather', args: { city: 'Paris' } } },
    ]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
  });

  it('sends history as tool_use / tool_result blocks: results first, is_error on failures, same roles merged', async () => {
    const model = await start(() => ({ json: message([{ type: 'text', text: 'Paris 21°C; Tokyo unavailable.' }]) }));
    await collect(
      model.generate({
        tools: [weatherTool],
        contents: [
          { role: 'user', parts: [{ text: 'Weather in Paris' }] },
          { role: 'user', parts: [{ text: 'and Tokyo?' }] },
          {
            role: 'model',
            parts: [
              { text: 'Checking both.' },
              { functionCall: { id: 'toolu_1', name: 'get_weather', args: { city: 'Paris' } } },
              { functionCall: { id: 'toolu_2', name: 'get_weather', args: { city: 'Tokyo' } } },
            ],
          },
          { role: 'user', parts: [{ text: 'Hurry please.' }] },
          {
            role: 'user',
            parts: [
              { functionResponse: { id: 'toolu_2', name: 'get_weather', response: { error: { code: 'TOOL_EXECUTION_FAILED', message: 'down' } }, isError: true } },
              { functionResponse: { id: 'toolu_1', name: 'get_weather', response: { tempC: 21 } } },
            ],
          },
        ],
      }),
    );
    expect(server!.handlerErrors).toEqual([]);
    expect(server!.requests[0].body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris' }, { type: 'text', text: 'and Tokyo?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Tokyo' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"tempC":21}' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: '{"error":{"code":"TOOL_EXECUTION_FAILED","message":"down"}}', is_error: true },
          { type: 'text', text: 'Hurry please.' },
        ],
      },
    ]);
  });

  it('maps tool choice and turns parallel calls off with disable_parallel_tool_use', async () => {
    const model = await start(() => ({ json: message([{ type: 'text', text: 'ok' }]) }));
    const choices: Array<[LlmRequest['toolChoice'], unknown]> = [
      ['required', { type: 'any', disable_parallel_tool_use: true }],
      ['none', { type: 'none' }],
      [{ type: 'tool', name: 'get_time' }, { type: 'tool', name: 'get_time', disable_parallel_tool_use: true }],
      ['auto', { type: 'auto', disable_parallel_tool_use: true }],
    ];
    for (const [toolChoice] of choices) {
      await collect(model.generate({ ...ask('hi'), toolChoice, config: { parallelToolCalls: false, maxOutputTokens: 64, stopSequences: ['END'] } }));
    }
    expect(server!.requests.map((request) => request.body.tool_choice)).toEqual(choices.map(([, expected]) => expected));
    expect(server!.requests[0].body.max_tokens).toBe(64);
    expect(server!.requests[0].body.stop_sequences).toEqual(['END']);
  });

  it('passes Anthropic server tools through untouched after the function tools', async () => {
    const model = await start(() => ({ json: message([{ type: 'text', text: 'ok' }]) }));
    const webSearch = providerTool({ type: 'web_search_20250305', name: 'web_search', max_uses: 2 });
    await collect(model.generate({ ...ask('news?'), tools: [], providerTools: [webSearch] }));
    expect(server!.requests[0].body.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }]);
  });

  it('refuses a provider tool of another provider before sending anything', async () => {
    const model = await start(() => ({ json: message([]) }));
    const foreign = { kind: 'provider-tool' as const, provider: 'gemini', name: 'google_search', config: { googleSearch: {} } };
    await expect(collect(model.generate({ ...ask('news?'), providerTools: [foreign] }))).rejects.toMatchObject({
      code: 'PROVIDER_TOOL_MISMATCH',
      message: expect.stringContaining('"google_search" belongs to provider "gemini"'),
    });
    expect(server!.requests).toHaveLength(0);
  });

  it('streams text deltas as partial responses, then one complete response', async () => {
    const model = await start((request) => {
      expect(request.body.stream).toBe(true);
      return { sse: fixture('text') };
    });
    const responses = await collect(model.generate(ask('Weather?'), { stream: true }));
    expect(server!.handlerErrors).toEqual([]);
    expect(responses.filter((r) => r.partial).map((r) => r.content?.parts)).toEqual([[{ text: 'It is sunny' }], [{ text: ' in Paris.' }]]);
    const final = responses[responses.length - 1];
    expect(final).toMatchObject({
      turnComplete: true,
      content: { role: 'model', parts: [{ text: 'It is sunny in Paris.' }] },
      finishReason: { unified: 'stop', raw: 'end_turn' },
      usage: { inputTokens: 25, outputTokens: 12, totalTokens: 37 },
    });
    expect(responses.filter((r) => r.turnComplete)).toHaveLength(1);
  });

  it('assembles parallel tool inputs from input_json_delta fragments; an empty input is {}', async () => {
    const model = await start(() => ({ sse: fixture('parallel-tool-use') }));
    const responses = await collect(model.generate(ask('Paris and Tokyo?'), { stream: true }));
    const final = responses[responses.length - 1];
    expect(final.content?.parts).toEqual([
      { text: 'Let me check both cities.' },
      { functionCall: { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } } },
      { functionCall: { id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', args: { city: 'Tokyo' } } },
      { functionCall: { id: 'toolu_01Ab8uRqfFzQ6tEzV7hKs1Xw', name: 'get_time', args: {} } },
    ]);
    expect(final.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
    expect(final.usage).toEqual({ inputTokens: 572, outputTokens: 89, totalTokens: 661, cachedInputTokens: 100 });
    expect(responses.some((r) => r.partial && r.content?.parts.some((p) => p.functionCall))).toBe(false);
  });

  it("streams each tool_use input as partialFunctionCall partials with the growing text, the final calls unchanged", async () => {
    const model = await start(() => ({ sse: fixture('parallel-tool-use') }));
    const responses = await collect(model.generate(ask('Paris and Tokyo?'), { stream: true }));
    const calls = responses.filter((r) => r.partial && r.content?.parts[0].partialFunctionCall).map((r) => r.content!.parts[0].partialFunctionCall);
    expect(calls).toEqual([
      { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', argsText: '{"city": "Pa', argsDelta: '{"city": "Pa' },
      { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', argsText: '{"city": "Paris", "unit": "cel', argsDelta: 'ris", "unit": "cel' },
      { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', argsText: '{"city": "Paris", "unit": "celsius"}', argsDelta: 'sius"}' },
      { id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', argsText: '{"city"', argsDelta: '{"city"' },
      { id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', argsText: '{"city": "Tokyo"}', argsDelta: ': "Tokyo"}' },
    ]);
    expect(responses[responses.length - 1].content?.parts.filter((p) => p.functionCall)).toHaveLength(3);
  });

  it('passes unparseable streamed input on as raw text (the executor answers the model, no crash)', async () => {
    const model = await start(() => ({ sse: fixture('malformed-tool-input') }));
    const responses = await collect(model.generate(ask('Paris?'), { stream: true }));
    expect(responses[responses.length - 1].content?.parts).toEqual([
      { functionCall: { id: 'toolu_01Malformed', name: 'get_weather', args: '{"city": "Par' } },
    ]);
    expect(responses[responses.length - 1].finishReason).toEqual({ unified: 'max-tokens', raw: 'max_tokens' });
  });

  it('retries 529 (overloaded) with backoff under the default policy (the SDK itself does not retry)', async () => {
    server = await startWireServer((_request, index) =>
      index === 0
        ? { status: 529, headers: { 'content-type': 'application/json' }, text: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) }
        : { json: message([{ type: 'text', text: 'ok' }]) },
    );
    const model = new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 512, apiKey: 'test-key', baseURL: server.url, retry: { initialDelayMs: 0 } });
    const [response] = await collect(model.generate(ask('hi')));
    expect(response.content?.parts).toEqual([{ text: 'ok' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('maps 429 to RateLimitError with retry-after, and retries it under the retry policy when asked', async () => {
    const rateLimited: WireReply = {
      status: 429,
      headers: { 'retry-after': '7', 'content-type': 'application/json' },
      text: JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' } }),
    };
    let model = await start(() => rateLimited);
    const error = await collect(model.generate(ask('hi'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', statusCode: 429, retryAfterMs: 7000, provider: 'anthropic', isRetryable: true });
    expect((error as Error).message).toContain('Number of requests has exceeded your rate limit');
    await server!.close();

    model = await start(
      (_request, index) =>
        index === 0 ? { ...rateLimited, headers: { ...rateLimited.headers, 'retry-after-ms': '5' } } : { json: message([{ type: 'text', text: 'ok' }]) },
      1,
    );
    const [response] = await collect(model.generate(ask('hi')));
    expect(response.content?.parts).toEqual([{ text: 'ok' }]);
    expect(server!.requests).toHaveLength(2);
  });

  it.each([
    [401, 'authentication_error', 'AUTHENTICATION_FAILED', false],
    [400, 'invalid_request_error', 'BAD_REQUEST', false],
    [500, 'api_error', 'SERVER_ERROR', true],
    [529, 'overloaded_error', 'PROVIDER_OVERLOADED', true],
  ])('maps HTTP %i (%s) to %s', async (status, type, code, isRetryable) => {
    const model = await start(() => ({
      status,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify({ type: 'error', error: { type, message: `${type} happened` } }),
    }));
    const error = await collect(model.generate(ask('hi'))).catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code, statusCode: status, isRetryable, provider: 'anthropic' });
    expect((error as Error).message).toContain(`${type} happened`);
  });

  it('maps an SSE error event mid-stream to a typed error', async () => {
    const model = await start(() => ({ sse: fixture('overloaded-mid-stream') }));
    const error = await collect(model.generate(ask('hi'), { stream: true })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_OVERLOADED', statusCode: 529, isRetryable: true, message: expect.stringContaining('Overloaded') });
  });

  // Anthropic's docs (streaming, "Error events"; api/errors): a stream may carry an error after the 200, e.g.
  // `overloaded_error`, "which would normally correspond to an HTTP 529 in a non-streaming context".
  it('retries a stream whose error event comes before any output (message_start and ping carry none), never one after a partial', async () => {
    const events = fixture('overloaded-mid-stream');
    const early = [events[0]!, { event: 'ping', data: { type: 'ping' } }, events[events.length - 1]!];
    server = await startWireServer((_request, index) => (index === 0 ? { sse: early } : { sse: fixture('text') }));
    const retry = { maxRetries: 2, initialDelayMs: 0, maxDelayMs: 0 };
    let model = new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 512, apiKey: 'test-key', baseURL: server.url, retry });
    const responses = await collect(model.generate(ask('hi'), { stream: true }));
    expect(responses.at(-1)).toMatchObject({ turnComplete: true, content: { parts: [{ text: 'It is sunny in Paris.' }] } });
    expect(server.requests).toHaveLength(2);
    await server.close();

    // After the text delta "Partial" the caller has seen output: the request is not sent again.
    server = await startWireServer(() => ({ sse: events }));
    model = new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 512, apiKey: 'test-key', baseURL: server.url, retry });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const response of model.generate(ask('hi'), { stream: true })) seen.push(response.content?.parts);
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_OVERLOADED' });
    expect(seen).toEqual([[{ text: 'Partial' }]]);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a stream cut in the middle as PROVIDER_RESPONSE_INVALID', async () => {
    const model = await start(() => ({ sse: fixture('parallel-tool-use'), cutAfter: 9, delayMs: 5 }));
    const error = await collect(model.generate(ask('hi'), { stream: true })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', provider: 'anthropic' });
  });

  describe('a 2xx answer that is not a message (a proxy, a login wall): PROVIDER_RESPONSE_INVALID, not retried, saying what came', () => {
    const answering = async (reply: WireReply) => {
      server = await startWireServer(() => reply);
      return new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 512, apiKey: 'test-key', baseURL: server.url, retry: { initialDelayMs: 0 } });
    };
    const html = (contentType: string, text: string): WireReply => ({ status: 200, headers: { 'content-type': contentType }, text });

    it.each([
      ['an HTML page', html('text/html', '<html>proxy login</html>'), '(200, text/html) is text, not JSON (it starts "<html>proxy login</html>"'],
      ['a proxy page sent as application/json, its key redacted', html('application/json', '<html>Bad gateway for sk-ant-api03-abcdefghijklmnop</html>'), '(200, application/json) is text, not JSON (it starts "<html>Bad gateway for [redacted]</html>"'],
      ['an empty body', html('application/json', ''), '(200, application/json) is empty'],
      ['a page echoing the key it sent, which looks like no known secret', html('text/html', '<pre>x-api-key: test-key</pre>'), '(it starts "<pre>x-api-key: [redacted]</pre>"'],
      ['JSON cut short', html('application/json', '{"id":"msg_01","con'), 'is JSON cut short or malformed (it starts "{"id":"msg_01","con"'],
      ['{}', { json: {} }, 'it is not a message: it has no content array (status 200)'],
      ['content [null]', { json: { id: 'msg_01', type: 'message', role: 'assistant', content: [null], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } } }, 'it is not a message (status 200): '],
    ])('non-streamed: %s', async (_name, reply, says) => {
      const model = await answering(reply);
      const error = await collect(model.generate(ask('hi'))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', provider: 'anthropic', statusCode: 200, isRetryable: false, message: expect.stringContaining(says) });
      expect((error as Error).message).toContain("Anthropic's answer could not be read: it is not a message");
      expect(server!.requests).toHaveLength(1);
    });

    it.each([
      ['an HTML page with 200', html('text/html', '<html><h1>Upstream error</h1></html>'), '(200, text/html) is not an event stream (it starts "<html><h1>Upstream error</h1></html>"'],
      ['HTML sent as text/event-stream', html('text/event-stream', '<html>proxy error</html>'), '(200, text/event-stream) is not an event stream (it starts "<html>proxy error</html>"'],
      ['an empty event stream', html('text/event-stream', ''), '(200, text/event-stream) is empty'],
    ])('streamed: %s', async (_name, reply, says) => {
      const model = await answering(reply);
      const error = await collect(model.generate(ask('hi'), { stream: true })).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', provider: 'anthropic', isRetryable: false, message: expect.stringContaining(says) });
      expect((error as Error).message).toContain("Anthropic's answer could not be read: it is not a message stream");
      expect(server!.requests).toHaveLength(1);
    });
  });

  it('reports an unreachable server as PROVIDER_CONNECTION_FAILED', async () => {
    const model = await start(() => ({ json: {} }));
    await server!.close();
    const error = await collect(model.generate(ask('hi'))).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_CONNECTION_FAILED', isRetryable: true });
  });

  it('leaves no abort listener on a long-lived signal after each call', async () => {
    const model = await start(() => ({ json: message([{ type: 'text', text: 'ok' }]) }));
    const run = new AbortController();
    for (let i = 0; i < 3; i++) await collect(model.generate(ask('hi'), { signal: run.signal }));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('cancels the HTTP request when the signal aborts (request and mid-stream)', () =>
    expectCancelsOnAbort({ start: (reply) => start(() => reply), server: () => server!, request: ask('hi'), stream: { sse: fixture('parallel-tool-use'), delayMs: 20 } }));
});
