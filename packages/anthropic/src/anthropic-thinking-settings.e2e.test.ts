import { type Event, LlmAgent, Runner, type ToolChoice, functionTool } from '@toolsmith/core';
import { type RecordedRequest, type WireReply, type WireServer, startWireServer } from '@toolsmith/core/testing';
import { AnthropicModel } from './anthropic-model';
import { anthropicMessage } from './__fixtures__/anthropic-message';

/**
 * The Messages API's rules for extended thinking (docs: "Building with extended thinking", tool use and
 * max tokens; the 400 messages are the API's): a tool_choice that forces tool use (`any`, `tool`) is
 * refused, and so is a max_tokens that is not greater than thinking.budget_tokens.
 */
function messagesApi(request: RecordedRequest): WireReply {
  const body = request.body as { max_tokens: number; thinking?: { type: string; budget_tokens?: number }; tool_choice?: { type: string } };
  const refuse = (message: string): WireReply => ({ status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message } } });
  if (body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive') {
    if (body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool') return refuse('Thinking may not be enabled when tool_choice forces tool use.');
    if (body.thinking.budget_tokens !== undefined && !(body.max_tokens > body.thinking.budget_tokens)) return refuse('`max_tokens` must be greater than `thinking.budget_tokens`.');
  }
  return { json: anthropicMessage([{ type: 'text', text: 'Sunny' }], { id: 'msg_1' }) };
}

const getWeather = functionTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }: { city: string }) => ({ city, tempC: 21 }),
});

describe('AnthropicModel with extended thinking: what the API refuses is refused when the Runner is built', () => {
  let server: WireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const model = () => new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 4096, apiKey: 'test-key', baseURL: server!.url, retry: false, thinking: { type: 'enabled', budget_tokens: 2048 } });
  const runner = (options: { toolChoice?: ToolChoice; maxOutputTokens?: number; beforeModel?: (request: { toolChoice?: ToolChoice }) => void }) =>
    new Runner({
      appName: 'weather',
      agent: new LlmAgent({
        name: 'forecaster',
        model: model(),
        tools: [getWeather],
        ...(options.toolChoice ? { toolChoice: options.toolChoice } : {}),
        ...(options.maxOutputTokens ? { generationConfig: { maxOutputTokens: options.maxOutputTokens } } : {}),
        ...(options.beforeModel ? { callbacks: { beforeModel: ({ request }) => void options.beforeModel!(request) } } : {}),
      }),
    });
  const run = async (built: Runner): Promise<Event[]> => {
    const events: Event[] = [];
    for await (const event of built.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] } })) events.push(event);
    return events;
  };

  it.each([
    ['required', { toolChoice: 'required' as const }, /toolChoice "required" \(tool_choice \{"type":"any"\}\) forces tool use.*thinking \{"type":"enabled","budget_tokens":2048\}/],
    ['one tool', { toolChoice: { type: 'tool' as const, name: 'get_weather' } }, /toolChoice \{"type":"tool","name":"get_weather"\} \(tool_choice \{"type":"tool"\}\) forces tool use.*thinking/],
    ['maxOutputTokens 1000', { maxOutputTokens: 1000 }, /generationConfig\.maxOutputTokens 1000 \(max_tokens\) must be greater than AnthropicModel option thinking\.budget_tokens 2048/],
    ['maxOutputTokens equal to the budget', { maxOutputTokens: 2048 }, /maxOutputTokens 2048 \(max_tokens\) must be greater than .*budget_tokens 2048/],
  ])('refuses %s with thinking, naming both settings, before anything is sent', async (_label, options, message) => {
    server = await startWireServer(messagesApi);
    expect(() => runner(options)).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringMatching(message) }));
    expect(server.requests).toHaveLength(0);
  });

  it('takes auto, none and a maxOutputTokens above the budget; a request a callback forced is refused before it is sent', async () => {
    server = await startWireServer(messagesApi);
    for (const toolChoice of ['auto', 'none'] as const) expect((await run(runner({ toolChoice, maxOutputTokens: 4096 }))).at(-1)!.text()).toBe('Sunny');
    expect(server.requests).toHaveLength(2);
    const events = await run(runner({ beforeModel: (request) => void (request.toolChoice = 'required') }));
    expect(events.at(-1)).toMatchObject({ errorCode: 'AGENT_CONFIG_INVALID', errorMessage: expect.stringContaining('The request: toolChoice "required"') });
    expect(server.requests).toHaveLength(2);
  });
});
