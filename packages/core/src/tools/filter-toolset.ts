import type { BaseTool } from './base-tool';
import type { ReadonlyContext } from './readonly-context';
import type { Toolset } from './toolset';

/** Decides whether a tool is offered in the current context. */
export type ToolPredicate = (tool: BaseTool, context: ReadonlyContext) => boolean;

/**
 * A toolset offering only the tools of `toolset` that `predicate` accepts, asked again on every
 * request (so it can depend on the user or state). Closing it closes the wrapped toolset.
 *
 * @example
 * ```ts
 * const readOnly = filterToolset(githubToolset, allowTools(['list_issues', 'get_issue']));
 * ```
 */
export function filterToolset(toolset: Toolset, predicate: ToolPredicate): Toolset {
  return {
    async getTools(context) {
      const tools = await toolset.getTools(context);
      return tools.filter((tool) => predicate(tool, context));
    },
    async close() {
      await toolset.close?.();
    },
  };
}

/** A {@link ToolPredicate} accepting exactly the named tools. */
export function allowTools(names: readonly string[]): ToolPredicate {
  const allowed = new Set(names);
  return (tool) => allowed.has(tool.name);
}
