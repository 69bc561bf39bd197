import type { Content, LlmRequest } from '@toolsmith/core';
import { type RecordedRequest, type WireReply, type WireServer, collect, startWireServer } from '@toolsmith/core/testing';
import { type AnthropicContextManagement, AnthropicModel } from './anthropic-model';
import { anthropicMessage } from './__fixtures__/anthropic-message';

const weatherTool = { name: 'get_weather', description: 'Current weather for a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const ask = (contents: Content[]): LlmRequest => ({ contents, tools: [weatherTool] });

const clearToolUses: AnthropicContextManagement = {
  edits: [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 30_000 }, keep: { type: 'tool_uses', value: 3 }, clear_at_least: { type: 'input_tokens', value: 5_000 } }],
};
const compact: AnthropicContextManagement = { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 150_000 } }] };

/** A streamed answer that starts with a compaction block (its summary and opaque metadata in one compaction_delta), then text. */
const compactedStream = (summary: string, encrypted: string, text: string) =>
  [
    { type: 'message_start', message: { id: 'msg_c', type: 'message', role: 'assistant', model: 'claude-sonnet-5-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 40, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'compaction', content: null, encrypted_content: null } },
    { type: 'content_block_delta', index: 0, delta: { type: 'compaction_delta', content: summary, encrypted_content: encrypted } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text } },
    { type: 'content_block_stop', index: 1 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } },
    { type: 'message_stop' },
  ].map((data) => ({ event: data.type, data }));

describe('AnthropicModel: contextManagement (Anthropic context editing and compaction, a beta)', () => {
  let server: WireServer | undefined;
  const requests: RecordedRequest[] = [];
  const start = async (contextManagement: AnthropicContextManagement, reply: (index: number) => WireReply) => {
    requests.length = 0;
    server = await startWireServer((request, index) => {
      requests.push(request);
      return reply(index);
    });
    return new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 512, apiKey: 'test-key', baseURL: server.url, maxRetries: 0, contextManagement });
  };
  afterEach(async () => {
    await server?.close();
    expect(server?.handlerErrors ?? []).toEqual([]);
    server = undefined;
  });

  it('clear_tool_uses: the request carries context_management exactly as given, with its beta (the anthropic-beta header); the whole history goes every time', async () => {
    const model = await start(clearToolUses, (index) => ({
      json:
        index === 0
          ? anthropicMessage([{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }], { stopReason: 'tool_use' })
          : { ...anthropicMessage([{ type: 'text', text: 'Sunny.' }]), context_management: { applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 1, cleared_input_tokens: 6_000 }] } },
    }));
    const [first] = await collect(model.generate(ask([user('Paris?')])));
    const history = [user('Paris?'), first.content!, { role: 'user' as const, parts: [{ functionResponse: { id: 'toolu_1', name: 'get_weather', response: { sky: 'clear' } } }] }];
    const [second] = await collect(model.generate(ask(history)));
    expect(second.content!.parts).toEqual([{ text: 'Sunny.' }]);
    for (const request of requests) {
      expect(request.path).toBe('/v1/messages');
      expect(request.headers['anthropic-beta']).toBe('context-management-2025-06-27');
      expect(request.body.context_management).toEqual(clearToolUses);
      expect(request.body).not.toHaveProperty('betas');
    }
    expect(requests[1].body.messages.map((m: { role: string; content: Array<{ type: string }> }) => [m.role, m.content.map((block) => block.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['tool_use']],
      ['user', ['tool_result']],
    ]);
  });

  it('compact: a compaction block (streamed or not) is kept whole and sent back unchanged, in its place, with the next request', async () => {
    const again = { type: 'compaction', content: 'Paris weather, then tomorrow.', encrypted_content: 'opaque-meta-2' };
    const model = await start(compact, (index) => (index === 0 ? { sse: compactedStream('The user asked about Paris weather.', 'opaque-meta-1', 'Sunny.') } : { json: anthropicMessage([again, { type: 'text', text: 'Rain tomorrow.' }]) }));
    const streamed = await collect(model.generate(ask([user('Paris?')]), { stream: true }));
    const compaction = { type: 'compaction', content: 'The user asked about Paris weather.', encrypted_content: 'opaque-meta-1' };
    expect(streamed.at(-1)!.content!.parts).toEqual([{ providerData: { provider: 'anthropic', data: compaction } }, { text: 'Sunny.' }]);
    const [next] = await collect(model.generate(ask([user('Paris?'), streamed.at(-1)!.content!, user('And tomorrow?')])));
    expect(next.content!.parts).toEqual([{ providerData: { provider: 'anthropic', data: again } }, { text: 'Rain tomorrow.' }]);
    expect(requests.map((request) => [request.headers['anthropic-beta'], request.body.stream, request.body.context_management])).toEqual([
      ['compact-2026-01-12', true, compact],
      ['compact-2026-01-12', undefined, compact], // stream: false is the API's default, not sent
    ]);
    expect(requests[1].body.messages[1]).toEqual({ role: 'assistant', content: [compaction, { type: 'text', text: 'Sunny.' }] });
  });

  it('reports the body handed to the SDK, context_management and betas included, to a provider-exchange observer', async () => {
    const model = await start(clearToolUses, () => ({ json: anthropicMessage([{ type: 'text', text: 'Hi.' }]) }));
    const bodies: unknown[] = [];
    await collect(model.generate(ask([user('Hi')]), { onProviderExchange: (exchange) => bodies.push(exchange.body) }));
    expect(bodies).toEqual([expect.objectContaining({ context_management: clearToolUses, betas: ['context-management-2025-06-27'] })]);
    expect(bodies[0]).not.toHaveProperty('stream');
  });

  it('refuses an edit of an unknown type, no edit at all, edits that are not an array and an edit that is not an object, with AGENT_CONFIG_INVALID', () => {
    const options = { model: 'claude-sonnet-5-5', maxTokens: 512, apiKey: 'test-key' };
    expect(() => new AnthropicModel({ ...options, contextManagement: { edits: [{ type: 'clear_everything' } as never] } })).toThrow(
      expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('unknown type "clear_everything"') }),
    );
    expect(() => new AnthropicModel({ ...options, contextManagement: { edits: [] } })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('at least one edit') }));
    expect(() => new AnthropicModel({ ...options, contextManagement: { edits: [null] as never } })).toThrow(
      expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('contextManagement.edits[0] must be an object with a type (clear_tool_uses_20250919') }),
    );
    expect(() => new AnthropicModel({ ...options, contextManagement: { edits: 'clear_tool_uses_20250919' as never } })).toThrow(
      expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('contextManagement.edits must be an array of edits') }),
    );
    expect(() => new AnthropicModel({ ...options, contextManagement: { edits: [{ type: 'constructor' } as never] } })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('unknown type "constructor"') }));
  });
});
