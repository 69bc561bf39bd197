import type Anthropic from '@anthropic-ai/sdk';
import type { LlmResponse, Part, Usage } from '@toolsmith/core';
import { argsFromJsonValue, providerDataPart, signedBy } from '@toolsmith/core/adapter-kit';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';
import { ANTHROPIC_PROVIDER } from './provider-tool';

/** The usage fields both a `Message` and a stream's `message_delta` carry. */
type AnthropicUsage = Pick<Anthropic.Usage, 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'>;

/**
 * Maps a complete Messages API `Message` to the final {@link LlmResponse}: text and thinking blocks
 * become parts, `tool_use` blocks become function calls with their `input` as arguments. Every other
 * block (server tools' `server_tool_use` and `web_search_tool_result` and the like, `redacted_thinking`)
 * is kept as it came in a `providerData` part, because the API wants it back in the history of the
 * next turns; {@link convertToAnthropicMessages} sends it unchanged.
 */
export function mapAnthropicMessage(message: Pick<Anthropic.Message, 'content' | 'stop_reason' | 'usage' | 'id' | 'model'>): LlmResponse {
  const parts: Part[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      if (block.text) parts.push({ text: block.text });
    } else if (block.type === 'thinking') {
      parts.push({ text: block.thinking, thought: true, ...signedBy(ANTHROPIC_PROVIDER, block.signature) });
    } else if (block.type === 'tool_use') {
      parts.push({ functionCall: { id: block.id, name: block.name, args: argsFromJsonValue(block.input) } });
    } else {
      parts.push(providerDataPart(ANTHROPIC_PROVIDER, block));
    }
  }
  return {
    content: { role: 'model', parts },
    turnComplete: true,
    finishReason: mapAnthropicStopReason(message.stop_reason),
    usage: mapAnthropicUsage(message.usage),
    responseId: message.id,
    providerMetadata: { anthropic: { messageId: message.id, model: message.model } },
  };
}

/**
 * Maps Anthropic usage to {@link Usage}. Anthropic counts cached input separately from
 * `input_tokens`; the total input is the sum of all three.
 */
export function mapAnthropicUsage(usage: Partial<AnthropicUsage> | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const input = (usage.input_tokens ?? 0) + cacheRead + (usage.cache_creation_input_tokens ?? 0);
  const output = usage.output_tokens ?? 0;
  const result: Usage = { inputTokens: input, outputTokens: output, totalTokens: input + output };
  if (cacheRead) result.cachedInputTokens = cacheRead;
  return result;
}
