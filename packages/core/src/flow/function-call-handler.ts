import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import { RunAbortedError } from '../errors/run-aborted-error';
import type { StateConflictError } from '../errors/state-conflict-error';
import type { ToolsmithError } from '../errors/toolsmith-error';
import { Event } from '../events/event';
import type { ToolCallbackChain } from '../agents/callbacks';
import { type ExecuteToolCallInput, type ToolCallOutcome, errorResponse, executeToolCall, runToolCall, workAfterCancel } from '../internal/tool-executor';
import type { ToolContext } from '../tools/tool-context';
import type { FunctionCall, FunctionResponse, Part } from '../model/content';
import { type EventActions, type ToolConfirmation, createEventActions } from '../state/event-actions';
import { mergeActions } from '../state/merge-actions';
import { ownStateValue } from '../state/state-keys';
import { toolCallbackChain } from './callback-chains';
import { registerInvocation } from './invocation-registry';
import type { OfferedTools } from './tool-resolver';

/** Input of {@link handleFunctionCalls}. */
export interface HandleFunctionCallsInput {
  agent: LlmAgent;
  context: InvocationContext;
  calls: readonly FunctionCall[];
  offered: OfferedTools;
  /** The user's answers, by call id, for calls that run after a confirmation (see resume-confirmed-calls.ts). */
  confirmations?: ReadonlyMap<string, ToolConfirmation>;
  /** Calls refused at the model boundary (arguments that cannot be stored), by id: answered with the error, never run. */
  refusedCalls?: ReadonlyMap<string, ToolsmithError>;
  /** Calls a person answered instead of the tool (`decision: 'respond'`), by id: answered with this response, never run. */
  answeredCalls?: ReadonlyMap<string, FunctionResponse>;
  /** Calls the person approved when the runner asked only for the confirmation policy's `ask`: they run without `ctx.toolConfirmation`. */
  policyAsksAnswered?: ReadonlySet<string>;
}

/** What the loop makes of a step's function response event (the loop itself: no callback made per loop). */
export interface FunctionCallsThen<T> {
  afterFunctionCalls(event: Event): T;
}

/**
 * Runs the function calls of one model response concurrently (at most `maxConcurrentToolCalls` at a
 * time) through the executor, and merges their responses and actions, in call order, into one event.
 * Every call gets exactly one response: when the run is aborted, calls still running are answered with
 * a `RUN_ABORTED` error at once, so the stored history stays valid for the next run.
 */
export function handleFunctionCalls(input: HandleFunctionCallsInput): Event | Promise<Event>;
/**
 * {@link handleFunctionCalls}, then `then.afterFunctionCalls(event)`: the caller's step has no async function of its
 * own. The usual step (one call that cannot be aborted, untraced, whose tool answers synchronously) returns that
 * value itself, with no promise made; a failure is always a rejected promise, never a throw.
 */
export function handleFunctionCalls<T>(input: HandleFunctionCallsInput, then: FunctionCallsThen<T>): T | Promise<T>;
export function handleFunctionCalls<T>(input: HandleFunctionCallsInput, then?: FunctionCallsThen<T>): T | Event | Promise<T | Event> {
  const { agent, context, calls } = input;
  // The usual step needs no async function: its one call's outcome is a value, or a promise continued with `.then`.
  // A sequential tool's call takes its queue (see handleCalls), even alone in its step.
  if (calls.length !== 1 || context.abortable || context.trace !== undefined || input.offered.anySequential) return handleCalls(input, then);
  try {
    // The one call's outcome and actions stand for their arrays (see respondedStep): none made.
    const actions = createEventActions();
    const outcome = executeCall(input, toolCallbackChain(context.services.plugins, agent.callbacks), context.stateBase(), actions, 0);
    if (outcome instanceof Promise) return outcome.then((done) => respondedStep(input, done, actions, then));
    return respondedStep(input, outcome, actions, then);
  } catch (thrown) {
    return Promise.reject(thrown);
  }
}

/** {@link handleFunctionCalls} for every other step: several calls, or one that can be aborted, is traced or may be a sequential tool's. */
async function handleCalls<T>(input: HandleFunctionCallsInput, then?: FunctionCallsThen<T>): Promise<T | Event> {
  const { agent, context, calls, offered } = input;
  const callbacks = toolCallbackChain(context.services.plugins, agent.callbacks);
  // Parallel calls all see the state as it was before this step; each records its own delta.
  const base = context.stateBase();
  const outcomes: Array<ToolCallOutcome | undefined> = new Array(calls.length);
  const actions: EventActions[] = [];
  for (let index = 0; index < calls.length; index++) actions.push(createEventActions());

  /** `kept`, when given, gets the call's context (a sequential tool's queue waits for its work). */
  const execute = (index: number, kept?: ToolContext[]): ToolCallOutcome | Promise<ToolCallOutcome> => executeCall(input, callbacks, base, actions[index], index, kept);

  // Aborted before the step (e.g. by the caller on the model's call event): no call starts, each is answered RUN_ABORTED.
  if (context.aborted) return respondedStep(input, outcomes, actions, then);
  if (calls.length === 1 && !context.abortable && !offered.anySequential) {
    outcomes[0] = await execute(0); // one traced call that cannot be aborted needs no wrapper either
  } else {
    // A `sequential` tool's call waits in the session's queue of that tool (see sequential-calls.ts) for
    // every earlier call to end, of this response (a lower index, so already started whatever the
    // concurrency cap: no deadlock) or of an earlier one: not only to be answered, but its tool's own work
    // too (a call answered by a timeout or an abort may still run). A call still waiting when its run is
    // aborted never starts (it was answered `RUN_ABORTED` with the rest), nor one behind a call that
    // failed the step.
    let contexts: ToolContext[] | undefined;
    let failed = false;
    const runOne = (index: number): Promise<void> => {
      const tool = offered.byName.get(calls[index].name);
      if (!tool?.sequential) {
        const run = async () => {
          outcomes[index] = await execute(index);
        };
        return run();
      }
      const kept = (contexts ??= []);
      const run = async (): Promise<void> => {
        if (!context.aborted && !failed) outcomes[index] = await execute(index, kept);
      };
      const { session } = context;
      const ran = context.services.sequentialCalls.run(session.appName, session.userId, session.id, tool.name, run, () =>
        kept[index] === undefined ? undefined : workAfterCancel(kept[index]),
      );
      ran.catch(() => (failed = true));
      return ran;
    };
    const work = calls.length === 1 ? runOne(0) : runConcurrently(calls.length, context.services.maxConcurrentToolCalls, runOne, context.signal);
    await (context.abortable ? untilDoneOrAborted(work, context.signal) : work);
  }

  return respondedStep(input, outcomes, actions, then);
}

/**
 * Runs call `index` of the step through the executor (or answers it at once, when it was refused or a person
 * answered it), with its own tool context: reads see `base`, writes go to `actions` (the call's own). `kept`, when
 * given, gets the call's context (a sequential tool's queue waits for its work).
 */
function executeCall(
  input: HandleFunctionCallsInput,
  callbacks: ToolCallbackChain,
  base: Record<string, unknown>,
  actions: EventActions,
  index: number,
  kept?: ToolContext[],
): ToolCallOutcome | Promise<ToolCallOutcome> {
  const { agent, context, calls, offered } = input;
  const call = calls[index];
  const refused = input.refusedCalls?.get(call.id);
  if (refused) return { response: errorResponse(call, refused), error: refused };
  const answered = input.answeredCalls?.get(call.id);
  if (answered) return { response: answered };
  const toolContext = context.toolContext(agent.name, call.id, base, actions, input.confirmations?.get(call.id));
  registerInvocation(toolContext, context);
  if (kept) kept[index] = toolContext;
  const { services } = context;
  const execution: ExecuteToolCallInput = {
    call,
    tool: offered.byName.get(call.name),
    availableToolNames: offered.names,
    context: toolContext,
    callbacks,
    limits: services.argumentLimits,
    policy: services.toolCallPolicy,
    saveWholeResults: services.artifactService !== undefined,
    confirmationGate: services.confirmationGate,
    confirmationPolicy: agent.confirmationPolicy ?? services.confirmationPolicy,
    policyAskAnswered: input.policyAsksAnswered?.has(call.id),
  };
  // Traced: inside the call's `execute_tool` span. The executor emits none: invokeTool and serveMcp share it.
  return context.trace ? context.trace.toolCall(call, execution.tool, () => executeToolCall(execution)) : runToolCall(execution);
}

/**
 * The step's function response event: the calls' responses and actions merged in call order (a call
 * without an outcome was cut off by the abort), then `then.afterFunctionCalls(event)` when given. A step of
 * one call may pass its outcome and actions themselves for the arrays of them (see {@link nth}).
 */
function respondedStep<T>(
  input: HandleFunctionCallsInput,
  outcomes: ReadonlyArray<ToolCallOutcome | undefined> | ToolCallOutcome,
  actions: readonly EventActions[] | EventActions,
  then?: FunctionCallsThen<T>,
): T | Event {
  const { agent, context, calls, offered } = input;
  const merged = createEventActions();
  // Made only when needed: most steps have no long-running call and no state update.
  let longRunningToolIds: string[] | undefined;
  let unanswered: Set<number> | undefined;
  // Made with its first part (an empty array's first push makes room for sixteen): most steps have one.
  let parts: Part[] | undefined;
  // A plain loop: this runs every step, and flatMap's per-call arrays showed up in profiles.
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index];
    const outcome = nth(outcomes, index);
    let part: Part;
    if (!outcome) {
      part = { functionResponse: errorResponse(call, new RunAbortedError(context.signal.reason)) };
      (unanswered ??= new Set()).add(index);
    } else {
      // A cancelled (timed-out) call's actions were emptied by the executor: nothing of it is merged. A call
      // that failed otherwise keeps its state writes, but what it asked of the turn (escalate, a transfer,
      // skipSummarization) is dropped: the model gets the error to act on (runner.md).
      const callActions = nth(actions, index);
      // The response says so (an invalid call's `error` is made only when read: not here).
      if (outcome.response.isError === true && !outcome.confirmationRequested) dropTurnActions(callActions);
      const stepConflict = mergeActions(merged, callActions);
      if (stepConflict) {
        // Its update cannot follow an earlier call's of this step: it lost, as against another session.
        part = { functionResponse: errorResponse(call, stepConflict) };
        (unanswered ??= new Set()).add(index);
      } else {
        // A call waiting for confirmation gets its response once the user answers (see confirmation-pause.ts).
        if (outcome.confirmationRequested) continue;
        // `isLongRunning` first: an invalid call's error is made only when read (see the executor's invalidArguments).
        if (offered.byName.get(call.name)?.isLongRunning && !outcome.error) (longRunningToolIds ??= []).push(call.id);
        part = { functionResponse: outcome.response };
      }
    }
    if (parts) parts.push(part);
    else parts = [part];
  }
  const event = Event.of(context.invocationId, agent.name, context.branch, { role: 'user', parts: parts ?? [] }, merged);
  if (longRunningToolIds) event.longRunningToolIds = longRunningToolIds;
  if (merged.stateOps) {
    // The calls whose actions were merged (see answerConflictingCalls).
    const answered: CallActions[] = [];
    for (let index = 0; index < calls.length; index++) if (!unanswered?.has(index)) answered.push({ call: calls[index], actions: nth(actions, index) });
    callActionsOf.set(event, answered);
  }
  return then ? then.afterFunctionCalls(event) : event;
}

/** Removes from a failed call's `actions` what it asked of the turn: `escalate`, `transferToAgent`, `skipSummarization`. */
function dropTurnActions(actions: EventActions): void {
  if (actions.escalate !== undefined) delete actions.escalate;
  if (actions.transferToAgent !== undefined) delete actions.transferToAgent;
  if (actions.skipSummarization !== undefined) delete actions.skipSummarization;
}

/** Item `index` of `items`, or `items` itself when it is one item (a step of one call), not an array of them. */
function nth<T>(items: readonly T[] | T, index: number): T {
  return Array.isArray(items) ? (items as readonly T[])[index] : (items as T);
}

/** One call of a function response event and the actions it recorded. */
interface CallActions {
  call: FunctionCall;
  actions: EventActions;
}

/** The calls of function response events with state updates applied in the append (see {@link answerConflictingCalls}). */
const callActionsOf = new WeakMap<Event, CallActions[]>();

/**
 * After the store refused `event` (not stored) with `STATE_CONFLICT`: answers each call of it whose
 * update of `conflict.key` found another stored value with that error instead of its result, and
 * merges the event's actions again from the other calls only, so the event can be appended again.
 * False when `event` is no function response event with such a call (the conflict is then the run's).
 */
export function answerConflictingCalls(event: Event, conflict: StateConflictError): boolean {
  const calls = callActionsOf.get(event);
  if (!calls) return false;
  // The compare-and-sets of the key failed when there are any (an increment layered on one is then
  // merged again alone); else its increments did (the key holds no number, or they passed the largest).
  const onKey = calls.filter((entry) => ownStateValue(entry.actions.stateOps, conflict.key) !== undefined);
  const conditions = onKey.filter((entry) => ownStateValue(entry.actions.stateOps, conflict.key)!.op === 'compareAndSet');
  const losers = new Set((conditions.length > 0 ? conditions : onKey).map((entry) => entry.call.id));
  if (losers.size === 0) return false;
  const merged = createEventActions();
  for (const entry of calls) {
    if (!losers.has(entry.call.id) && mergeActions(merged, entry.actions)) losers.add(entry.call.id);
  }
  event.actions = merged;
  if (!merged.stateOps) callActionsOf.delete(event);
  for (const part of event.content?.parts ?? []) {
    const response = part.functionResponse;
    if (response && losers.has(response.id)) part.functionResponse = errorResponse(response, conflict);
  }
  if (event.longRunningToolIds) {
    const ids = event.longRunningToolIds.filter((id) => !losers.has(id));
    event.longRunningToolIds = ids.length > 0 ? ids : undefined;
  }
  callActionsOf.set(event, calls.filter((entry) => !losers.has(entry.call.id)));
  return true;
}

/** Runs `task(0..count-1)` with at most `limit` in flight; stops starting new ones once `signal` aborts. */
async function runConcurrently(count: number, limit: number, task: (index: number) => Promise<void>, signal: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count && !signal.aborted) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), count) }, worker));
}

/** Resolves when `work` settles or `signal` aborts, whichever comes first. */
function untilDoneOrAborted(work: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
