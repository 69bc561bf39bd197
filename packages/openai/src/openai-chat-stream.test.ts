import type { LlmResponse } from '@toolsmith/core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { readOpenAIChatStream } from './openai-chat-stream';

type Delta = Record<string, unknown>;
const chunk = (delta: Delta | undefined, finish: string | null = null, usage: unknown = null): ChatCompletionChunk =>
  ({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: delta === undefined ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage,
  }) as ChatCompletionChunk;

async function read(chunks: ChatCompletionChunk[], strictSchemas = new Map()): Promise<LlmResponse[]> {
  async function* source() {
    yield* chunks;
  }
  const out: LlmResponse[] = [];
  for await (const response of readOpenAIChatStream(source(), { strictSchemas, server: 'https://api.openai.com/v1' })) out.push(response);
  return out;
}

describe('readOpenAIChatStream', () => {
  it('yields reasoning and text deltas as partials, then the whole turn', async () => {
    const out = await read([
      chunk({ role: 'assistant', reasoning_content: 'Think' }),
      chunk({ reasoning_content: 'ing.' }),
      chunk({ content: 'Hi' }),
      chunk({ content: ' there' }),
      chunk({}, 'stop'),
    ]);
    expect(out.map((r) => r.partial)).toEqual([true, true, true, true, undefined]);
    expect(out[0].content?.parts).toEqual([{ text: 'Think', thought: true }]);
    expect(out.at(-1)).toEqual({
      content: { role: 'model', parts: [{ text: 'Thinking.', thought: true }, { text: 'Hi there' }] },
      turnComplete: true,
      finishReason: { unified: 'stop', raw: 'stop' },
      responseId: 'c',
    });
  });

  it('assembles calls by index, and splits calls a server sends whole under one index', async () => {
    const out = await read([
      chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'c', type: 'function', function: { name: 'h', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 2, id: 'd', type: 'function', function: { name: 'i', arguments: { y: 2 } } }] }),
      chunk({}, 'tool_calls'),
      chunk(undefined, null, { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 }),
    ]);
    // A partial per argument piece (an object sent whole counts as its JSON text), then the complete response.
    expect(out.filter((r) => r.partial).map((r) => r.content?.parts[0].partialFunctionCall)).toEqual([
      { id: 'a', name: 'f', argsText: '{"x":', argsDelta: '{"x":' },
      { id: 'a', name: 'f', argsText: '{"x":1}', argsDelta: '1}' },
      { id: 'b', name: 'g', argsText: '{}', argsDelta: '{}' },
      { id: 'd', name: 'i', argsText: '{"y":2}', argsDelta: '{"y":2}' },
    ]);
    out.splice(0, out.length - 1);
    expect(out[0].content?.parts.map((p) => p.functionCall)).toEqual([
      { id: 'a', name: 'f', args: { x: 1 } },
      { id: 'b', name: 'g', args: {} },
      { id: 'c', name: 'h', args: {} },
      { id: 'd', name: 'i', args: { y: 2 } },
    ]);
    expect(out[0].usage).toEqual({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });
  });

  it('throws PROVIDER_RESPONSE_INVALID when the stream ends without a finish_reason', async () => {
    await expect(read([chunk({ content: 'Hi' })])).rejects.toMatchObject({ code: 'PROVIDER_RESPONSE_INVALID' });
  });
});
