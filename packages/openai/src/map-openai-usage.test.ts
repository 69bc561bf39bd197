import { mapOpenAIChatUsage, mapOpenAIResponsesUsage } from './map-openai-usage';

describe('usage mapping', () => {
  it('maps Chat Completions usage, leaving out what is missing', () => {
    expect(mapOpenAIChatUsage({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, prompt_tokens_details: { cached_tokens: 3 } })).toEqual({
      inputTokens: 5,
      outputTokens: 2,
      totalTokens: 7,
      cachedInputTokens: 3,
    });
    expect(mapOpenAIChatUsage({ prompt_tokens: 5, completion_tokens: 40, total_tokens: 45, completion_tokens_details: { reasoning_tokens: 32 } })).toEqual({
      inputTokens: 5,
      outputTokens: 40,
      totalTokens: 45,
      reasoningTokens: 32,
    });
    expect(mapOpenAIChatUsage({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 })).toEqual({ inputTokens: 5, outputTokens: 2, totalTokens: 7 });
    expect(mapOpenAIChatUsage(null)).toBeUndefined();
  });

  it('maps Responses usage, reasoning tokens included', () => {
    expect(
      mapOpenAIResponsesUsage({
        input_tokens: 90,
        input_tokens_details: { cached_tokens: 64 },
        output_tokens: 300,
        output_tokens_details: { reasoning_tokens: 256 },
        total_tokens: 390,
      } as never),
    ).toEqual({ inputTokens: 90, outputTokens: 300, totalTokens: 390, cachedInputTokens: 64, reasoningTokens: 256 });
    expect(
      mapOpenAIResponsesUsage({
        input_tokens: 9,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        output_tokens: 1,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 10,
      }),
    ).toEqual({ inputTokens: 9, outputTokens: 1, totalTokens: 10, cachedInputTokens: 0, reasoningTokens: 0 });
    expect(mapOpenAIResponsesUsage(undefined)).toBeUndefined();
  });
});
