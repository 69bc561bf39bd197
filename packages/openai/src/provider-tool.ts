import type { ProviderTool } from '@toolsmith/core';
import type { Tool as ResponsesTool } from 'openai/resources/responses/responses';

/** The provider id of OpenAI models and provider tools. */
export const OPENAI_PROVIDER = 'openai';

/** The config of an OpenAI hosted tool, as the Responses API takes it (anything but a function tool). */
export type OpenAIHostedToolConfig = Exclude<ResponsesTool, { type: 'function' }>;

/**
 * Declares one of OpenAI's hosted tools (web search, file search, code interpreter, image generation,
 * remote MCP, …) for an agent. The config is sent to the Responses API untouched; Chat Completions
 * cannot run hosted tools and refuses it, and a model of another provider refuses it at startup.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({
 *   name: 'researcher',
 *   model: new OpenAIModel({ model: 'gpt-4.1-mini', api: 'responses' }),
 *   tools: [providerTool({ type: 'web_search' })],
 * });
 * ```
 */
export function providerTool(config: OpenAIHostedToolConfig): ProviderTool {
  return { kind: 'provider-tool', provider: OPENAI_PROVIDER, name: config.type, config: { ...config } as Record<string, unknown> };
}
