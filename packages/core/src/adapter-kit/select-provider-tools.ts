import { providerToolMismatchMessage } from '../errors/messages';
import { ToolsmithError } from '../errors/toolsmith-error';
import type { ProviderTool } from '../model/provider-tool';

/**
 * Returns the `config` of each provider tool, in order, after checking that every one belongs to
 * `provider`. A tool of another provider throws `PROVIDER_TOOL_MISMATCH` naming the tool and the fix:
 * the runner refuses such agents at startup, and an adapter must not send (or silently drop) a tool the
 * agent was given.
 *
 * @example
 * ```ts
 * tools.push(...selectProviderTools(request.providerTools, 'anthropic', 'an Anthropic model'));
 * ```
 */
export function selectProviderTools(
  tools: readonly ProviderTool[] | undefined,
  provider: string,
  modelDescription: string,
): Record<string, unknown>[] {
  return (tools ?? []).map((tool) => {
    if (tool.provider !== provider) {
      throw new ToolsmithError(
        'PROVIDER_TOOL_MISMATCH',
        providerToolMismatchMessage(tool.name, tool.provider, modelDescription),
        { details: { toolName: tool.name, toolProvider: tool.provider, modelProvider: provider } },
      );
    }
    return tool.config;
  });
}
