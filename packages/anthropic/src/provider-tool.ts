import type { ProviderTool } from '@toolsmith/core';

/** The provider id of {@link AnthropicModel} and of the tools {@link providerTool} creates. */
export const ANTHROPIC_PROVIDER = 'anthropic';

/**
 * An Anthropic server tool definition as the Messages API takes it in `tools`, e.g.
 * `{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }`.
 */
export interface AnthropicServerToolConfig {
  /** The versioned tool type, e.g. `web_search_20250305`, `code_execution_20250825`. */
  type: string;
  /** The tool's name as the API expects it, e.g. `web_search`. */
  name: string;
  /** The tool type's other options (e.g. `max_uses`, `allowed_domains`, `user_location`), sent as given. */
  [option: string]: unknown;
}

/**
 * Declares an Anthropic server tool (web search, web fetch, code execution, …) for an agent. The
 * config is sent in `tools` untouched; the tool runs at Anthropic, so no function call reaches the agent.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({
 *   name: 'researcher',
 *   model: new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 1024 }),
 *   tools: [providerTool({ type: 'web_search_20250305', name: 'web_search', max_uses: 3 })],
 * });
 * ```
 */
export function providerTool(config: AnthropicServerToolConfig): ProviderTool {
  return { kind: 'provider-tool', provider: ANTHROPIC_PROVIDER, name: config.name, config: { ...config } };
}
