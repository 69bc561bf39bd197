import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ArtifactService, BaseTool, MemoryService} from '@toolsmith/core';
import { State, ToolContext } from '@toolsmith/core';
import { createEventActions, executeToolCall } from '@toolsmith/core/internal';
import type { ToolRunRequest, ToolRunResult } from './protocol/api-types';

/** Input of {@link runToolAlone}. */
export interface RunToolAloneInput {
  name: string;
  /** The tool of that name, if the agent tree offers one. */
  tool: BaseTool | undefined;
  /** Every tool name, for the "unknown tool" message. */
  toolNames: readonly string[];
  request: ToolRunRequest;
  /** State the call sees (a copy: its writes are reported in `stateDelta`, never stored). */
  state: Record<string, unknown>;
  appName: string;
  userId: string;
  sessionId: string;
  agentName: string;
  memoryService?: MemoryService;
  artifactService?: ArtifactService;
  /** Aborts the call: the tool sees it on `ctx.signal`. */
  signal?: AbortSignal;
}

/**
 * Runs one tool outside any model turn through core's executor, the path every call of a run takes:
 * argument repair and validation, the confirmation gate, the call, the output check and the error
 * response the model would get. The state it sees is a copy; nothing is stored.
 */
export async function runToolAlone(input: RunToolAloneInput): Promise<ToolRunResult> {
  const actions = createEventActions();
  const id = `devtools-${randomUUID()}`;
  const context = new ToolContext({
    functionCallId: id,
    invocationId: id,
    agentName: input.agentName,
    appName: input.appName,
    userId: input.userId,
    sessionId: input.sessionId,
    state: new State({ ...input.state }, actions.stateDelta),
    actions,
    ...(input.request.confirmation ? { toolConfirmation: input.request.confirmation } : {}),
    ...(input.memoryService ? { memoryService: input.memoryService } : {}),
    ...(input.artifactService ? { artifactService: input.artifactService } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const started = performance.now();
  const outcome = await executeToolCall({
    call: { id, name: input.name, args: input.request.args },
    tool: input.tool,
    availableToolNames: () => input.toolNames,
    context,
  });
  const durationMs = Math.round((performance.now() - started) * 10) / 10;
  const errorCode = outcome.error?.code ?? errorCodeOf(outcome.response.response);
  return {
    response: outcome.response.response,
    isError: outcome.response.isError === true,
    ...(errorCode ? { errorCode } : {}),
    stateDelta: actions.stateDelta,
    confirmationRequested: outcome.confirmationRequested === true,
    durationMs,
  };
}

function errorCodeOf(response: Record<string, unknown>): string | undefined {
  const error = response.error as { code?: unknown } | undefined;
  return typeof error?.code === 'string' ? error.code : undefined;
}
