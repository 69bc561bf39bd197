import type { Attributes } from '@opentelemetry/api';
import type { Usage } from '../model/llm-response';
import { TraceAttribute } from './gen-ai-conventions';

/** Writes the `gen_ai.usage.*` attributes of the counts `usage` has into `attributes`. */
export function setUsageAttributes(attributes: Attributes, usage: Usage | undefined): void {
  if (!usage) return;
  if (usage.inputTokens !== undefined) attributes[TraceAttribute.USAGE_INPUT_TOKENS] = usage.inputTokens;
  if (usage.outputTokens !== undefined) attributes[TraceAttribute.USAGE_OUTPUT_TOKENS] = usage.outputTokens;
  if (usage.cachedInputTokens !== undefined) attributes[TraceAttribute.USAGE_CACHE_READ_INPUT_TOKENS] = usage.cachedInputTokens;
  if (usage.reasoningTokens !== undefined) attributes[TraceAttribute.USAGE_REASONING_OUTPUT_TOKENS] = usage.reasoningTokens;
}
