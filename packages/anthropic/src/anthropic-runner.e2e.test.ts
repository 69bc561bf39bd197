import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Event, LlmAgent, RateLimitError, Runner, type ToolsmithError, functionTool } from '@toolsmith/core';
import { type WireServer, parseSseFixture, startWireServer } from '@toolsmith/core/testing';
import { AnthropicModel } from './anthropic-model';
import { providerTool } from './provider-tool';
import { anthropicMessage } from './__fixtures__/anthropic-message';

// The adapter inside a real run: Runner → LlmAgent → AnthropicModel → SDK → local wire server.
const fixture = (name: string) => parseSseFixture(readFileSync(join(__dirname, '__fixtures__', `${name}.chunks.txt`), 'utf8'));
const text = (value: string) => anthropicMessage([{ type: 'text', text: value }], { id: 'msg_t' });

const getWeather = functionTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }: { city: string }) => ({ city, tempC: 21 }),
});

async function run(runner: Runner, streaming = false): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] }, streaming })) events.push(event);
  return events;
}

describe('AnthropicModel in a Runner', () => {
  let server: WireServer;
  afterEach(() => server.close());

  it('answers unparseable streamed arguments with an is_error tool_result and carries on', async () => {
    server = await startWireServer((_request, index) => (index === 0 ? { sse: fixture('malformed-tool-input') } : { sse: fixture('text') }));
    const model = new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 256, apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const events = await run(new Runner({ appName: 'weather', agent: new LlmAgent({ name: 'assistant', model, tools: [getWeather] }) }), true);

    expect(server.handlerErrors).toEqual([]);
    const [toolResult] = server.requests[1].body.messages[2].content;
    expect(toolResult).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01Malformed', is_error: true });
    expect(JSON.parse(toolResult.content)).toMatchObject({ error: { code: 'MALFORMED_ARGUMENTS' } });
    const final = events.filter((event) => event.isFinalResponse() && !event.partial);
    expect(final.map((event) => event.text())).toEqual(['It is sunny in Paris.']);
  });

  it('passes a rate limit through onModelError as a RateLimitError, which may recover', async () => {
    server = await startWireServer(() => ({ status: 429, headers: { 'retry-after': '2' }, text: '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}' }));
    const model = new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 256, apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const seen: ToolsmithError[] = [];
    const agent = new LlmAgent({
      name: 'assistant',
      model,
      callbacks: {
        onModelError: ({ error }) => {
          seen.push(error);
          return { content: { role: 'model', parts: [{ text: 'Busy, try later.' }] }, turnComplete: true };
        },
      },
    });
    const events = await run(new Runner({ appName: 'weather', agent }));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(RateLimitError);
    expect(seen[0]).toMatchObject({ code: 'RATE_LIMITED', retryAfterMs: 2000 });
    expect(events[events.length - 1].text()).toBe('Busy, try later.');
  });

  it('ends the run with the provider error code when no callback recovers', async () => {
    server = await startWireServer(() => ({ status: 401, text: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}' }));
    const model = new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 256, apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const events = await run(new Runner({ appName: 'weather', agent: new LlmAgent({ name: 'assistant', model }) }));
    expect(events[events.length - 1]).toMatchObject({ errorCode: 'AUTHENTICATION_FAILED', errorMessage: expect.stringContaining('invalid x-api-key') });
  });

  it('sends a plain text answer without tools', async () => {
    server = await startWireServer(() => ({ json: text('Hello.') }));
    const model = new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 256, apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const events = await run(new Runner({ appName: 'weather', agent: new LlmAgent({ name: 'assistant', model, instruction: 'Be kind.' }) }));
    expect(server.requests[0].body.system).toBe('Be kind.');
    expect(events[events.length - 1].text()).toBe('Hello.');
  });

  it('sends server tool blocks back in the history of later requests, in order, across turns', async () => {
    const serverToolUse = { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'Paris weather' } };
    const searchResult = {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_01',
      content: [{ type: 'web_search_result', url: 'https://weather.example/paris', title: 'Paris', encrypted_content: 'EqgfCioIARgB', page_age: null }],
    };
    const toolUse = { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } };
    const first = { ...text(''), content: [serverToolUse, searchResult, { type: 'text', text: 'Checking.', citations: null }, toolUse], stop_reason: 'tool_use' };
    server = await startWireServer((_request, index) => (index === 0 ? { json: first } : { json: text(index === 1 ? 'Sunny, 21 °C.' : 'You are welcome.') }));
    const model = new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 256, apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const webSearch = providerTool({ type: 'web_search_20250305', name: 'web_search' });
    const runner = new Runner({ appName: 'weather', agent: new LlmAgent({ name: 'assistant', model, tools: [getWeather, webSearch] }) });

    await run(runner);
    for await (const _event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Thanks!' }] } })) void _event;

    expect(server.handlerErrors).toEqual([]);
    const assistantTurn = [serverToolUse, searchResult, { type: 'text', text: 'Checking.' }, toolUse];
    const [, second, third] = server.requests.map((request) => request.body.messages);
    expect(second).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      { role: 'assistant', content: assistantTurn },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: JSON.stringify({ city: 'Paris', tempC: 21 }) }] },
    ]);
    // The next turn replays the stored session: the blocks survived it unchanged.
    expect(third.slice(0, 3)).toEqual(second);
    expect(third.slice(3)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'Sunny, 21 °C.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Thanks!' }] },
    ]);
  });
});
