import type { InvocationContext } from '../agents/invocation-context';
import type { ToolContext } from '../tools/tool-context';

// Tools that run agents (AgentTool) need the invocation behind their ToolContext; a WeakMap keeps that
// link without widening ToolContext's public shape.
const invocations = new WeakMap<ToolContext, InvocationContext>();

/** Remembers which invocation a tool context belongs to. */
export function registerInvocation(toolContext: ToolContext, invocation: InvocationContext): void {
  invocations.set(toolContext, invocation);
}

/** The invocation a tool context was created for by the runner, if any. */
export function invocationOf(toolContext: ToolContext): InvocationContext | undefined {
  return invocations.get(toolContext);
}
