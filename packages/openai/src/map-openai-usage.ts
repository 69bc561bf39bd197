import type { Usage } from '@toolsmith/core';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ResponseUsage } from 'openai/resources/responses/responses';

/** Maps Chat Completions `usage` to Toolsmith's {@link Usage}. */
export function mapOpenAIChatUsage(usage: CompletionUsage | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  return withoutUndefined({
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens,
  });
}

/** Maps Responses API `usage` to Toolsmith's {@link Usage}. */
export function mapOpenAIResponsesUsage(usage: ResponseUsage | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  return withoutUndefined({
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    totalTokens: usage.total_tokens,
    cachedInputTokens: usage.input_tokens_details?.cached_tokens,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens,
  });
}

function withoutUndefined(usage: Usage): Usage {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => typeof value === 'number')) as Usage;
}
