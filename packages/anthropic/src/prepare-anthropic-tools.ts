import type Anthropic from '@anthropic-ai/sdk';
import type { LlmRequest } from '@toolsmith/core';
import { selectProviderTools } from '@toolsmith/core/adapter-kit';
import { checkAnthropicTools } from './check-anthropic-tools';
import { ANTHROPIC_PROVIDER } from './provider-tool';
import { toAnthropicInputSchema } from './to-anthropic-input-schema';

/** The `tools` and `tool_choice` request fields, as {@link prepareAnthropicTools} builds them. */
export interface AnthropicToolFields {
  tools?: Anthropic.ToolUnion[];
  tool_choice?: Anthropic.ToolChoice;
}

/**
 * Builds `tools` (function declarations as `input_schema`, then Anthropic server tools as given) and
 * `tool_choice` (with `disable_parallel_tool_use` when parallel calls are off; left out for plain `auto`,
 * the API's default when tools are sent). Provider tools of
 * another provider are refused with `PROVIDER_TOOL_MISMATCH`.
 */
export function prepareAnthropicTools(request: Pick<LlmRequest, 'tools' | 'providerTools' | 'toolChoice' | 'config'>): AnthropicToolFields {
  // The runner checked its tools when it was built; declarations added per request are checked here.
  checkAnthropicTools(request.tools);
  const tools: Anthropic.ToolUnion[] = request.tools.map((declaration) => {
    const { inputSchema, description } = toAnthropicInputSchema(declaration);
    return { name: declaration.name, description, input_schema: inputSchema as Anthropic.Tool.InputSchema };
  });
  for (const config of selectProviderTools(request.providerTools, ANTHROPIC_PROVIDER, 'an Anthropic model')) {
    tools.push(config as unknown as Anthropic.ToolUnion);
  }
  if (tools.length === 0) return {};

  const disableParallel = request.config?.parallelToolCalls === false;
  const tool_choice = toToolChoice(request.toolChoice, disableParallel);
  return tool_choice ? { tools, tool_choice } : { tools };
}

/** The `tool_choice`, or `undefined` for plain `auto`: the API's default when tools are sent, so it is not sent. */
function toToolChoice(choice: LlmRequest['toolChoice'], disableParallel: boolean): Anthropic.ToolChoice | undefined {
  const parallel = disableParallel ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined || choice === 'auto') return disableParallel ? { type: 'auto', ...parallel } : undefined;
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any', ...parallel };
  return { type: 'tool', name: choice.name, ...parallel };
}
