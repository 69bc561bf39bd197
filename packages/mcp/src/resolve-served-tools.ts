import { BaseTool, ReadonlyContext, Toolset, ToolsmithError, isToolset } from '@toolsmith/core';

/** Something `serveMcp` can serve: a tool, or a toolset (asked for its tools on each request). */
export type ServedTools = BaseTool | Toolset;

const VALID_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Prepares what `serveMcp` serves: static tools are checked (names, duplicates) at startup; toolsets
 * are asked on each request. Returns the function that lists the tools of one context.
 */
export async function resolveServedTools(items: readonly ServedTools[]): Promise<(context: ReadonlyContext) => Promise<BaseTool[]>> {
  const staticTools: BaseTool[] = [];
  const toolsets: Toolset[] = [];
  for (const [index, item] of items.entries()) {
    if (item instanceof BaseTool) staticTools.push(item);
    else if (isToolset(item)) toolsets.push(item);
    else {
      throw new ToolsmithError(
        'INVALID_MCP_TOOLS',
        `serveMcp: tools[${index}] is neither a tool, a toolset nor a @Toolset class. Pass @Toolset classes, toolset instances or BaseTool instances.`,
      );
    }
  }
  checkNames(staticTools);
  if (toolsets.length === 0) return async () => staticTools;
  return async (context) => {
    const dynamic = (await Promise.all(toolsets.map((toolset) => toolset.getTools(context)))).flat();
    const all = [...staticTools, ...dynamic];
    checkNames(all);
    return all;
  };
}

function checkNames(tools: readonly BaseTool[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (!VALID_NAME.test(tool.name)) {
      throw new ToolsmithError('INVALID_TOOL_NAME', `serveMcp: tool name "${tool.name}" must match ${VALID_NAME.source}. Rename the tool.`);
    }
    if (seen.has(tool.name)) {
      throw new ToolsmithError(
        'DUPLICATE_TOOL_NAME',
        `serveMcp: two tools are named "${tool.name}". Rename one, or give a toolset a prefix.`,
      );
    }
    seen.add(tool.name);
  }
}
