import { type Event, LlmAgent, Runner, functionTool } from '@toolsmith/core';
import { type RecordedRequest, type WireReply, type WireServer, startWireServer } from '@toolsmith/core/testing';
import OpenAI from 'openai';
import { deepseekReasoningProblems } from './__fixtures__/openai-chat-rules';
import { OpenAIModel } from './openai-model';

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const getWeather = functionTool({
  name: 'get_weather',
  description: 'Weather of a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }: { city: string }) => ({ city, tempC: 21 }),
});
const completion = (message: Record<string, unknown>, finish: string, stream: boolean): WireReply => {
  const body = { id: 'c', object: 'chat.completion', created: 1, model: 'deepseek-reasoner', usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } };
  if (!stream) return { json: { ...body, choices: [{ index: 0, finish_reason: finish, message: { role: 'assistant', ...message } }] } };
  const { tool_calls: calls, ...rest } = message as { tool_calls?: Array<Record<string, unknown>> };
  const chunk = (delta: unknown, finishReason: string | null = null) => ({ data: JSON.stringify({ ...body, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] }) });
  return { sse: [chunk({ role: 'assistant', ...rest }), ...(calls ?? []).map((call, index) => chunk({ tool_calls: [{ index, ...call }] })), chunk({}, finish), { data: '[DONE]' }] };
};

/** DeepSeek's thinking mode: a call with its reasoning, then the answer; refuses a call sent back without its reasoning_content. */
const deepseek = (request: RecordedRequest, index: number): WireReply => {
  const body = request.body as { messages: Array<Record<string, unknown>>; stream?: boolean };
  const problems = deepseekReasoningProblems(body.messages);
  if (problems.length) return { status: 400, json: { error: { message: problems[0], type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } };
  return index === 0
    ? completion({ content: '', reasoning_content: 'I should call get_weather.', tool_calls: [{ id: 'call_00_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }, 'tool_calls', !!body.stream)
    : completion({ content: 'Sunny, 21C.', reasoning_content: 'Done.' }, 'stop', !!body.stream);
};

async function run(model: OpenAIModel, stream: boolean): Promise<Event[]> {
  const runner = new Runner({ appName: 'w', agent: new LlmAgent({ name: 'a', model, tools: [getWeather] }) });
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Paris?' }] }, streaming: stream })) {
    if (!event.partial) events.push(event);
  }
  return events;
}

describe('OpenAIModel, Chat Completions on a compatible server in thinking mode (DeepSeek)', () => {
  it.each([false, true])('sends the reasoning of a tool-calling turn back as reasoning_content (stream: %s)', async (stream) => {
    server = await startWireServer(deepseek);
    const events = await run(new OpenAIModel({ model: 'deepseek-reasoner', baseURL: `${server.url}/v1`, strict: false, retry: false }), stream);
    expect(events.at(-1)!.errorCode).toBeUndefined();
    expect(events.at(-1)!.text?.()).toBe('Sunny, 21C.');
    expect(server.requests[1].body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_00_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      reasoning_content: 'I should call get_weather.',
    });
  });

  it("api.openai.com gets no reasoning_content: the request is OpenAI's as before", async () => {
    server = await startWireServer(deepseek);
    const local = server.url;
    // OpenAI's own base URL, its requests delivered to the local server.
    const client = new OpenAI({ apiKey: 'k', baseURL: 'https://api.openai.com/v1', maxRetries: 0, fetch: (url, init) => fetch(String(url).replace('https://api.openai.com', local), init) });
    const events = await run(new OpenAIModel({ model: 'gpt-4.1-mini', client, strict: false, retry: false }), false);
    expect(server.requests[1].body.messages[1]).not.toHaveProperty('reasoning_content');
    // The fake is DeepSeek's: it refuses what OpenAI's API takes.
    expect(events.at(-1)!.errorMessage).toContain('Missing `reasoning_content` field in the assistant message at message index 1');
  });
});
