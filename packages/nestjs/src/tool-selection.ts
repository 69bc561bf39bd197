import { AgentConfigError, BaseTool, isToolset } from '@toolsmith/core';
import type { AgentToolEntry } from '@toolsmith/core';
import type { DiscoveredToolset } from './discovered-toolset';
import type { ToolFilterSelector, ToolSelector, ToolsetPrefixSelector } from './tool-selector';

/**
 * Turns an agent's selectors into `LlmAgent` tool entries: classes, prefixes and filters pick from the
 * discovered toolsets (each tool at most once); other entries pass through. Throws
 * {@link AgentConfigError} at startup when a class or prefix matches no discovered toolset.
 */
export function selectTools(
  agentName: string,
  selectors: readonly ToolSelector[],
  discovered: readonly DiscoveredToolset[],
): AgentToolEntry[] {
  const entries: AgentToolEntry[] = [];
  const chosen = new Set<BaseTool>();
  const take = (tools: Iterable<BaseTool>) => {
    for (const tool of tools) {
      if (chosen.has(tool)) continue;
      chosen.add(tool);
      entries.push(tool);
    }
  };

  for (const selector of selectors) {
    if (typeof selector === 'function') {
      const matches = discovered.filter((d) => d.toolsetClass === selector);
      if (matches.length === 0) {
        throw new AgentConfigError(
          `Agent "${agentName}" lists ${selector.name || 'an anonymous class'} in its tools, but no Nest provider of that class is a @Toolset. ` +
            'Decorate the class with @Toolset() and add it to the providers of a module the application imports.',
        );
      }
      take(matches.flatMap((d) => d.tools));
    } else if (isPrefixSelector(selector)) {
      const matches = discovered.filter((d) => d.prefix === selector.prefix);
      if (matches.length === 0) {
        const known = discovered.map((d) => d.prefix).filter((p): p is string => p !== undefined);
        throw new AgentConfigError(
          `Agent "${agentName}" selects toolsets with prefix "${selector.prefix}", but no discovered @Toolset has it ` +
            `(prefixes found: ${known.length ? known.map((p) => `"${p}"`).join(', ') : 'none'}).`,
        );
      }
      take(matches.flatMap((d) => d.tools));
    } else if (isFilterSelector(selector)) {
      take(discovered.flatMap((d) => d.tools.filter((tool) => selector.filter(tool, d))));
    } else {
      entries.push(selector);
    }
  }
  return entries;
}

// Tools and toolsets are objects too; they are passed through, never read as selectors.
function isPlainSelector(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !(value instanceof BaseTool) && !isToolset(value);
}

function isPrefixSelector(value: unknown): value is ToolsetPrefixSelector {
  return isPlainSelector(value) && typeof value.prefix === 'string' && Object.keys(value).length === 1;
}

function isFilterSelector(value: unknown): value is ToolFilterSelector {
  return isPlainSelector(value) && typeof value.filter === 'function' && Object.keys(value).length === 1;
}
