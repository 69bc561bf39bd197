import type { BaseTool, FunctionResponse, ToolContext, Toolset } from '@toolsmith/core';
import { executeToolCall } from '@toolsmith/core/internal';
import { testToolContext } from '@toolsmith/core/testing';

/** A tool context as the runner would build it, with the given session state. */
export function toolContext(state: Record<string, unknown> = {}, signal?: AbortSignal): ToolContext {
  return testToolContext({ agentName: 'tester', appName: 'mcp-tests', userId: 'user-1', sessionId: 'session-1', state, signal });
}

/** Lists the toolset's tools and runs one call through the executor, exactly as the runner does. */
export async function callThrough(
  toolset: Toolset,
  name: string,
  args: Record<string, unknown> | string,
  context: ToolContext = toolContext(),
): Promise<FunctionResponse> {
  const tools: BaseTool[] = await toolset.getTools(context);
  const outcome = await executeToolCall({
    call: { id: context.functionCallId, name, args },
    tool: tools.find((tool) => tool.name === name),
    availableToolNames: () => tools.map((tool) => tool.name),
    context,
  });
  return outcome.response;
}

/** The `error.code` of an error response (undefined for a success). */
export function errorCode(response: FunctionResponse): string | undefined {
  return response.isError ? ((response.response.error as { code?: string }).code ?? 'NO_CODE') : undefined;
}
