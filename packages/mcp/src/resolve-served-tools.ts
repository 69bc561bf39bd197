import { BaseTool, type ContainerAdapter, type ReadonlyContext, type Toolset, ToolsmithError, createClassTools, isToolset } from '@toolsmith/core';
import { declaresTools, scanClassOfferings } from '@toolsmith/core/internal';

/**
 * Something `serveMcp` can serve: a `@Toolset` class (built by the container with its dependencies),
 * an instance of one, a toolset (asked for its tools on each request), or a tool.
 */
export type ServedTools = Function | BaseTool | Toolset | object;

/**
 * Prepares what `serveMcp` serves: classes are scanned and static tools checked (names, duplicates)
 * at startup, so a bad definition fails before the server starts; toolsets are asked on each request.
 * Returns the function that lists the tools of one context.
 */
export function resolveServedTools(
  items: readonly ServedTools[],
  container: ContainerAdapter,
): (context: ReadonlyContext) => Promise<BaseTool[]> {
  const staticTools: BaseTool[] = [];
  const toolsets: Toolset[] = [];
  for (const [index, item] of items.entries()) {
    if (item instanceof BaseTool) staticTools.push(item);
    else if (isToolset(item)) toolsets.push(item);
    else if (typeof item === 'function' || (typeof item === 'object' && item !== null)) {
      // A class that offers only resources or prompts has no tools to scan.
      const cls = typeof item === 'function' ? item : (item.constructor as Function);
      if (!declaresTools(cls.prototype as object) && offersAnything(cls)) continue;
      // createClassTools says what is wrong with a class (no @Tool methods, unknowable parameters, …).
      staticTools.push(...createClassTools(item, { container }));
    } else {
      throw new ToolsmithError(
        'INVALID_MCP_TOOLS',
        `serveMcp: tools[${index}] is ${String(item)}; pass @Toolset classes, their instances, toolsets or tools.`,
      );
    }
  }
  checkUnique(staticTools);
  if (toolsets.length === 0) return async () => staticTools;
  return async (context) => {
    const dynamic = (await Promise.all(toolsets.map((toolset) => toolset.getTools(context)))).flat();
    const all = [...staticTools, ...dynamic];
    checkUnique(all);
    return all;
  };
}

function offersAnything(cls: Function): boolean {
  const offered = scanClassOfferings(cls);
  return offered.resources.length + offered.resourceTemplates.length + offered.prompts.length > 0;
}

function checkUnique(tools: readonly BaseTool[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      throw new ToolsmithError(
        'DUPLICATE_TOOL_NAME',
        `serveMcp offers two tools named "${tool.name}". Fix: give one a different name, or give its toolset a prefix.`,
      );
    }
    seen.add(tool.name);
  }
}
