import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProviderError, RateLimitError, RunAbortedError } from '@toolsmith/core';
import { collect, parseSseFixture } from '@toolsmith/core/testing';
import { useOpenAIWire } from './__fixtures__/openai-wire';
import { ask, strictWeatherParameters, weatherTool } from './__fixtures__/weather-request';
import { providerTool } from './provider-tool';

const fixturesDir = join(__dirname, '__fixtures__');
const sseFixture = (name: string) => parseSseFixture(readFileSync(join(fixturesDir, name), 'utf8'));
const jsonFixture = (name: string) => JSON.parse(readFileSync(join(fixturesDir, name), 'utf8'));

const textResponse = (text: string, output: unknown[] = []) => ({
  ...jsonFixture('responses-function-calls.json'),
  output: [
    ...output,
    { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text }] },
  ],
});

/** The output item a part came from, kept in its providerData (the item's id and type; the rest as the API sent it). */
const fromItem = (id: string, type: string) => ({ provider: 'openai', data: expect.objectContaining({ id, type }) });

// What both recorded answers (responses-function-calls.json, responses-text-and-calls.chunks.txt) map to.
const textAndCallsAnswer = {
  content: {
    role: 'model',
    parts: [
      { text: 'Let me check both cities.', providerData: fromItem('msg_68f1c0ffee01', 'message') },
      { functionCall: { id: 'call_R1pa', name: 'get_weather', args: { city: 'Paris' } }, providerData: fromItem('fc_68f1c0ffee02', 'function_call') },
      { functionCall: { id: 'call_R2os', name: 'get_weather', args: { city: 'Oslo', unit: 'celsius' } }, providerData: fromItem('fc_68f1c0ffee03', 'function_call') },
    ],
  },
  turnComplete: true,
  finishReason: { unified: 'tool-calls', raw: 'completed' },
  usage: { inputTokens: 95, outputTokens: 41, totalTokens: 136, cachedInputTokens: 0, reasoningTokens: 0 },
  responseId: 'resp_68f1c0ffee',
};

describe('OpenAIModel on the Responses API wire', () => {
  const { serve, model, server } = useOpenAIWire('responses');

  it('sends instructions, input items and strict function tools; maps text and calls', async () => {
    await serve((body) => {
      expect(body).toEqual({
        model: 'gpt-4.1-mini',
        instructions: 'Answer briefly.',
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'Paris and Oslo?' }] }],
        tools: [
          {
            type: 'function',
            name: 'get_weather',
            description: 'Current weather for a city.',
            parameters: strictWeatherParameters,
            strict: true,
          },
        ],
        tool_choice: 'auto',
        parallel_tool_calls: false,
        max_output_tokens: 200,
      });
      return { json: jsonFixture('responses-function-calls.json') };
    });
    const [response] = await collect(
      model({ parallelToolCalls: false }).generate(ask('Paris and Oslo?', { toolChoice: 'auto', config: { maxOutputTokens: 200 } })),
    );
    expect(response).toEqual(textAndCallsAnswer);
  });

  it('sends strict: false explicitly and a named tool choice', async () => {
    await serve((body) => {
      expect(body.tools[0].strict).toBe(false);
      expect(body.tools[0].parameters).toEqual(weatherTool.parameters);
      expect(body.tool_choice).toEqual({ type: 'function', name: 'get_weather' });
      return { json: textResponse('ok') };
    });
    await collect(model({ strict: false }).generate(ask('x', { toolChoice: { type: 'tool', name: 'get_weather' } })));
  });

  it('sends function_call items and exactly one function_call_output per call id', async () => {
    await serve((body) => {
      expect(body.input).toEqual([
        { role: 'user', content: [{ type: 'input_text', text: 'Export and weather' }] },
        { type: 'function_call', call_id: 'call_a', name: 'start_export', arguments: '{}' },
        { type: 'function_call', call_id: 'call_b', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_a', output: '{"status":"done"}' },
        { type: 'function_call_output', call_id: 'call_b', output: '{"error":{"code":"TOOL_EXECUTION_FAILED","message":"down"}}' },
      ]);
      return { json: textResponse('Export done; weather unavailable.') };
    });
    const [response] = await collect(
      model().generate(
        ask('x', {
          contents: [
            { role: 'user', parts: [{ text: 'Export and weather' }] },
            {
              role: 'model',
              parts: [
                { functionCall: { id: 'call_a', name: 'start_export', args: {} } },
                { functionCall: { id: 'call_b', name: 'get_weather', args: { city: 'Rome' } } },
              ],
            },
            {
              role: 'user',
              parts: [
                { functionResponse: { id: 'call_a', name: 'start_export', response: { status: 'pending' } } },
                {
                  functionResponse: {
                    id: 'call_b',
                    name: 'get_weather',
                    response: { error: { code: 'TOOL_EXECUTION_FAILED', message: 'down' } },
                    isError: true,
                  },
                },
              ],
            },
            { role: 'user', parts: [{ functionResponse: { id: 'call_a', name: 'start_export', response: { status: 'done' } } }] },
          ],
        }),
      ),
    );
    expect(response.finishReason).toEqual({ unified: 'stop', raw: 'completed' });
  });

  it('keeps every output item and sends them back in their order with their ids; store: false asks for encrypted reasoning', async () => {
    const reasoning = { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Check the weather first.' }], encrypted_content: 'gAAAA-opaque' };
    const bodies: Array<Record<string, unknown>> = [];
    await serve((body, index) => {
      bodies.push(body as Record<string, unknown>);
      return index === 0
        ? { json: textResponse('', [reasoning, { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","unit":null}', status: 'completed' }]) }
        : { json: textResponse('', [{ type: 'message', id: 'm1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Sunny.', annotations: [] }] }]) };
    });
    const first = await collect(model({ model: 'gpt-5-mini', store: false }).generate(ask('Paris?')));
    const parts = first[0].content!.parts;
    expect(parts[0]).toEqual({ text: 'Check the weather first.', thought: true });
    // Kept with the id of the item that followed it, which it may go back only right before.
    expect(parts[1]).toEqual({ providerData: { provider: 'openai', data: { ...reasoning, followedBy: 'fc_1' } } });
    // The next request carries the conversation so far: every item goes back as it came, in its order,
    // so the reasoning item is immediately followed by the call that followed it (fc_1).
    const history = [...ask('Paris?').contents, first[0].content!, { role: 'user' as const, parts: [{ functionResponse: { id: 'call_1', name: 'get_weather', response: { report: 'Sunny' } } }] }];
    await collect(model({ model: 'gpt-5-mini', store: false }).generate({ ...ask('Paris?'), contents: history }));
    expect(bodies[0]).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
    const input = bodies[1].input as Array<Record<string, unknown>>;
    expect(input.map((item) => item.type ?? item.role)).toEqual(['user', 'reasoning', 'function_call', 'message', 'function_call_output']);
    expect(input[1]).toEqual(reasoning);
    expect(input[2]).toEqual({ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","unit":null}', status: 'completed' });
    expect(input[3]).toMatchObject({ type: 'message', id: 'msg_1' });
  });

  it('contextManagement: sends context_management as given; the compaction item is kept and sent back as id and encrypted content (also streamed)', async () => {
    const compaction = { id: 'cmp_1', type: 'compaction', encrypted_content: 'gAAAA-compacted-history', created_by: 'server' };
    const contextManagement = [{ type: 'compaction', compact_threshold: 200_000 }];
    const completed = textResponse('Sunny in Paris.', [compaction]);
    const bodies: Array<Record<string, unknown>> = [];
    await serve((body, index) => {
      bodies.push(body as Record<string, unknown>);
      if (index === 0) return { json: completed };
      if (index === 1) {
        return {
          sse: [
            { event: 'response.output_item.done', data: JSON.stringify({ type: 'response.output_item.done', output_index: 0, sequence_number: 1, item: compaction }) },
            { event: 'response.output_item.done', data: JSON.stringify({ type: 'response.output_item.done', output_index: 1, sequence_number: 2, item: completed.output[1] }) },
            { event: 'response.completed', data: JSON.stringify({ type: 'response.completed', sequence_number: 3, response: completed }) },
          ],
        };
      }
      return { json: textResponse('Still sunny.') };
    });
    const compacting = model({ contextManagement });
    const [first] = await collect(compacting.generate(ask('Paris?')));
    expect(first.content!.parts).toEqual([{ providerData: { provider: 'openai', data: compaction } }, { text: 'Sunny in Paris.', providerData: fromItem('msg_1', 'message') }]);
    const streamed = (await collect(compacting.generate(ask('Paris?'), { stream: true }))).at(-1)!;
    expect(streamed.content!.parts).toEqual(first.content!.parts);
    // The session goes on: the compaction item goes back in its place, in the shape the API takes as input.
    const history = [...ask('Paris?').contents, first.content!, { role: 'user' as const, parts: [{ text: 'And tomorrow?' }] }];
    await collect(compacting.generate({ ...ask('x'), contents: history }));
    expect(bodies.map((body) => body.context_management)).toEqual([contextManagement, contextManagement, contextManagement]);
    expect((bodies[2].input as Array<Record<string, unknown>>).map((item) => item.type ?? item.role)).toEqual(['user', 'compaction', 'message', 'user']);
    expect((bodies[2].input as unknown[])[1]).toEqual({ type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAA-compacted-history' });
    expect(() => model({ api: 'chat', contextManagement })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining("api: 'responses'") }));
  });

  it('streams text deltas and function-call arguments assembled from deltas', async () => {
    await serve((body) => {
      expect(body.stream).toBe(true);
      return { sse: sseFixture('responses-text-and-calls.chunks.txt') };
    });
    const responses = await collect(model().generate(ask('Paris and Oslo?'), { stream: true }));
    const partials = responses.filter((r) => r.partial);
    expect(partials.filter((r) => r.content?.parts[0].text !== undefined).map((r) => r.content?.parts[0].text)).toEqual(['Let me', ' check', ' both', ' cities', '.']);
    expect(responses.at(-1)).toEqual(textAndCallsAnswer);
  });

  it("streams each call's growing argument text as partialFunctionCall partials (call_id and name), the final calls unchanged", async () => {
    await serve(() => ({ sse: sseFixture('responses-text-and-calls.chunks.txt') }));
    const responses = await collect(model().generate(ask('Paris and Oslo?'), { stream: true }));
    const calls = responses.filter((r) => r.partial && r.content?.parts[0].partialFunctionCall).map((r) => r.content!.parts[0].partialFunctionCall!);
    const finals = textAndCallsAnswer.content.parts.flatMap((p) => (p.functionCall ? [p.functionCall] : []));
    expect(calls.map((c) => c.argsDelta)).toEqual(['{"city":"Pa', 'ris","unit":', 'null}', '{"city":"Oslo",', '"unit":"celsius"}']);
    expect(calls.map((c) => c.argsText)).toEqual(['{"city":"Pa', '{"city":"Paris","unit":', '{"city":"Paris","unit":null}', '{"city":"Oslo",', '{"city":"Oslo","unit":"celsius"}']);
    expect(calls.map((c) => c.id)).toEqual([finals[0].id, finals[0].id, finals[0].id, finals[1].id, finals[1].id]);
    expect(new Set(calls.map((c) => c.name))).toEqual(new Set(finals.map((f) => f.name)));
    expect(responses.at(-1)).toEqual(textAndCallsAnswer);
  });

  it('assembles from deltas alone when a server sends no output_item.done and an empty completed output', async () => {
    const events = sseFixture('responses-text-and-calls.chunks.txt')
      .map((event) => ({ ...event, data: JSON.parse(event.data as string) }))
      .filter((event) => !['response.output_item.done', 'response.output_text.done', 'response.function_call_arguments.done'].includes(event.event!))
      .map((event) => (event.event === 'response.completed' ? { ...event, data: { ...event.data, response: { ...event.data.response, output: [] } } } : event));
    await serve(() => ({ sse: events }));
    const responses = await collect(model().generate(ask('x'), { stream: true }));
    expect(responses.at(-1)?.content?.parts).toEqual(textAndCallsAnswer.content.parts);
  });

  it('passes hosted tools through untouched and keeps their output items in order', async () => {
    await serve((body) => {
      expect(body.tools.slice(1)).toEqual([{ type: 'web_search', search_context_size: 'low' }]);
      return {
        json: textResponse('Toolsmith 1.0 shipped today.', [
          { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'toolsmith release' } },
        ]),
      };
    });
    const request = ask('News?', { providerTools: [providerTool({ type: 'web_search', search_context_size: 'low' })] });
    const [response] = await collect(model().generate(request));
    expect(response.content?.parts).toEqual([
      { providerData: { provider: 'openai', data: { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'toolsmith release' } } } },
      { text: 'Toolsmith 1.0 shipped today.', providerData: fromItem('msg_1', 'message') },
    ]);
  });

  it('maps an incomplete response to max-tokens', async () => {
    await serve(() => ({ json: { ...textResponse('Cut'), status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } }));
    const [response] = await collect(model().generate(ask('x')));
    expect(response.finishReason).toEqual({ unified: 'max-tokens', raw: 'incomplete:max_output_tokens' });
  });

  it('throws typed errors for response.failed and error events', async () => {
    const created = sseFixture('responses-text-and-calls.chunks.txt').slice(0, 2);
    const failed = { ...jsonFixture('responses-function-calls.json'), status: 'failed', output: [], error: { code: 'server_error', message: 'The model crashed.' } };
    await serve((_body, index) =>
      index === 0
        ? { sse: [...created, { event: 'response.failed', data: { type: 'response.failed', response: failed, sequence_number: 2 } }] }
        : { sse: [...created, { event: 'error', data: { type: 'error', code: 'rate_limit_exceeded', message: 'Too many tokens.', param: null, sequence_number: 2 } }] },
    );
    const first = await collect(model().generate(ask('x'), { stream: true })).catch((e) => e);
    expect(first).toBeInstanceOf(ProviderError);
    expect(first).toMatchObject({ code: 'SERVER_ERROR', message: expect.stringContaining('The model crashed.') });
    const second = await collect(model().generate(ask('x'), { stream: true })).catch((e) => e);
    expect(second).toBeInstanceOf(RateLimitError);
  });

  // The Responses API streams an `error` event (type, code, message, param, sequence_number: API reference,
  // "Streaming events"; the SDK throws it as an APIError) where a request would have had an error status.
  it('retries a stream whose error event comes before any output (response.created carries none), never one after a delta', async () => {
    const events = sseFixture('responses-text-and-calls.chunks.txt');
    const rateLimited = { event: 'error', data: { type: 'error', code: 'rate_limit_exceeded', message: 'Rate limit reached.', param: null, sequence_number: 2 } };
    await serve((_body, index) => (index === 0 ? { sse: [...events.slice(0, 2), rateLimited] } : { sse: events }));
    const retry = { maxRetries: 2, initialDelayMs: 0, maxDelayMs: 0 };
    expect((await collect(model({ retry }).generate(ask('x'), { stream: true }))).at(-1)).toEqual(textAndCallsAnswer);
    expect(server().requests).toHaveLength(2);

    await server().close();
    await serve(() => ({ sse: [...events.slice(0, 5), rateLimited] }));
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const response of model({ retry }).generate(ask('x'), { stream: true })) seen.push(response);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(1);
    expect(server().requests).toHaveLength(1);
  });

  it('reports a cut stream as PROVIDER_RESPONSE_INVALID', async () => {
    await serve(() => ({ sse: sseFixture('responses-text-and-calls.chunks.txt'), cutAfter: 6, delayMs: 5 }));
    await expect(collect(model().generate(ask('x'), { stream: true }))).rejects.toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID' });
  });

  it.each([
    ['an HTML page (a proxy or login wall)', { status: 200, headers: { 'content-type': 'text/html' }, text: '<html>proxy login</html>' }, 'text, not JSON (it starts "<html>proxy login</html>"'],
    ['a proxy page sent as application/json, its key redacted', { status: 200, headers: { 'content-type': 'application/json' }, text: '<html><body>Bad gateway for sk-proj-abcdefghijklmnop</body></html>' }, '(200, application/json) is text, not JSON (it starts "<html><body>Bad gateway for [redacted]</body></html>"'],
    ['an empty body', { status: 200, headers: { 'content-type': 'application/json' }, text: '' }, '(200, application/json) is empty'],
    ['JSON cut short', { status: 200, headers: { 'content-type': 'application/json' }, text: '{"id":"x","obj' }, 'is JSON cut short or malformed (it starts "{"id":"x","obj"'],
    ['{}', { json: {} }, 'it has no output array'],
  ] as const)('reports a 200 answer that is not a response, %s, as PROVIDER_RESPONSE_INVALID, not retried', async (_name, reply, says) => {
    const wire = await serve(() => reply);
    const error = await collect(model({ maxRetries: undefined, retry: { initialDelayMs: 0 } }).generate(ask('x'))).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', isRetryable: false, message: expect.stringContaining(says) });
    expect(wire.requests).toHaveLength(1);
  });

  it.each([
    ['JSON null', null, 'it is not a response: the body is JSON null (status 200)'],
    ['output [null]', { id: 'resp_1', object: 'response', status: 'completed', output: [null] }, 'it is not a response (status 200): '],
    ['a message whose text is an object', { id: 'resp_1', object: 'response', status: 'completed', output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: { a: 1 }, annotations: [] }] }] }, "a message's text is a JSON object (status 200)"],
    ['a message whose content is null', { id: 'resp_1', object: 'response', status: 'completed', output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: null }] }, 'it is not a response (status 200): '],
  ] as const)('reports a 200 response with a null where it cannot be, %s, as PROVIDER_RESPONSE_INVALID with the status, not retried', async (_name, json, says) => {
    const wire = await serve(() => ({ json }));
    const error = await collect(model({ maxRetries: undefined, retry: { initialDelayMs: 0 } }).generate(ask('x'))).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', statusCode: 200, isRetryable: false, message: expect.stringContaining(says) });
    expect(wire.requests).toHaveLength(1);
  });

  it.each([
    ['an HTML page with 200 (a proxy error page)', { status: 200, headers: { 'content-type': 'text/html' }, text: '<html><h1>Upstream error</h1></html>' }, '(200, text/html) is not an event stream (it starts "<html><h1>Upstream error</h1></html>"'],
    ['HTML sent as text/event-stream', { status: 200, headers: { 'content-type': 'text/event-stream' }, text: '<html>proxy error</html>' }, '(200, text/event-stream) is not an event stream (it starts "<html>proxy error</html>"'],
    ['an empty event stream', { status: 200, headers: { 'content-type': 'text/event-stream' }, text: '' }, '(200, text/event-stream) is empty'],
  ] as const)('reports a streamed 200 answer that is not an event stream, %s, saying what came, not retried', async (_name, reply, says) => {
    const wire = await serve(() => reply);
    const error = await collect(model({ maxRetries: undefined, retry: { initialDelayMs: 0 } }).generate(ask('x'), { stream: true })).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', isRetryable: false, message: expect.stringContaining(says) });
    expect(error.message).toContain("OpenAI's answer could not be read: it is not a response stream");
    expect(wire.requests).toHaveLength(1);
  });

  it('maps HTTP errors', async () => {
    await serve(() => ({ status: 500, json: { error: { message: 'The server had an error.', type: 'server_error', param: null, code: null } } }));
    await expect(collect(model().generate(ask('x')))).rejects.toMatchObject({ code: 'SERVER_ERROR', statusCode: 500 });
  });

  it('cancels a stream when the signal aborts', async () => {
    await serve(() => ({ sse: sseFixture('responses-text-and-calls.chunks.txt'), delayMs: 20 }));
    const controller = new AbortController();
    let seen = 0;
    const error = await (async () => {
      for await (const response of model().generate(ask('x'), { signal: controller.signal, stream: true })) {
        void response;
        seen++;
        controller.abort(); // abort after the first streamed response (a barrier, not a timer)
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunAbortedError);
    expect(seen).toBe(1);
  });
});
