import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Content, type LlmResponse, ProviderError, QuotaExceededError, RateLimitError, RunAbortedError } from '@toolsmith/core';
import { type WireReply, collect, parseSseFixture, startWireServer, waitFor } from '@toolsmith/core/testing';
import OpenAI from 'openai';
import { OpenAIModel } from './openai-model';
import { chatThoughtSignatureProblems } from './__fixtures__/openai-chat-rules';
import { useOpenAIWire } from './__fixtures__/openai-wire';
import { ask, strictWeatherParameters } from './__fixtures__/weather-request';
import { StrictSchemaError } from './strict-schema-error';

const fixture = (name: string) => parseSseFixture(readFileSync(join(__dirname, '__fixtures__', name), 'utf8'));


function completion(message: Record<string, unknown>, finishReason: string) {
  return {
    id: 'chatcmpl-BxK2hTq9v3Fj7',
    object: 'chat.completion',
    created: 1763800000,
    model: 'gpt-4.1-mini-2025-04-14',
    choices: [{ index: 0, message: { role: 'assistant', refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: finishReason }],
    usage: {
      prompt_tokens: 50,
      completion_tokens: 10,
      total_tokens: 60,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_6f2eabb9a5',
  };
}
const toolCall = (id: string, args: string, name = 'get_weather') => ({ id, type: 'function', function: { name, arguments: args } });
const openAIError = (status: number, message: string, type: string, code: string | null = null) => ({
  status,
  json: { error: { message, type, param: null, code } },
});

describe('OpenAIModel on the Chat Completions wire', () => {
  const { serve, model, server } = useOpenAIWire('chat');

  it('sends system, messages and strict tools, and maps a text answer with usage and finish reason', async () => {
    await serve((body) => {
      expect(body).toEqual({
        model: 'gpt-4.1-mini',
        messages: [
          { role: 'system', content: 'Answer briefly.' },
          { role: 'user', content: 'Hi' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Current weather for a city.',
              parameters: strictWeatherParameters,
              strict: true,
            },
          },
        ],
        temperature: 0.2,
        max_completion_tokens: 100,
        stop: ['END'],
      });
      return { json: completion({ content: 'Hello!' }, 'stop') };
    });
    const responses = await collect(model().generate(ask('Hi', { config: { temperature: 0.2, maxOutputTokens: 100, stopSequences: ['END'] } })));
    expect(responses).toEqual([
      {
        content: { role: 'model', parts: [{ text: 'Hello!' }] },
        turnComplete: true,
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: 50, outputTokens: 10, totalTokens: 60, cachedInputTokens: 0, reasoningTokens: 0 },
        responseId: 'chatcmpl-BxK2hTq9v3Fj7',
      },
    ]);
  });

  it('maps one call, turning strict-mode nulls back into absent optionals', async () => {
    await serve(() => ({ json: completion({ content: null, tool_calls: [toolCall('call_1', '{"city":"Paris","unit":null}')] }, 'tool_calls') }));
    const [response] = await collect(model().generate(ask('Weather in Paris?')));
    expect(response.content?.parts).toEqual([{ functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } } }]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_calls' });
  });

  it('maps parallel calls and sends tool choice and parallel_tool_calls', async () => {
    await serve((body) => {
      expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
      expect(body.parallel_tool_calls).toBe(true);
      return {
        json: completion(
          { content: null, tool_calls: [toolCall('call_1', '{"city":"Paris","unit":null}'), toolCall('call_2', '{"city":"Oslo","unit":"celsius"}')] },
          'tool_calls',
        ),
      };
    });
    const [response] = await collect(model({ parallelToolCalls: true }).generate(ask('Paris and Oslo?', { toolChoice: { type: 'tool', name: 'get_weather' } })));
    expect(response.content?.parts.map((part) => part.functionCall)).toEqual([
      { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } },
      { id: 'call_2', name: 'get_weather', args: { city: 'Oslo', unit: 'celsius' } },
    ]);
  });

  it('sends parallel_tool_calls: false when parallel calls are off', async () => {
    await serve((body) => {
      expect(body.parallel_tool_calls).toBe(false);
      expect(body.tool_choice).toBe('required');
      return { json: completion({ content: 'ok' }, 'stop') };
    });
    await collect(model().generate(ask('x', { toolChoice: 'required', config: { parallelToolCalls: false } })));
  });

  it('passes malformed and empty arguments on instead of crashing', async () => {
    await serve(() => ({
      json: completion({ content: null, tool_calls: [toolCall('call_1', '{"city": "Par'), toolCall('call_2', '')] }, 'tool_calls'),
    }));
    const [response] = await collect(model().generate(ask('x')));
    expect(response.content?.parts.map((part) => part.functionCall?.args)).toEqual(['{"city": "Par', {}]);
  });

  it('sends history with one tool message per call id, in call order, right after the assistant message', async () => {
    await serve((body) => {
      expect(body.messages.slice(1)).toEqual([
        { role: 'user', content: 'Paris and Oslo?' },
        { role: 'assistant', content: null, tool_calls: [toolCall('call_1', '{"city":"Paris"}'), toolCall('call_2', '{"city": "Os')] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"tempC":21}' },
        { role: 'tool', tool_call_id: 'call_2', content: '{"error":{"code":"MALFORMED_ARGUMENTS","message":"bad JSON"}}' },
      ]);
      return { json: completion({ content: 'Paris 21°C; please repeat Oslo.' }, 'stop') };
    });
    const [response] = await collect(
      model().generate(
        ask('Paris and Oslo?', {
          contents: [
            { role: 'user', parts: [{ text: 'Paris and Oslo?' }] },
            {
              role: 'model',
              parts: [
                { functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } } },
                { functionCall: { id: 'call_2', name: 'get_weather', args: '{"city": "Os' } },
              ],
            },
            {
              role: 'user',
              parts: [
                { functionResponse: { id: 'call_2', name: 'get_weather', response: { error: { code: 'MALFORMED_ARGUMENTS', message: 'bad JSON' } }, isError: true } },
                { functionResponse: { id: 'call_1', name: 'get_weather', response: { tempC: 21 } } },
              ],
            },
          ],
        }),
      ),
    );
    expect(response.content?.parts).toEqual([{ text: 'Paris 21°C; please repeat Oslo.' }]);
  });

  it('sends a tool without parameters as an empty object schema', async () => {
    await serve((body) => {
      expect(body.tools[0].function.parameters).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
      return { json: completion({ content: 'pong' }, 'stop') };
    });
    await collect(model().generate(ask('ping', { tools: [{ name: 'ping', description: 'Ping.', parameters: { type: 'object', properties: {} } }] })));
  });

  it('refuses a strict-incompatible schema before sending anything, or sends it as is with strict: false', async () => {
    const mapTool = {
      name: 'tag',
      description: 'Tags.',
      parameters: { type: 'object', properties: { labels: { type: 'object', patternProperties: { '^x-': { type: 'string' } } } } },
    };
    await serve((body) => {
      expect(body.tools[0].function).toEqual({ name: 'tag', description: 'Tags.', parameters: mapTool.parameters, strict: false });
      return { json: completion({ content: 'ok' }, 'stop') };
    });
    const error = await collect(model().generate(ask('x', { tools: [mapTool] }))).catch((e) => e);
    expect(error).toBeInstanceOf(StrictSchemaError);
    expect(error.message).toMatch(/Tool "tag".*keyword "patternProperties" at \/properties\/labels/);
    expect(server().requests).toHaveLength(0);
    await collect(model({ strict: false }).generate(ask('x', { tools: [mapTool] })));
    expect(server().requests).toHaveLength(1);
  });

  it('streams text deltas, then one complete response with usage', async () => {
    await serve((body) => {
      expect(body.stream).toBe(true);
      expect(body.stream_options).toEqual({ include_usage: true });
      return { sse: fixture('chat-text.chunks.txt') };
    });
    const responses = await collect(model().generate(ask('Weather?'), { stream: true }));
    const partials = responses.filter((r) => r.partial);
    expect(partials.map((r) => r.content?.parts[0].text).join('')).toBe("It's 21°C and sunny in Paris.");
    expect(partials.every((r) => !r.turnComplete)).toBe(true);
    expect(responses.at(-1)).toEqual({
      content: { role: 'model', parts: [{ text: "It's 21°C and sunny in Paris." }] },
      turnComplete: true,
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: 82, outputTokens: 17, totalTokens: 99, cachedInputTokens: 64, reasoningTokens: 0 },
      responseId: 'chatcmpl-BxK2hTq9v3Fj7',
    });
  });

  it('streams parallel tool calls with arguments assembled from deltas', async () => {
    await serve(() => ({ sse: fixture('chat-parallel-tool-calls.chunks.txt') }));
    const responses = await collect(model().generate(ask('Paris and Oslo?'), { stream: true }));
    const complete = responses.filter((r) => !r.partial);
    expect(complete).toHaveLength(1);
    responses.splice(0, responses.length, ...complete);
    expect(responses[0].content?.parts).toEqual([
      { functionCall: { id: 'call_Qm3sT1', name: 'get_weather', args: { city: 'Paris' } } },
      { functionCall: { id: 'call_Xw8pL2', name: 'get_weather', args: { city: 'Oslo', unit: 'fahrenheit' } } },
    ]);
    expect(responses[0].finishReason?.unified).toBe('tool-calls');
    expect(responses[0].usage?.totalTokens).toBe(168);
  });

  it("streams each call's growing argument text as partialFunctionCall partials, with the final call's id and name", async () => {
    await serve(() => ({ sse: fixture('chat-parallel-tool-calls.chunks.txt') }));
    const responses = await collect(model().generate(ask('Paris and Oslo?'), { stream: true }));
    const partials = responses.filter((r) => r.partial).map((r) => r.content!.parts[0].partialFunctionCall);
    expect(partials).toEqual([
      { id: 'call_Qm3sT1', name: 'get_weather', argsText: '{"ci', argsDelta: '{"ci' },
      { id: 'call_Qm3sT1', name: 'get_weather', argsText: '{"city":"Pa', argsDelta: 'ty":"Pa' },
      { id: 'call_Qm3sT1', name: 'get_weather', argsText: '{"city":"Paris","un', argsDelta: 'ris","un' },
      { id: 'call_Qm3sT1', name: 'get_weather', argsText: '{"city":"Paris","unit":null}', argsDelta: 'it":null}' },
      { id: 'call_Xw8pL2', name: 'get_weather', argsText: '{"city":', argsDelta: '{"city":' },
      { id: 'call_Xw8pL2', name: 'get_weather', argsText: '{"city":"Oslo","unit":"f', argsDelta: '"Oslo","unit":"f' },
      { id: 'call_Xw8pL2', name: 'get_weather', argsText: '{"city":"Oslo","unit":"fahrenheit"}', argsDelta: 'ahrenheit"}' },
    ]);
    // The final calls are unchanged: the strict-mode null is still mapped back to "absent".
    expect(responses.at(-1)?.content?.parts.map((p) => p.functionCall)).toEqual([
      { id: 'call_Qm3sT1', name: 'get_weather', args: { city: 'Paris' } },
      { id: 'call_Xw8pL2', name: 'get_weather', args: { city: 'Oslo', unit: 'fahrenheit' } },
    ]);
  });

  it('a streamed call without an id (some compatible servers) has the same generated id in its partials and the final call', async () => {
    const chunk = (delta: object, finish: string | null = null) => ({ data: JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] }) });
    await serve(() => ({
      sse: [
        chunk({ role: 'assistant', tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"Rome"}' } }] }),
        chunk({}, 'tool_calls'),
        { data: '[DONE]' },
      ],
    }));
    const responses = await collect(model().generate(ask('Rome?'), { stream: true }));
    const ids = responses.filter((r) => r.partial).map((r) => r.content!.parts[0].partialFunctionCall!.id);
    const final = responses.at(-1)!.content!.parts[0].functionCall!;
    expect(ids).toEqual([final.id, final.id]);
    expect(final).toMatchObject({ name: 'get_weather', args: { city: 'Rome' } });
  });

  it('reports a stream cut in the middle as PROVIDER_RESPONSE_INVALID', async () => {
    await serve(() => ({ sse: fixture('chat-parallel-tool-calls.chunks.txt'), cutAfter: 4, delayMs: 5 }));
    const error = await collect(model().generate(ask('x'), { stream: true })).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe('PROVIDER_RESPONSE_INVALID');
  });

  it('reports a stream that ends cleanly without finish_reason as PROVIDER_RESPONSE_INVALID', async () => {
    await serve(() => ({ sse: fixture('chat-text.chunks.txt').slice(0, 5) }));
    const error = await collect(model().generate(ask('x'), { stream: true })).catch((e) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID' });
  });

  it.each([
    ['an HTML page (a proxy or login wall)', { status: 200, headers: { 'content-type': 'text/html' }, text: '<html>proxy login</html>' }, 'text, not JSON (it starts "<html>proxy login</html>"'],
    ['a proxy page sent as application/json, its key redacted', { status: 200, headers: { 'content-type': 'application/json' }, text: '<html><body>Bad gateway for sk-proj-abcdefghijklmnop</body></html>' }, '(200, application/json) is text, not JSON (it starts "<html><body>Bad gateway for [redacted]</body></html>"'],
    ['an empty body', { status: 200, headers: { 'content-type': 'application/json' }, text: '' }, '(200, application/json) is empty'],
    ['JSON cut short', { status: 200, headers: { 'content-type': 'application/json' }, text: '{"id":"x","obj' }, 'is JSON cut short or malformed (it starts "{"id":"x","obj"'],
    ['{}', { json: {} }, 'it has no choices'],
  ] as const)('reports a 200 answer that is not a completion, %s, as PROVIDER_RESPONSE_INVALID, not retried', async (_name, reply, says) => {
    await serve(() => reply);
    const error = await collect(model({ maxRetries: undefined, retry: { initialDelayMs: 0 } }).generate(ask('x'))).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', isRetryable: false, message: expect.stringContaining(says) });
    expect(server().requests).toHaveLength(1);
  });

  it.each([
    ['JSON null', null, 'it is not a chat completion: the body is JSON null (status 200)'],
    ['{"choices":[null]}', { choices: [null] }, 'choices[0] has no message (status 200)'],
    ['tool_calls [null]', completion({ content: null, tool_calls: [null] }, 'tool_calls'), 'it is not a chat completion (status 200): '],
    ['a tool call whose function is null', completion({ content: null, tool_calls: [{ id: 'c', type: 'function', function: null }] }, 'tool_calls'), 'it is not a chat completion (status 200): '],
  ] as const)('reports a 200 completion with a null where it cannot be, %s, as PROVIDER_RESPONSE_INVALID with the status, not retried', async (_name, json, says) => {
    await serve(() => ({ json }));
    const error = await collect(model({ maxRetries: undefined, retry: { initialDelayMs: 0 } }).generate(ask('x'))).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', statusCode: 200, isRetryable: false, message: expect.stringContaining(says) });
    expect(server().requests).toHaveLength(1);
  });

  it.each([
    ['a key in a header echoed', (key: string) => `<html>Bad route. Request headers: api-key: ${key}</html>`, '<html>Bad route. Request headers: api-key: [redacted]</html>'],
    ['a key in a query string echoed', (key: string) => `<a href="/login?api_key=${key}">sign in</a>`, '<a href="/login?api_key=[redacted]">sign in</a>'],
    ['a key percent-encoded', (key: string) => `<p>key=${encodeURIComponent(key)}</p>`, '<p>key=[redacted]</p>'],
  ] as const)('redacts the key it sent from the excerpt of a 200 answer that is not a completion, %s', async (_name, page, shown) => {
    // The wire's key, `test-key`, looks like no known kind of secret (as an Azure key, 32 hex digits, does not).
    const key = 'test-key';
    await serve(() => ({ status: 200, headers: { 'content-type': 'text/html' }, text: page(key) }));
    const error = await collect(model().generate(ask('x'))).catch((e) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', statusCode: 200 });
    expect(error.message).toContain(`(it starts "${shown}"`);
    expect(error.message).not.toContain(key);
  });

  it('reads a content of parts (Mistral): text parts as the text, thinking parts as thought parts', async () => {
    const content = [{ type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] }, { type: 'text', text: 'Hel' }, 'lo'];
    await serve(() => ({ json: completion({ content }, 'stop') }));
    const [response] = await collect(model().generate(ask('x')));
    expect(response!.content!.parts).toEqual([{ text: 'hmm', thought: true }, { text: 'Hello' }]);
  });

  it.each([
    ['an object', { a: 1 }, "the message's content is an object, not text (status 200)"],
    ['an array holding an object of another type', [{ type: 'image_url', image_url: { url: 'x' } }], 'content is an object of type "image_url", not text'],
    ['a number', 42, "the message's content is a number, not text"],
  ] as const)('refuses a content that is not text, %s, as PROVIDER_RESPONSE_INVALID, never as "[object Object]"', async (_name, content, says) => {
    await serve(() => ({ json: completion({ content }, 'stop') }));
    const error = await collect(model().generate(ask('x'))).catch((e) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', statusCode: 200, message: expect.stringContaining(says) });
  });

  it('reports a 200 answer whose body the connection cut mid-read as PROVIDER_RESPONSE_INVALID, not retried (it was answered)', async () => {
    await serve(() => ({ headers: { 'content-type': 'application/json' }, sse: [{ data: '{"id":"chatcmpl-1",' }, { data: '"choices":[' }], cutAfter: 1, delayMs: 5 }));
    const error = await collect(model({ maxRetries: undefined, retry: { initialDelayMs: 0 } }).generate(ask('x'))).catch((e) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', statusCode: 200, isRetryable: false });
    expect(error.message).toContain("OpenAI's answer broke off: the connection was lost while its body (200, application/json) was read");
    expect(server().requests).toHaveLength(1);
  });

  it.each([
    ['an HTML page with 200 (a proxy error page)', { status: 200, headers: { 'content-type': 'text/html' }, text: '<html><h1>Upstream error</h1></html>' }, '(200, text/html) is not an event stream (it starts "<html><h1>Upstream error</h1></html>"'],
    ['HTML sent as text/event-stream', { status: 200, headers: { 'content-type': 'text/event-stream' }, text: '<html>proxy error</html>' }, '(200, text/event-stream) is not an event stream (it starts "<html>proxy error</html>"'],
    ['an empty event stream', { status: 200, headers: { 'content-type': 'text/event-stream' }, text: '' }, '(200, text/event-stream) is empty'],
  ] as const)('reports a streamed 200 answer that is not an event stream, %s, saying what came, not retried', async (_name, reply, says) => {
    await serve(() => reply);
    const error = await collect(model({ maxRetries: undefined, retry: { initialDelayMs: 0 } }).generate(ask('x'), { stream: true })).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', isRetryable: false, message: expect.stringContaining(says) });
    expect(error.message).toContain("OpenAI's answer could not be read: it is not a chat completion stream");
    expect(server().requests).toHaveLength(1);
  });

  it('maps 429 to RateLimitError with retry-after', async () => {
    await serve(() => ({ ...openAIError(429, 'Rate limit reached for gpt-4.1-mini', 'requests', 'rate_limit_exceeded'), headers: { 'retry-after': '7' } }));
    const error = await collect(model().generate(ask('x'))).catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', statusCode: 429, retryAfterMs: 7000, provider: 'openai' });
    expect(error.message).toContain('Rate limit reached');
  });

  describe("Google's thought signatures (extra_content on a call)", () => {
    // The shape Google's OpenAI-compatible endpoint sends for Gemini 3 models: extra_content.google.thought_signature on the call.
    const extra = { google: { thought_signature: 'CiIBVKhc7ozmP4Q3pVWtdMzSfULw0mK8yU6XIW2VuOAYgFoTCnMBVKhc7o' }, vendor: { note: 'kept too' } };
    const call = { ...toolCall('function-call-1', '{"city":"Paris"}'), extra_content: extra };
    const signedTurn = (stream: boolean): WireReply => {
      if (!stream) return { json: completion({ content: null, tool_calls: [call] }, 'tool_calls') };
      const base = { id: 'chatcmpl-g', object: 'chat.completion.chunk', created: 1, model: 'gemini-3-pro-preview' };
      return {
        sse: [
          { data: { ...base, choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, ...call, function: { name: 'get_weather', arguments: '{"city":' } }] }, finish_reason: null }] } },
          { data: { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }, finish_reason: 'tool_calls' }] } },
          { data: '[DONE]' },
        ],
      };
    };
    const answered = (turn: Content): Content[] => [
      ...ask('Paris?').contents,
      turn,
      { role: 'user', parts: [{ functionResponse: { id: 'function-call-1', name: 'get_weather', response: { sky: 'clear' } } }] },
    ];
    const sentCall = { id: 'function-call-1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };

    it.each([false, true])('keeps it with the call and the server, and sends it back to that server unchanged (streaming: %s)', async (stream) => {
      await serve((_body, index) => (index === 0 ? signedTurn(stream) : { json: completion({ content: 'Sunny.' }, 'stop') }));
      const first = (await collect(model().generate(ask('Paris?'), { stream }))).at(-1)!;
      const origin = `${server().url}/v1`;
      expect(first.content!.parts).toEqual([
        { functionCall: { id: 'function-call-1', name: 'get_weather', args: { city: 'Paris' } }, providerData: { provider: 'openai', data: { extra_content: extra, server: origin } } },
      ]);

      await collect(model().generate({ ...ask('Paris?'), contents: answered(first.content!) }));

      expect(server().requests).toHaveLength(2);
      expect(server().requests[1].body.messages.slice(1, 3)).toEqual([
        { role: 'user', content: 'Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ ...sentCall, extra_content: extra }] },
      ]);
      // What Google's endpoint checks (the wire fakes' rule) passes.
      expect(chatThoughtSignatureProblems(server().requests[1].body.messages, new Map([['function-call-1', extra.google.thought_signature]]))).toEqual([]);
    });

    it('does not send it to another server (a session that moves to OpenAI itself, which refuses fields it does not know)', async () => {
      await serve(() => signedTurn(false));
      const first = (await collect(model().generate(ask('Paris?')))).at(-1)!;
      const other = await startWireServer(() => ({ json: completion({ content: 'Sunny.' }, 'stop') }));
      try {
        const elsewhere = new OpenAIModel({ model: 'gpt-4.1-mini', apiKey: 'test-key', baseURL: `${other.url}/v1`, maxRetries: 0 });
        await collect(elsewhere.generate({ ...ask('Paris?'), contents: answered(first.content!) }));
        expect(other.handlerErrors).toEqual([]);
        expect(other.requests[0].body.messages[2]).toEqual({ role: 'assistant', content: null, tool_calls: [sentCall] });
      } finally {
        await other.close();
      }
    });

    it("reports Google's recorded 400 for a call sent back without its signature as BAD_REQUEST, with the API's message", async () => {
      const refused = recorded.gemini_missing_thought_signature;
      await serve(() => ({ status: refused.status, json: refused.body }));
      const error = await collect(model().generate(ask('x'))).catch((e) => e);
      expect(error).toMatchObject({ code: 'BAD_REQUEST', statusCode: 400, provider: 'openai' });
      expect(error.message).toContain('Function call is missing a thought_signature in functionCall parts');
      // The wire fakes refuse what the real endpoint refused, with its message.
      const messages = [{ role: 'user', content: 'run it' }, { role: 'assistant', content: null, tool_calls: [{ ...sentCall, function: { name: 'shell', arguments: '{}' } }] }];
      expect(chatThoughtSignatureProblems(messages, new Map([['function-call-1', 'sig']]))).toEqual([(refused.body as Array<{ error: { message: string } }>)[0].error.message]);
    });
  });

  const recorded = JSON.parse(readFileSync(join(__dirname, '__fixtures__', 'recorded', 'errors.json'), 'utf8')) as Record<string, { status: number; body: object }>;

  it('reports the recorded insufficient_quota 429 as QuotaExceededError and does not retry it', async () => {
    await serve(() => ({ status: recorded.insufficient_quota.status, json: recorded.insufficient_quota.body, headers: { 'retry-after': '0' } }));
    const error = await collect(model({ maxRetries: undefined, retry: { initialDelayMs: 0 } }).generate(ask('x'))).catch((e) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).toMatchObject({ code: 'QUOTA_EXCEEDED', statusCode: 429, isRetryable: false });
    expect(server().requests).toHaveLength(1);
  });

  it('retries the recorded overloaded 503 (PROVIDER_OVERLOADED)', async () => {
    await serve((_body, index) => (index === 0 ? { status: 503, json: recorded.overloaded_503.body } : { json: completion({ content: 'second time' }, 'stop') }));
    const [response] = await collect(model({ maxRetries: undefined, retry: { initialDelayMs: 0 } }).generate(ask('x')));
    expect(response.content?.parts).toEqual([{ text: 'second time' }]);
    expect(server().requests).toHaveLength(2);
  });

  it('retries 503 with backoff under the default policy (the SDK itself does not retry)', async () => {
    await serve((_body, index) => (index < 2 ? openAIError(503, 'overloaded', 'server_error') : { json: completion({ content: 'third time' }, 'stop') }));
    const [response] = await collect(model({ maxRetries: undefined, retry: { initialDelayMs: 0 } }).generate(ask('x')));
    expect(response.content?.parts).toEqual([{ text: 'third time' }]);
    expect(server().requests).toHaveLength(3);
  });

  it('succeeds after a 429 under the retry policy (retry-after-ms honoured)', async () => {
    await serve((_body, index) =>
      index === 0
        ? { ...openAIError(429, 'slow down', 'requests', 'rate_limit_exceeded'), headers: { 'retry-after-ms': '10' } }
        : { json: completion({ content: 'made it' }, 'stop') },
    );
    const [response] = await collect(model({ maxRetries: 1 }).generate(ask('x')));
    expect(response.content?.parts).toEqual([{ text: 'made it' }]);
    expect(server().requests).toHaveLength(2);
  });

  it.each([
    [401, 'AUTHENTICATION_FAILED', 'Incorrect API key provided', 'invalid_request_error'],
    [400, 'BAD_REQUEST', "Invalid schema for function 'get_weather'", 'invalid_request_error'],
    [500, 'SERVER_ERROR', 'The server had an error while processing your request.', 'server_error'],
  ])('maps HTTP %i to %s', async (status, code, message, type) => {
    await serve(() => openAIError(status, message, type));
    const error = await collect(model().generate(ask('x'))).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code, statusCode: status });
    expect(error.message).toContain(message);
  });

  it('cancels the HTTP request when the signal aborts', async () => {
    await serve(() => ({ hang: true }));
    const controller = new AbortController();
    const pending = collect(model().generate(ask('x'), { signal: controller.signal })).catch((e) => e);
    // Abort once the server holds the request (a barrier, not a timer).
    await waitFor(() => server().requests.length === 1);
    controller.abort();
    expect(await pending).toBeInstanceOf(RunAbortedError);
  });

  it('stops a stream when the signal aborts mid-way', async () => {
    await serve(() => ({ sse: fixture('chat-text.chunks.txt'), delayMs: 20 }));
    const controller = new AbortController();
    const seen: LlmResponse[] = [];
    const error = await (async () => {
      for await (const response of model().generate(ask('x'), { signal: controller.signal, stream: true })) {
        seen.push(response);
        if (seen.length === 2) controller.abort();
      }
    })().catch((e) => e);
    expect(error).toBeInstanceOf(RunAbortedError);
    expect(seen.every((r) => r.partial)).toBe(true);
  });

  it('leaves no abort listener on a long-lived signal after its calls', async () => {
    await serve(() => ({ json: completion({ content: 'ok' }, 'stop') }));
    const runSignal = new AbortController().signal;
    const openai = model();
    for (let i = 0; i < 12; i++) await collect(openai.generate(ask('x'), { signal: runSignal }));
    expect(getEventListeners(runSignal, 'abort')).toHaveLength(0);
  });

  it('uses a client passed in', async () => {
    await serve(() => ({ json: completion({ content: 'via client' }, 'stop') }));
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server().url}/v1`, maxRetries: 0 });
    const [response] = await collect(new OpenAIModel({ model: 'gpt-4.1-mini', client }).generate(ask('x')));
    expect(response.content?.parts).toEqual([{ text: 'via client' }]);
  });

  it('refuses hosted tools on Chat Completions', async () => {
    await serve(() => ({ json: completion({ content: 'never' }, 'stop') }));
    const request = ask('x', { providerTools: [{ kind: 'provider-tool', provider: 'openai', name: 'web_search', config: { type: 'web_search' } }] });
    await expect(collect(model().generate(request))).rejects.toMatchObject({ code: 'PROVIDER_TOOL_UNSUPPORTED' });
    expect(server().requests).toHaveLength(0);
  });
});
