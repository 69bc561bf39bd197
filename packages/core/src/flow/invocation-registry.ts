import type { InvocationContext } from '../agents/invocation-context';
import type { ToolContext } from '../tools/tool-context';

// Tools that run agents (AgentTool) need the invocation behind their ToolContext. A symbol-keyed
// property keeps that link off ToolContext's public shape; a WeakMap would do too, but one entry per
// call makes the garbage collector's ephemeron work grow with every turn.
const INVOCATION = Symbol('toolsmith.invocation');

/** Remembers which invocation a tool context belongs to. */
export function registerInvocation(toolContext: ToolContext, invocation: InvocationContext): void {
  (toolContext as unknown as Record<symbol, unknown>)[INVOCATION] = invocation;
}

/** The invocation a tool context was created for by the runner, if any. */
export function invocationOf(toolContext: ToolContext): InvocationContext | undefined {
  return (toolContext as unknown as Record<symbol, InvocationContext | undefined>)[INVOCATION];
}
