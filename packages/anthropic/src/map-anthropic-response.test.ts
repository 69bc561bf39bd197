import type Anthropic from '@anthropic-ai/sdk';
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
