import type Anthropic from '@anthropic-ai/sdk';
import type { LlmResponse } from '@toolsmith/core';
import { assembleAnthropicStream } from './anthropic-stream';

async function run(events: unknown[]): Promise<LlmResponse[]> {
  async function* source() {
    for (const event of events) yield event as Anthropic.RawMessageStreamEvent;
  }
  const out: LlmResponse[] = [];
  for await (const response of assembleAnthropicStream(source())) out.push(response);
  return out;
}

const start = { type: 'message_start', message: { id: 'msg_1', model: 'm', usage: { input_tokens: 10, output_tokens: 1 } } };
const stop = [
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7, input_tokens: null } },
  { type: 'message_stop' },
];

describe('assembleAnthropicStream', () => {
  it('yields thinking deltas as partial thoughts and keeps the signature on the final part', async () => {
    const responses = await run([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQB' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Done' } },
      ...stop,
    ]);
    expect(responses.map((r) => r.content?.parts)).toEqual([
      [{ text: 'Hmm', thought: true }],
      [{ text: 'Done' }],
      [{ text: 'Hmm', thought: true, thoughtSignature: 'EqQB', thoughtSignatureProvider: 'anthropic' }, { text: 'Done' }],
    ]);
    expect(responses[2].usage).toEqual({ inputTokens: 10, outputTokens: 7, totalTokens: 17 });
  });

  it('keeps server tool blocks whole as provider data, with their input assembled from its fragments', async () => {
    const responses = await run([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"x"}' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] } },
      { type: 'content_block_start', index: 2, content_block: { type: 'redacted_thinking', data: 'EmwKAhgB' } },
      ...stop,
    ]);
    expect(responses).toHaveLength(1);
    expect(responses[0].content?.parts).toEqual([
      { providerData: { provider: 'anthropic', data: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } } } },
      { providerData: { provider: 'anthropic', data: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] } } },
      { providerData: { provider: 'anthropic', data: { type: 'redacted_thinking', data: 'EmwKAhgB' } } },
    ]);
  });

  it('refuses a server tool input that does not assemble to a JSON object', async () => {
    await expect(
      run([
        start,
        { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} } },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":' } },
        ...stop,
      ]),
    ).rejects.toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID', message: expect.stringContaining('server tool input') });
  });

  it('refuses a stream that ends before message_stop or sends deltas for unknown blocks', async () => {
    await expect(run([start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }])).rejects.toMatchObject({
      code: 'PROVIDER_RESPONSE_INVALID',
    });
    await expect(run([start, { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'x' } }])).rejects.toMatchObject({
      code: 'PROVIDER_RESPONSE_INVALID',
    });
  });
});
