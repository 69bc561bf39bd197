import type Anthropic from '@anthropic-ai/sdk';
import { InMemorySessionService, LlmAgent, Runner, functionTool, type Event } from '@toolsmith/core';
import { AnthropicModel } from './anthropic-model';
import { mapAnthropicMessage, mapAnthropicUsage } from './map-anthropic-response';

describe('mapAnthropicMessage', () => {
  it('maps text, thinking and tool_use blocks in order and keeps server tool blocks as provider data', () => {
    const response = mapAnthropicMessage({
      id: 'msg_1',
      model: 'claude-sonnet-5-5',
      stop_reason: 'tool_use',
      usage: { input_tokens: 3, output_tokens: 4 } as Anthropic.Usage,
      content: [
        { type: 'thinking', thinking: 'plan', signature: 'sig' },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
        { type: 'text', text: 'Found it.', citations: null },
        { type: 'tool_use', id: 'toolu_1', name: 'save', input: { note: 'x' } },
        { type: 'tool_use', id: 'toolu_2', name: 'save', input: 'oops' },
      ] as Anthropic.ContentBlock[],
    });
    expect(response.content?.parts).toEqual([
      { text: 'plan', thought: true, thoughtSignature: 'sig', thoughtSignatureProvider: 'anthropic' },
      { providerData: { provider: 'anthropic', data: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } } } },
      { text: 'Found it.' },
      { functionCall: { id: 'toolu_1', name: 'save', args: { note: 'x' } } },
      // A non-object input goes to the executor as JSON text, which it reports as malformed.
      { functionCall: { id: 'toolu_2', name: 'save', args: '"oops"' } },
    ]);
    expect(response).toMatchObject({ turnComplete: true, finishReason: { unified: 'tool-calls', raw: 'tool_use' } });
  });
});

describe('tool_use input holding a number JSON cannot carry (the SDK parses 1e999 as Infinity)', () => {
  const text = (input: string) =>
    `{"id":"m","type":"message","role":"assistant","model":"c","content":[{"type":"tool_use","id":"toolu_1","name":"t","input":${input}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`;
  const body = (input: string) => JSON.parse(text(input)) as Anthropic.Message;

  it('is mapped with the number kept (never null), for the argument check to refuse', () => {
    const response = mapAnthropicMessage(body('{"n":[1,{"m":-1e999}]}'));
    expect((response.content!.parts[0].functionCall!.args as { n: [number, { m: number }] }).n[1].m).toBe(-Infinity);
  });

  it('is answered MALFORMED_ARGUMENTS by the runner; the tool never runs', async () => {
    const ran: unknown[] = [];
    // The bodies as they come over the wire: the adapter reads the HTTP response (`asResponse`) and parses it, as the SDK would.
    const replies = [text('{"n":[1,{"m":-1e999}]}'), '{"id":"m2","type":"message","role":"assistant","model":"c","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}'];
    const reply = () => new Response(replies.shift(), { headers: { 'content-type': 'application/json' } });
    const client = { baseURL: 'https://api.anthropic.com', messages: { create: () => ({ asResponse: async () => reply() }) } } as unknown as Anthropic;
    const tool = functionTool({ name: 't', description: 'd', parameters: { type: 'object', properties: { n: { type: 'array' } } }, execute: (args: Record<string, unknown>) => (ran.push(args), { ok: true }) });
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model: new AnthropicModel({ model: 'claude-sonnet-4-5', maxTokens: 100, client }), tools: [tool] }), sessionService: new InMemorySessionService() });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'go' }] } })) events.push(event);
    expect(ran).toEqual([]);
    expect(events.flatMap((event) => event.functionResponses()).map((r) => (r.response.error as { code?: string } | undefined)?.code)).toEqual(['MALFORMED_ARGUMENTS']);
    expect(events.at(-1)!.content?.parts).toEqual([{ text: 'ok' }]);
  });
});

describe('mapAnthropicUsage', () => {
  it('counts cached input in the input total and reports it separately', () => {
    expect(mapAnthropicUsage({ input_tokens: 10, cache_read_input_tokens: 90, cache_creation_input_tokens: 5, output_tokens: 20 })).toEqual({
      inputTokens: 105,
      outputTokens: 20,
      totalTokens: 125,
      cachedInputTokens: 90,
    });
    expect(mapAnthropicUsage(undefined)).toBeUndefined();
  });
});
