import { randomUUID } from 'node:crypto';
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { BaseAgent, BaseTool, EventActions, LlmRequest, LlmResponse, Plugin, ReadonlyContext, Tool, ToolContext } from '@toolsmith/core';
import { LlmAgent, ToolInterruptedError } from '@toolsmith/core';
import { confirmationRuleAsks } from '@toolsmith/core/internal';
import { inWorkflow } from './in-workflow';
import { type RecordedError, recordError, replayedError } from './recorded-error';
import { DURABLE_STEP_NAMES } from './step-names';
import type { RecordedPayload, StepPayloads, PayloadLocation } from './step-payloads';

/** What a tool call's result step records: its response and actions, its error, or that it was found missing by this execution. */
type RecordedToolResult = { response: RecordedPayload<Record<string, unknown>>; actions: EventActions } | { error: RecordedError } | { missing: string };

/**
 * The plugin that makes a durable run's model and tool calls DBOS steps.
 *
 * - Each model call is one step (`toolsmith.model`) recording the complete response: a replay gets
 *   the recorded response and the model is not called again.
 * - Each tool call records `toolsmith.tool.started` before the tool runs and `toolsmith.tool.result`
 *   (response and actions, or error) after. A replay answers a recorded call from the record. A call
 *   that started in an earlier execution and left no result was cut off by a crash: it is answered
 *   `TOOL_INTERRUPTED`, unless its tool is idempotent, in which case it runs again (same
 *   `ctx.idempotencyKey`).
 *
 * Steps are found by their position in the run, so tool calls of one response run one at a time in a
 * durable run (the runner is built with `maxConcurrentToolCalls: 1`).
 */
export class DurableSteps implements Plugin {
  readonly name = 'toolsmith-dbos';
  /** The current execution of each workflow running in this process (a new token each time DBOS starts or recovers one). */
  private readonly executions = new Map<string, string>();
  /** Tool calls whose result this execution records. */
  private readonly tracked = new WeakSet<ToolContext>();
  /** Errors this plugin threw (replayed or interrupted): already recorded, never recorded again. */
  private readonly known = new WeakSet<object>();

  constructor(
    private readonly root: BaseAgent,
    /** Where large step outputs go (the runner's artifact service). */
    private readonly payloads: StepPayloads,
  ) {}

  /** Marks the start of one execution of workflow `workflowId` in this process; returns the function that ends it. */
  beginExecution(workflowId: string): () => void {
    this.executions.set(workflowId, randomUUID());
    return () => this.executions.delete(workflowId);
  }

  readonly beforeModel = async ({ context, request }: { context: ReadonlyContext; request: LlmRequest }): Promise<LlmResponse | undefined> => {
    if (!inWorkflow()) return undefined;
    const agent = this.root.findAgent(context.agentName);
    if (!(agent instanceof LlmAgent)) return undefined;
    let thrown: unknown;
    let live: LlmResponse | undefined;
    const recorded = await DBOS.runStep(
      async (): Promise<{ response?: RecordedPayload<LlmResponse>; error?: RecordedError }> => {
        try {
          for await (const part of agent.model.generate(request, {})) if (!part.partial) live = part;
          return live ? { response: await this.payloads.record(live, where(context)) } : { error: { code: 'PROVIDER_RESPONSE_INVALID', message: `Model "${agent.model.modelName}" ended its answer without a complete response.`, provider: agent.model.provider } };
        } catch (error) {
          thrown = error;
          return { error: recordError(error) };
        }
      },
      { name: DURABLE_STEP_NAMES.model },
    );
    if (recorded.error) throw thrown ?? replayedError(recorded.error);
    return live ?? this.payloads.restore(recorded.response!, where(context));
  };

  readonly beforeTool = async ({ tool, args, context }: { tool: Tool; args: Record<string, unknown>; context: ToolContext }): Promise<Record<string, unknown> | undefined> => {
    if (!inWorkflow() || (await mayPause(tool as BaseTool, args, context))) return undefined;
    const execution = this.executions.get(DBOS.workflowID!) ?? '';
    const started = await DBOS.runStep(async () => execution, { name: DURABLE_STEP_NAMES.toolStarted });
    if (started === execution) {
      this.tracked.add(context);
      return undefined;
    }
    // Started in an earlier execution: its result, if that execution recorded one; else it was cut off.
    for (;;) {
      const result = await DBOS.runStep(async (): Promise<RecordedToolResult> => ({ missing: execution }), { name: DURABLE_STEP_NAMES.toolResult });
      if ('response' in result) {
        Object.assign(context.actions, result.actions);
        return this.payloads.restore(result.response, where(context));
      }
      if ('error' in result) throw this.mark(replayedError(result.error));
      if (!(tool as BaseTool).idempotent) throw this.mark(new ToolInterruptedError(tool.name, context.functionCallId));
      if (result.missing === execution) {
        // Idempotent: run it again now (same ctx.idempotencyKey); its result goes in the next step.
        this.tracked.add(context);
        return undefined;
      }
      // An earlier retry was cut off too: look at the next record.
    }
  };

  readonly afterTool = async ({ context, response }: { context: ToolContext; response: Record<string, unknown> }): Promise<undefined> => {
    if (!this.tracked.has(context)) return undefined;
    this.tracked.delete(context);
    const actions = JSON.parse(JSON.stringify(context.actions)) as EventActions;
    await DBOS.runStep(async (): Promise<RecordedToolResult> => ({ response: await this.payloads.record(response, where(context)), actions }), { name: DURABLE_STEP_NAMES.toolResult });
    return undefined;
  };

  readonly onToolError = async ({ context, error }: { context: ToolContext; error: object }): Promise<undefined> => {
    if (!this.tracked.has(context) || this.known.has(error)) return undefined;
    this.tracked.delete(context);
    await DBOS.runStep(async (): Promise<RecordedToolResult> => ({ error: recordError(error) }), { name: DURABLE_STEP_NAMES.toolResult });
    return undefined;
  };

  private mark<E extends object>(error: E): E {
    this.known.add(error);
    return error;
  }
}

/**
 * A call that will pause for the user's approval instead of running (it asks for confirmation and has
 * no answer yet): it has no effect to protect, and it leaves no result to record. A confirmation
 * predicate that throws fails the call here, as it would in the executor, on every replay alike.
 */
async function mayPause(tool: BaseTool, args: Record<string, unknown>, context: ToolContext): Promise<boolean> {
  const rule = tool.requireConfirmation;
  if (rule === undefined || rule === false || context.toolConfirmation) return false;
  return confirmationRuleAsks(rule, args, context);
}

/** The session a call's large outputs are saved in. */
function where(context: ReadonlyContext): PayloadLocation {
  return { appName: context.appName, userId: context.userId, sessionId: context.sessionId };
}
