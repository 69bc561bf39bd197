import type { BaseTool } from './base-tool';

/** Marks a tool that only edits requests (`processRequest`) and is never declared to the model. */
export const REQUEST_ONLY_TOOL = Symbol.for('toolsmith.requestOnlyTool');

/** True when `tool` is marked with {@link REQUEST_ONLY_TOOL}. */
export function isRequestOnlyTool(tool: BaseTool): boolean {
  return (tool as unknown as Record<symbol, unknown>)[REQUEST_ONLY_TOOL] === true;
}
