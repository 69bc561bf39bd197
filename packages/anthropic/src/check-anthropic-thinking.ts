import type Anthropic from '@anthropic-ai/sdk';
import { AgentConfigError, type ToolChoice } from '@toolsmith/core';

/** The settings of one request that extended thinking constrains. */
export interface ThinkingRequestSettings {
  /** `max_tokens` as sent: `config.maxOutputTokens`, else the adapter's `maxTokens`. */
  maxTokens: number;
  /** Where `maxTokens` came from, for the message (`maxTokens`, `generationConfig.maxOutputTokens`). */
  maxTokensFrom: string;
  /** The tool choice sent (absent: the API's default, `auto`). */
  toolChoice?: ToolChoice;
  /** Whose settings these are, for the message, e.g. `Agent "a"`. */
  owner: string;
}

/**
 * Refuses what Anthropic refuses with extended thinking (400 `invalid_request_error`; docs: "Extended
 * thinking", tool use and max tokens): a tool choice that forces tool use (`toolChoice: 'required'`, sent
 * as `any`, or one tool, sent as `tool`: "Thinking may not be enabled when tool_choice forces tool use"),
 * and `max_tokens` not above `thinking.budget_tokens` ("max_tokens must be greater than
 * thinking.budget_tokens"). Throws `AgentConfigError` (`AGENT_CONFIG_INVALID`) naming both settings.
 */
export function checkAnthropicThinking(thinking: Anthropic.ThinkingConfigParam | undefined, settings: ThinkingRequestSettings): void {
  if (!thinking || (thinking.type !== 'enabled' && thinking.type !== 'adaptive')) return;
  const { toolChoice, owner } = settings;
  if (toolChoice === 'required' || (typeof toolChoice === 'object' && toolChoice !== null)) {
    const sent = toolChoice === 'required' ? `"required" (tool_choice {"type":"any"})` : `${JSON.stringify(toolChoice)} (tool_choice {"type":"tool"})`;
    throw new AgentConfigError(
      `${owner}: toolChoice ${sent} forces tool use, which Anthropic refuses with AnthropicModel option thinking ${JSON.stringify(thinking)} ` +
        '("Thinking may not be enabled when tool_choice forces tool use"). Use toolChoice "auto" or "none", or leave thinking off.',
    );
  }
  if (thinking.type === 'enabled' && !(settings.maxTokens > thinking.budget_tokens)) {
    throw new AgentConfigError(
      `${owner}: ${settings.maxTokensFrom} ${settings.maxTokens} (max_tokens) must be greater than AnthropicModel option thinking.budget_tokens ${thinking.budget_tokens}, ` +
        'or Anthropic refuses the request ("max_tokens must be greater than thinking.budget_tokens"). Raise it above the budget, or lower budget_tokens.',
    );
  }
}
