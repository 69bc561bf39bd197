import type { ToolCallbackChain } from '../agents/callbacks';
import { type ArgumentProblem, InvalidArgumentsError, ToolExecutionError, ToolNotFoundError, ToolOutputInvalidError, ToolTimeoutError } from '../errors/tool-call-errors';
import { ToolCallRejectedError } from '../errors/tool-rejected-error';
import { RunAbortedError } from '../errors/run-aborted-error';
import type { ToolsmithError } from '../errors/toolsmith-error';
import type { ToolConfirmation } from '../state/event-actions';
import { cutProblem, invalidArgumentsFeedback, moreProblemsText, toolCallFeedback, withoutStatedDetails } from '../errors/messages';
import type { ArgumentRepair, FunctionCall, FunctionResponse, FunctionResponsePart } from '../model/content';
import type { AuthConfig } from '../auth/auth-config';
import { ToolFile, ToolResult } from '../tools/tool-file';
import { DEFAULT_MAX_TOOL_FILE_BYTES } from '../tools/tool-call-policy';
import { resultFileParts, resultJson } from './tool-files';
import { takeInnerCalls } from './recorded-inner-calls';
import { allArgumentProblems, checksDtoArguments } from '../scanning/dto-problems';
import type { BaseTool } from '../tools/base-tool';
import { confirmationRuleAsks } from '../tools/require-confirmation';
import { isPromiseLike } from '../tools/promise-like';
import type { ToolContext } from '../tools/tool-context';
import type { CallConfirmation } from '../confirmation/call-confirmation';
import type { ConfirmationGate } from '../confirmation/grant-gate';
import { type ConfirmationPolicySetting, type ConfirmationPolicyVerdict, judgeCall } from '../confirmation/confirmation-policy';
import { ToolCallDeniedError } from '../errors/tool-call-denied-error';
import { type ArgumentLimits, DEFAULT_ARGUMENT_LIMITS, parseArguments, tooDeep } from '../validation/argument-parser';
import { copiedAsJson, fittedErrorBody, inspectResult, truncatedResult } from './result-budget';
import type { ValidateFunction } from 'ajv/dist/2020';
import { toArgumentProblems, validatorFor } from '../validation/schema-validator';
import { mayRepair, repairArguments } from '../validation/argument-repair';
import { judgeArguments, standardArgumentsOf } from '../validation/standard-arguments';
import { repairArgumentText } from '../validation/argument-text-repair';
import { DEFAULT_TOOL_CALL_POLICY, type ToolCallPolicy, exposedMessage } from '../tools/tool-call-policy';
import { thrownMessage } from '../errors/thrown-message';
import { reportableError } from '../errors/reportable-error';
import { quotesSecret, withoutSecrets } from '../errors/without-secrets';
import { injectedSecrets } from '../tools/injected-credentials';

/** What one function call produced. Every call produces exactly one response, even when it fails. */
export interface ToolCallOutcome {
  /** The response for the model: the (possibly cut) result, or an error response (`isError: true`), also while confirmation is pending. */
  response: FunctionResponse;
  /** The failure behind an error response (with its cause), for events and logs; absent on success. */
  error?: ToolsmithError;
  /** The call did not complete because it waits for the user's confirmation. */
  confirmationRequested?: boolean;
  /** What the confirmation policy decided on the call (also on the response, or on the request when it waits), for its span. */
  policy?: ConfirmationPolicyVerdict;
  /**
   * What settled the call's gate without asking (a grant answered the policy's `ask`) when the tool then
   * asked its own question, so the response does not carry it yet: for its span.
   */
  settled?: CallConfirmation;
}

/** Input of {@link executeToolCall}. */
export interface ExecuteToolCallInput {
  /** The function call as the model sent it; `args` may be raw JSON text, parsed (and repaired) here. */
  call: FunctionCall;
  /** The tool the call names, if it is offered in this request. */
  tool: BaseTool | undefined;
  /** Names offered in this request, for the "unknown tool" message (a function: computed only on that path). */
  availableToolNames: readonly string[] | (() => readonly string[]);
  /** The call's context, passed to the tool and the callbacks; its `actions` collect the call's effects. */
  context: ToolContext;
  /** Plugin and agent tool callbacks, in the order they run; absent for none. */
  callbacks?: ToolCallbackChain;
  /** Size and depth limits on the arguments; default 1,000,000 characters and 64 levels. */
  limits?: ArgumentLimits;
  /** Timeout, result budget and error exposure; tools' own `timeoutMs` / `maxResultChars` override the limits. */
  policy?: ToolCallPolicy;
  /** An artifact service is configured: a result over the budget is also saved whole, as an artifact. */
  saveWholeResults?: boolean;
  /** Decides a call its `requireConfirmation` rule gates before the person is asked (remembered grants); absent: always ask. */
  confirmationGate?: ConfirmationGate;
  /** Consulted on each call with valid arguments that no person has answered yet, before grants and the person; absent: none. */
  confirmationPolicy?: ConfirmationPolicySetting;
  /**
   * The person approved the call when the runner asked for the confirmation policy's `ask` (the tool has no
   * rule): neither the policy nor a grant is consulted again, and the tool runs without `ctx.toolConfirmation`,
   * so its own `ctx.requestConfirmation` is a new request.
   */
  policyAskAnswered?: boolean;
}

const NO_CALLBACKS: ToolCallbackChain = { beforeTool: [], afterTool: [], onToolError: [] };

/**
 * Runs one function call the way the runner does: parse → beforeTool → validate → confirmation gate →
 * run → wrap → afterTool, with onToolError on failure. Never throws for bad model input or tool
 * failures; those become error responses the model can act on. Unless switched off (per tool or in the
 * policy), arguments that fail to parse or validate get the named repairs first (see
 * validation/argument-repair.ts); the repairs made are recorded on the response (`argumentRepairs`).
 */
export function executeToolCall(input: ExecuteToolCallInput): Promise<ToolCallOutcome> {
  const outcome = runToolCall(input);
  return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
}

/**
 * {@link executeToolCall}, with the outcome itself instead of a promise of it when the call was answered
 * synchronously: the runner's usual call makes no promise.
 */
export function runToolCall(input: ExecuteToolCallInput): ToolCallOutcome | Promise<ToolCallOutcome> {
  // The usual call runs in this small frame (no async state is made for it): a tool that is offered, needs no
  // credential and has no Standard Schema, no callbacks, no confirmation to decide, arguments that parse and
  // validate as sent, and a synchronous run. Everything else takes the full path, which does the same steps.
  const { tool, context, callbacks } = input;
  if (tool === undefined || tool.auth !== undefined || standardArgumentsOf(tool) !== undefined) return executeFully(input);
  if (callbacks !== undefined && (callbacks.beforeTool.length > 0 || callbacks.afterTool.length > 0 || callbacks.onToolError.length > 0)) return executeFully(input);
  if (!input.policyAskAnswered && (context.toolConfirmation !== undefined || input.confirmationPolicy !== undefined || hasConfirmationRule(tool))) return executeFully(input);
  let args: Record<string, unknown>;
  let validate: ValidateFunction;
  let valid: boolean;
  try {
    args = parseArguments(tool.name, input.call.args, input.limits ?? DEFAULT_ARGUMENT_LIMITS);
    validate = validatorFor(tool.parameters);
    valid = validate(args);
  } catch {
    return executeFully(input);
  }
  // An invalid call is answered here when no repair applies, else by the full path, which repairs (it need not parse the arguments again).
  if (!valid) return invalidCall(input, tool, args, validate.errors) ?? executeFully(input, args);
  const policy = input.policy ?? DEFAULT_TOOL_CALL_POLICY;
  const budget = tool.maxResultChars ?? policy.maxResultChars;
  let ran: unknown;
  let pending: boolean;
  try {
    ran = tool.run(args, context);
    // Reading `then` may throw too (a revoked Proxy, a throwing getter): that is the tool's failure, as on the full path.
    pending = isPromiseLike(ran);
  } catch (thrown) {
    return finishRun(input, tool, policy, budget, thrown, true);
  }
  if (pending) return finishRun(input, tool, policy, budget, ran, false);
  context.endCall();
  return respond(input, tool, policy, budget, ran);
}

/**
 * The full path of {@link executeToolCall}, for every call its small frame does not take. `invalidArgs`: the
 * arguments as parsed there, which the tool's JSON Schema refused (no callback ran since).
 */
async function executeFully(input: ExecuteToolCallInput, invalidArgs?: Record<string, unknown>): Promise<ToolCallOutcome> {
  const { call, tool, context } = input;
  const callbacks = input.callbacks ?? NO_CALLBACKS;
  const policy = input.policy ?? DEFAULT_TOOL_CALL_POLICY;
  if (!tool) {
    const names = input.availableToolNames;
    return failed(call, new ToolNotFoundError(call.name, typeof names === 'function' ? names() : names), policy.maxResultChars);
  }
  // Error responses are cut to the result budget too (see errorResponse).
  const budget = tool.maxResultChars ?? policy.maxResultChars;

  let args: Record<string, unknown> = {};
  // What settled a gated call without asking (a remembered grant); recorded on its response.
  let decided: CallConfirmation | undefined;
  // What the confirmation policy decided (both modes); recorded on the response and the span.
  let verdict: ConfirmationPolicyVerdict | undefined;
  // Set only when a repair was made: valid arguments never reach the repair code.
  let repairs: ArgumentRepair[] | undefined;
  const repairing = policy.repairArguments !== false && tool.repairArguments !== false;
  const limits = input.limits ?? DEFAULT_ARGUMENT_LIMITS;
  // Every step below that awaits code Toolsmith does not own ends by the call's timeout or its run's abort.
  const deadline = new CallDeadline(tool.timeoutMs ?? policy.timeoutMs, tool.name, context);
  try {
    if (invalidArgs !== undefined) {
      args = invalidArgs;
    } else {
      try {
        args = parseArguments(tool.name, call.args, limits);
      } catch (parseError) {
        const fixed = repairing && typeof call.args === 'string' && (parseError as ToolsmithError).code === 'MALFORMED_ARGUMENTS' ? repairArgumentText(call.args) : undefined;
        if (!fixed) throw parseError;
        repairs = fixed.repairs;
        args = parseArguments(tool.name, fixed.text, limits);
      }
    }

    // Indexed loops: a for-of would allocate an iterator per call even for the usual empty chains.
    for (let i = 0; i < callbacks.beforeTool.length; i++) {
      const replaced = await deadline.within(callbacks.beforeTool[i]({ tool, args, context }));
      if (replaced != null) return withRepairs(succeeded(call, await fitted(input, tool, replaced, policy)), repairs);
    }

    const standard = standardArgumentsOf(tool);
    if (standard) {
      // Standard Schemas judge (see validation/standard-arguments.ts); their output values are what the tool gets.
      const judging = judgeArguments({ toolName: tool.name, parameters: tool.parameters, check: standard, args, repairing, limits });
      // A library that answers synchronously is not awaited: the usual call makes no promise here.
      const judged = judging instanceof Promise ? await deadline.within(judging) : judging;
      if (judged.repairs) repairs = repairs ? repairs.concat(judged.repairs) : judged.repairs;
      if (judged.problems) {
        const { checked, schemaErrors, problems } = judged;
        const all = allArgumentProblems({ tool, args: checked, context, schemaProblems: problems, schemaErrors });
        const found = all instanceof Promise ? await deadline.within(all) : all;
        // Without onToolError callbacks the error is the response at once (throwing costs more than the rest of it).
        if (callbacks.onToolError.length === 0) return withRepairs(invalidArguments(call, tool.name, found, budget), repairs);
        throw new InvalidArgumentsError(tool.name, found);
      }
      args = judged.args!;
    } else {
      const validate = validatorFor(tool.parameters);
      let valid = invalidArgs === undefined && validate(args);
      // Only where ajv refused a value a repair could fix: the usual invalid call has none, and skips the walk.
      if (!valid && repairing && mayRepair(validate.errors, args)) {
        const repaired = repairArguments(args, tool.parameters, { maxDepth: limits.maxDepth, tooDeep: () => tooDeep(tool.name, limits) });
        if (repaired) {
          repairs = repairs ? repairs.concat(repaired.repairs) : repaired.repairs;
          // A decoded property is new model input: it meets the same limits and key rules as the rest.
          args = parseArguments(tool.name, repaired.args, limits);
          valid = validate(args);
        }
      }
      if (!valid) {
        const schemaErrors = validate.errors;
        const all = allArgumentProblems({ tool, args, context, schemaProblems: toArgumentProblems(schemaErrors, args), schemaErrors });
        const found = all instanceof Promise ? await deadline.within(all) : all;
        // As above: no confirmation was decided yet, so the catch below would answer with just this.
        if (callbacks.onToolError.length === 0) return withRepairs(invalidArguments(call, tool.name, found, budget), repairs);
        throw new InvalidArgumentsError(tool.name, found);
      }
    }

    const hasRule = hasConfirmationRule(tool);
    if (input.policyAskAnswered) {
      // Answered already (see resume-confirmed-calls.ts): the policy is asked once per call.
    } else if (context.toolConfirmation) {
      // A relayed request's decision (any of the four) goes to the agent tool, which passes it on to its inner agent.
      // So does a rejected update question: the long-running tool hears it and may cancel its job.
      if (!context.toolConfirmation.confirmed && !context.toolConfirmation.relay && !context.toolConfirmation.update) throw new ToolCallRejectedError(tool.name, context.toolConfirmation.message);
    } else {
      // The policy first: its deny beats any grant, its allow needs none (docs/confirmation.md, "A policy before the person").
      verdict = input.confirmationPolicy ? await deadline.within(judgeCall(input.confirmationPolicy, { tool, args, userId: context.userId, sessionId: context.sessionId, context })) : undefined;
      const enforced = verdict?.mode === 'enforce' ? verdict.decision : 'none';
      if (enforced === 'deny') {
        decided = { decision: 'reject', by: 'policy', message: verdict!.reason! };
        throw new ToolCallDeniedError(tool.name, verdict!.reason!);
      }
      if (enforced === 'allow') {
        if (hasRule && (await deadline.within(confirmationRuleAsks(tool.requireConfirmation, args, context)))) decided = { decision: 'approve', by: 'policy', ...(verdict!.reason === undefined ? {} : { reason: verdict!.reason }) };
      } else if (enforced === 'ask' || (hasRule && (await deadline.within(confirmationRuleAsks(tool.requireConfirmation, args, context))))) {
        decided = input.confirmationGate ? await deadline.within(input.confirmationGate(tool, args, context)) : undefined;
        if (!decided) {
          context.requestConfirmation({ hint: await deadline.within(confirmationHint(tool, args, context)) });
          context.actions.requestedToolConfirmations![call.id].askedBy = 'runner'; // a grant may answer it next time
          if (verdict) context.actions.requestedToolConfirmations![call.id].policy = verdict;
          return withRepairs(withVerdict(pendingConfirmation(call, tool.name), verdict), repairs);
        }
      }
    }
    let result: unknown;
    try {
      // After the confirmation gate (the user is never asked to sign in for a call they would then deny),
      // and under the call's timeout: a token endpoint that never answers cannot hold the call past it.
      const ran = tool.auth === undefined ? tool.run(args, context) : runWithCredential(tool, tool.auth, args, context);
      // Awaiting only a real promise saves a microtask per call for synchronous tools (which no timer could stop anyway).
      result = isPromiseLike(ran) ? await deadline.within(ran, true) : ran;
      if (result === AWAITING_CREDENTIAL) return pendingConfirmation(call, tool.name);
    } catch (thrown) {
      const error = runError(thrown, tool, policy, context);
      throw error instanceof Promise ? await error : error;
    } finally {
      context.endCall();
    }
    const requested = context.actions.requestedToolConfirmations?.[call.id];
    // A call running after an answer may not ask for confirmation again, but may ask for a credential (again),
    // an agent tool may relay its inner agent's next request, and a long-running tool run again with an
    // update question's answer may ask the person again (the call keeps waiting: resume-confirmed-calls.ts).
    if (requested && mayAsk(context.toolConfirmation, requested)) {
      // The request records the policy's verdict (its response will not: the policy is not asked again); the
      // inner calls an agent tool ran so far stay in the inner session saved with it, and reach its final response.
      takeInnerCalls(context);
      if (verdict && !requested.policy) requested.policy = verdict;
      const pending = withRepairs(withVerdict(pendingConfirmation(call, tool.name), verdict), repairs);
      // A grant answered the policy's ask and the tool asks its own question: the request names the grant,
      // and the call's response will (resume-confirmed-calls.ts), whatever the answer.
      if (decided?.grantId !== undefined && requested.askedBy === 'tool' && !requested.relay && !requested.auth) {
        requested.grantId = decided.grantId;
        pending.settled = decided;
      }
      return pending;
    }
    // Files go beside the JSON, never into it: only the JSON is checked, budgeted and seen by afterTool.
    let parts: FunctionResponsePart[] | undefined;
    if (result instanceof ToolFile || result instanceof ToolResult) {
      parts = resultFileParts(tool.name, result, policy.maxFileBytes ?? DEFAULT_MAX_TOOL_FILE_BYTES);
      result = resultJson(result);
    }
    if (tool.responseSchema !== undefined && policy.outputValidation !== 'off') checkOutput(tool, result, policy);

    let response = wrapResult(result);
    for (let i = 0; i < callbacks.afterTool.length; i++) {
      const replaced = await callbacks.afterTool[i]({ tool, args, context, response });
      if (replaced != null) {
        response = replaced;
        break;
      }
    }
    const fit = fitted(input, tool, response, policy);
    const outcome = succeeded(call, fit instanceof Promise ? await fit : fit);
    if (parts) outcome.response.parts = parts;
    if (decided) outcome.response.confirmation = decided;
    return withInnerCalls(withRepairs(withVerdict(outcome, verdict), repairs), context);
  } catch (thrown) {
    // Cancelled before its run (the run's own step waited already): once nothing of the call is left behind.
    const cancelledBy = context.cancelledBy;
    if (cancelledBy !== undefined && thrown === cancelledBy) await context.cancel(cancelledBy);
    const error = toolError(thrown, tool, policy, context);
    for (const onError of callbacks.onToolError) {
      try {
        const recovered = await onError({ tool, args, context, error });
        if (recovered != null) return withInnerCalls(withRepairs({ ...succeeded(call, await fitted(input, tool, recovered, policy)), error }, repairs), context);
      } catch (callbackError) {
        return withInnerCalls(withRepairs(failed(call, toolError(callbackError, tool, policy, context), budget), repairs), context);
      }
    }
    const outcome = failed(call, error, budget);
    if (decided) outcome.response.confirmation = decided; // it ran on the grant (and failed), or the policy denied it
    return withInnerCalls(withRepairs(withVerdict(outcome, verdict), repairs), context);
  }
}

/**
 * True when a call's request (`requested`) pauses it: a first run's request, a credential asked for (again),
 * an agent tool's relayed request, or a question a long-running tool asks again when run with the answer to
 * an update's question. Otherwise a call run after an answer gives its result, and its request is dropped.
 */
function mayAsk(answered: ToolConfirmation | undefined, requested: ToolConfirmation): boolean {
  return !answered || requested.auth !== undefined || requested.relay !== undefined || answered.update !== undefined;
}

/**
 * The outcome of a call in {@link executeToolCall}'s small frame whose arguments the tool's JSON Schema refused
 * (`errors`: ajv's), as the full path answers it when nothing can change the answer: no repair applies and the tool
 * has no class-validator checks (its problems are ajv's alone; see allArgumentProblems). No callback runs, so the
 * error is the response at once. `undefined` otherwise: the full path repairs, or awaits the checks.
 */
function invalidCall(input: ExecuteToolCallInput, tool: BaseTool, args: Record<string, unknown>, errors: ValidateFunction['errors']): ToolCallOutcome | undefined {
  const policy = input.policy ?? DEFAULT_TOOL_CALL_POLICY;
  if (checksDtoArguments(tool) || (policy.repairArguments !== false && tool.repairArguments !== false && mayRepair(errors, args))) return undefined;
  const budget = tool.maxResultChars ?? policy.maxResultChars;
  try {
    return invalidArguments(input.call, tool.name, toArgumentProblems(errors, args), budget);
  } catch (thrown) {
    return withInnerCalls(failed(input.call, toolError(thrown, tool, policy, input.context), budget), input.context);
  }
}

/**
 * The rest of a call in {@link executeToolCall}'s small frame whose tool returned a promise (`threw`: or threw):
 * the full path's run step (timeout, cancellation, the call's end) and what follows it.
 */
async function finishRun(input: ExecuteToolCallInput, tool: BaseTool, policy: ToolCallPolicy, budget: number, ran: unknown, threw: boolean): Promise<ToolCallOutcome> {
  const { call, context } = input;
  let result: unknown;
  try {
    try {
      if (threw) throw ran;
      result = await untilSettledOrCancelled(ran as PromiseLike<unknown>, tool.timeoutMs ?? policy.timeoutMs, tool.name, context);
    } catch (thrown) {
      const error = runError(thrown, tool, policy, context);
      throw error instanceof Promise ? await error : error;
    } finally {
      context.endCall();
    }
  } catch (thrown) {
    return withInnerCalls(failed(call, toolError(thrown, tool, policy, context), budget), context);
  }
  const done = respond(input, tool, policy, budget, result);
  return done instanceof Promise ? await done : done;
}

/**
 * The outcome of a call in {@link executeToolCall}'s small frame that ran (no callbacks, no confirmation
 * decided, no repairs): its request for confirmation, or its result checked, fitted and wrapped, or the failure.
 */
function respond(input: ExecuteToolCallInput, tool: BaseTool, policy: ToolCallPolicy, budget: number, ran: unknown): ToolCallOutcome | Promise<ToolCallOutcome> {
  const { call, context } = input;
  try {
    const requested = context.actions.requestedToolConfirmations?.[call.id];
    if (requested && mayAsk(context.toolConfirmation, requested)) {
      takeInnerCalls(context);
      return pendingConfirmation(call, tool.name);
    }
    let result = ran;
    let parts: FunctionResponsePart[] | undefined;
    if (result instanceof ToolFile || result instanceof ToolResult) {
      parts = resultFileParts(tool.name, result, policy.maxFileBytes ?? DEFAULT_MAX_TOOL_FILE_BYTES);
      result = resultJson(result);
    }
    if (tool.responseSchema !== undefined && policy.outputValidation !== 'off') checkOutput(tool, result, policy);
    const fit = fitted(input, tool, wrapResult(result), policy);
    if (fit instanceof Promise) return respondSaved(input, tool, policy, budget, fit, parts);
    const outcome = succeeded(call, fit);
    if (parts) outcome.response.parts = parts;
    return withInnerCalls(outcome, context);
  } catch (thrown) {
    return withInnerCalls(failed(call, toolError(thrown, tool, policy, context), budget), context);
  }
}

/** {@link respond} once a result over the budget is saved whole. */
async function respondSaved(input: ExecuteToolCallInput, tool: BaseTool, policy: ToolCallPolicy, budget: number, fit: Promise<Record<string, unknown>>, parts: FunctionResponsePart[] | undefined): Promise<ToolCallOutcome> {
  const { call, context } = input;
  try {
    const outcome = succeeded(call, await fit);
    if (parts) outcome.response.parts = parts;
    return withInnerCalls(outcome, context);
  } catch (thrown) {
    return withInnerCalls(failed(call, toolError(thrown, tool, policy, context), budget), context);
  }
}

/** True when the tool declares a `requireConfirmation` rule (the runner asks for it; a grant may answer). */
export function hasConfirmationRule(tool: BaseTool): boolean {
  return tool.requireConfirmation !== undefined && tool.requireConfirmation !== false;
}

/**
 * The response as the model gets it: checked to be JSON (else `INVALID_TOOL_RESULT`, and nothing of it is
 * stored), copied as plain JSON (so that it shares no object the tool keeps) and cut to the budget, the whole result saved as an artifact when an artifact service is configured.
 */
function fitted(input: ExecuteToolCallInput, tool: BaseTool, response: Record<string, unknown>, policy: ToolCallPolicy): Record<string, unknown> | Promise<Record<string, unknown>> {
  const maxChars = tool.maxResultChars ?? policy.maxResultChars;
  // The checked copy, never the tool's own object: a tool may keep and change what it returned.
  const { response: copy, text } = inspectResult(tool.name, response, maxChars);
  // Synchronous unless a result over the budget is saved: the usual call pays no extra await.
  if (text === undefined || text.length <= maxChars) return copy;
  if (!input.saveWholeResults) return truncatedResult(text, maxChars) as unknown as Record<string, unknown>;
  const artifact = `tool-result-${input.call.id.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`;
  return input.context
    .saveArtifact(artifact, { inlineData: { mimeType: 'application/json', data: Buffer.from(text).toString('base64') } })
    .then(() => truncatedResult(text, maxChars, artifact) as unknown as Record<string, unknown>);
}

/** What {@link runWithCredential} resolves to when the call must pause for the user's credential. */
const AWAITING_CREDENTIAL = Symbol('awaiting credential');

/** Sets `ctx.credential` for the tool's `auth` (refreshing it if need be), then runs it; or asks for the credential. */
async function runWithCredential(tool: BaseTool, auth: AuthConfig, args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
  if (!(await context.prepareCredential(auth))) return AWAITING_CREDENTIAL;
  return tool.run(args, context);
}

/**
 * What a tool's run step that threw becomes: the call's error (a {@link ToolsmithError} as it is, anything
 * else the tool's failure), once a cancelled call has left nothing behind (its writes are gone and the
 * artifact versions it saved deleted: then a promise).
 */
function runError(thrown: unknown, tool: BaseTool, policy: ToolCallPolicy, context: ToolContext): ToolsmithError | Promise<ToolsmithError> {
  const error = toolError(thrown, tool, policy, context);
  const cancelledBy = context.cancelledBy;
  return cancelledBy !== undefined && thrown === cancelledBy ? context.cancel(cancelledBy).then(() => error) : error;
}

/** The work of cancelled calls, by their context: it may still run after the call was answered. */
const stillRunning = new WeakMap<ToolContext, Promise<void>>();

function noop(): void {}

/**
 * When the call of `context` was cancelled (timed out, or its run aborted) while its tool ran: resolves
 * once the tool's own work has ended (whether it returned or threw). `undefined` when there is nothing to
 * wait for: the call ended on its own, or never reached its tool.
 */
export function workAfterCancel(context: ToolContext): Promise<void> | undefined {
  return stillRunning.get(context);
}

/**
 * The deadline of one call on the full path of {@link executeToolCall}: the call's timeout and its run's
 * signal cover each step that awaits code Toolsmith does not own (beforeTool callbacks, an async Standard
 * Schema `validate`, class-validator's checks of refused arguments, the confirmation policy, rule, grant
 * gate and hint, the credential and `run`), the timeout counted from the first of them. A step that answers
 * synchronously is not awaited and has no timer (nothing could interrupt it).
 */
class CallDeadline {
  /** When the first awaited step began (`performance.now()`); unset until one is awaited. */
  private startedAt: number | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly toolName: string,
    private readonly context: ToolContext,
  ) {}

  /**
   * `work` itself when it is no promise; else it, or the call cancelled with `TOOL_TIMEOUT` or `RUN_ABORTED`
   * (see {@link untilSettledOrCancelled}). `toolsOwn`: it is the tool's run, which a sequential tool's next call waits for.
   */
  within<T>(work: T | PromiseLike<T>, toolsOwn = false): T | Promise<T> {
    if (!isPromiseLike(work)) return work;
    let waitMs = this.timeoutMs;
    if (waitMs > 0 && waitMs !== Infinity) {
      const now = performance.now();
      if (this.startedAt === undefined) this.startedAt = now;
      else waitMs -= now - this.startedAt;
    }
    return untilSettledOrCancelled(work, this.timeoutMs, this.toolName, this.context, waitMs, toolsOwn) as Promise<T>;
  }
}

/**
 * Settles with `work`, or cancels the call (see `ToolContext.cancel`: its signal aborts and its effects
 * are discarded) and rejects: with `TOOL_TIMEOUT` after `waitMs` (the part of `timeoutMs` left; at once when
 * none is), or with `RUN_ABORTED` when its run is aborted. The runner, `invokeTool` and `serveMcp` all cancel
 * calls through here. `toolsOwn`: `work` is the tool's run, which may go on after the call was answered.
 */
function untilSettledOrCancelled(work: PromiseLike<unknown>, timeoutMs: number, toolName: string, context: ToolContext, waitMs = timeoutMs, toolsOwn = true): Promise<unknown> {
  const timed = timeoutMs > 0 && timeoutMs !== Infinity;
  const run = context.runSignal;
  if (!timed && !run) return Promise.resolve(work);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    const cancel = (error: ToolsmithError) => {
      void context.cancel(error);
      // Answered now, but the tool's own work may go on: a sequential tool's next call waits for it (not for
      // a step before its run, such as a validation that never settles: the tool never started).
      if (toolsOwn) stillRunning.set(context, Promise.resolve(work).then(noop, noop));
      reject(error);
    };
    if (timed) {
      timer = setTimeout(() => cancel(new ToolTimeoutError(toolName, timeoutMs)), Math.max(0, waitMs));
      // The timer alone never keeps a process alive (a script may end while a call hangs after an abort).
      timer.unref?.();
    }
    if (run?.aborted) cancel(new RunAbortedError(run.reason));
    else if (run) run.addEventListener('abort', (onAbort = () => cancel(new RunAbortedError(run.reason))), { once: true });
  });
  return Promise.race([work, cancelled]).finally(() => {
    clearTimeout(timer);
    if (onAbort) run!.removeEventListener('abort', onAbort);
  });
}

/**
 * Checks the tool's result (the value it returned, before wrapping) against its declared output schema,
 * compiled on first use like input validators. Throws `TOOL_OUTPUT_INVALID`, or warns under `'warn'`.
 */
function checkOutput(tool: BaseTool, result: unknown, policy: ToolCallPolicy): void {
  let problems;
  try {
    const validate = validatorFor(tool.responseSchema!);
    const value = result === undefined ? null : result;
    problems = validate(value) ? [] : toArgumentProblems(validate.errors, value);
  } catch (thrown) {
    problems = [{ path: '', keyword: 'schema', message: `the output schema cannot be compiled (${thrownMessage(thrown)})` }];
  }
  if (problems.length === 0) return;
  const error = new ToolOutputInvalidError(tool.name, problems);
  if (policy.outputValidation === 'warn') process.emitWarning(error.message, { code: 'TOOLSMITH_TOOL_OUTPUT_INVALID' });
  else throw error;
}

/**
 * What a call's tool or tool callback threw, as the call's error: a Toolsmith error as it is, anything else the
 * tool's failure ({@link toolFailure}). A `RunAbortedError` (`RUN_ABORTED`) while the call's run is not aborted (a
 * tool, callback or `AgentTool`'s inner agent threw one) is no abort of the run: it is the tool's failure
 * (`TOOL_EXECUTION_FAILED`), so no function response claims an abort that did not happen (errors.md).
 */
function toolError(thrown: unknown, tool: BaseTool, policy: ToolCallPolicy, context: ToolContext): ToolsmithError {
  const reported = reportableError(thrown);
  const error = reported === undefined || (reported.code === 'RUN_ABORTED' && context.runSignal?.aborted !== true) ? toolFailure(tool.name, thrown, policy) : reported;
  // The credential the runner handed this call never reaches the model, the session or a span through its
  // error (a tool that writes the key it was refused into its message). A call that got none pays one
  // WeakMap lookup, on its error path only.
  const secrets = injectedSecrets(context);
  if (secrets === undefined) return error;
  // A code that quotes it is no code to keep (a code is stored and shown as it is): the call fails as a tool whose
  // error cannot be reported as it is, `TOOL_EXECUTION_FAILED` with the thrown error's text (tools.md, "Errors").
  return withoutSecrets(error === reported && quotesSecret(error.code, secrets) ? toolFailure(tool.name, thrown, policy) : error, secrets);
}

/** A thrown non-Toolsmith error, with the message the error policy lets the model see. */
function toolFailure(toolName: string, thrown: unknown, policy: ToolCallPolicy): ToolExecutionError {
  return policy.errorExposure === 'message'
    ? new ToolExecutionError(toolName, thrown)
    : new ToolExecutionError(toolName, thrown, exposedMessage(policy.errorExposure, toolName, thrown));
}

/** A plain object is the response; anything else is wrapped as `{ result }`. */
export function wrapResult(result: unknown): Record<string, unknown> {
  if (typeof result === 'object' && result !== null && !Array.isArray(result)) {
    const proto = Object.getPrototypeOf(result);
    if (proto === Object.prototype || proto === null) return result as Record<string, unknown>;
  }
  return { result: result === undefined ? null : result };
}

/**
 * The model-facing response of a failure: code and message, plus validation details; never a stack.
 * Details are checked as results are: details JSON cannot carry (a BigInt, a cycle…) would make the
 * session unstorable, so they are left out and `detailsOmitted` says why. Each problem is said once:
 * `details.problems` whose every message the message already quotes (`INVALID_ARGUMENTS`,
 * `TOOL_OUTPUT_INVALID`) is left out of the response, since the model pays for each token again on
 * every retry; the error itself keeps them (`error.details`, in the event and the logs). With `maxChars`
 * (the call's result budget) the response is cut as a result is: details left out, then the message's end.
 */
export function errorResponse(call: Pick<FunctionCall, 'id' | 'name'>, error: ToolsmithError, maxChars?: number): FunctionResponse {
  // Checked again here, where it is read: a callback (onToolError) or the thrower may have changed the
  // error since it was first taken as it is; what cannot be reported is the tool's failure, by its text.
  if (!reportableError(error)) return errorResponse(call, new ToolExecutionError(call.name, error), maxChars);
  const body: Record<string, unknown> = { code: error.code, message: toolCallFeedback(call.name, error) };
  let details: unknown;
  try {
    details = withoutStatedDetails(call, error, withoutRepeatedProblems(error.details, error.message));
  } catch (thrown) {
    // Details that cannot even be looked at (a revoked Proxy): the code and message still say what failed.
    body.detailsOmitted = `the error's details cannot be read (${thrownMessage(thrown)})`;
    return { id: call.id, name: call.name, response: { error: maxChars === undefined ? body : fittedErrorBody(body, maxChars) }, isError: true };
  }
  if (details !== undefined) {
    // The copy that was checked, not the error's own object (read again, a getter may answer otherwise).
    const checked = copiedAsJson(details);
    if (checked.problem === undefined) body.details = checked.copy;
    else body.detailsOmitted = `the error's details are not JSON: ${checked.problem.replace(/^the result/, 'they')}`;
  }
  return { id: call.id, name: call.name, response: { error: maxChars === undefined ? body : fittedErrorBody(body, maxChars) }, isError: true };
}

/** `details` without a `problems` list that only repeats `message`; `undefined` when nothing else is left. */
function withoutRepeatedProblems(details: unknown, message: string): unknown {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return details;
  const problems = (details as { problems?: unknown }).problems;
  if (!Array.isArray(problems) || !listsProblems(message, problems)) return details;
  // The usual details (`{ problems }` alone) leave nothing: no copy is made.
  let others = false;
  for (const key in details) if (key !== 'problems' && Object.prototype.hasOwnProperty.call(details, key)) others = true;
  if (!others) return undefined;
  const { problems: _repeated, ...rest } = details as { problems?: unknown };
  return rest;
}

/**
 * True when `message` lists `problems` as `listProblems` writes them: each problem's (cut) sentence, in
 * order, and the ones left out counted (`…and N more problems`). One pass over the message: each search
 * starts where the previous problem ended (a search per problem over the whole message was quadratic).
 */
function listsProblems(message: string, problems: readonly unknown[]): boolean {
  let at = 0;
  for (let i = 0; i < problems.length; i++) {
    const problem = problems[i] as { message?: unknown } | null;
    if (typeof problem !== 'object' || problem === null || typeof problem.message !== 'string') return false;
    const listed = cutProblem(problem.message);
    const found = message.indexOf(listed, at);
    if (found === -1) return message.indexOf(moreProblemsText(problems.length - i), at) !== -1;
    at = found + listed.length;
  }
  return true;
}

/** The tool author's hint (text or computed from the arguments); the generic question when there is none or it is empty. */
async function confirmationHint(tool: BaseTool, args: Record<string, unknown>, context: ToolContext): Promise<string> {
  const hint = tool.confirmationHint;
  const text = typeof hint === 'function' ? await hint(args, context) : hint;
  return typeof text === 'string' && text.trim() !== '' ? text : `Please approve or reject the call to tool "${tool.name}".`;
}

/** The outcome with the repairs made to its arguments recorded on its response (unchanged when there were none). */
function withRepairs(outcome: ToolCallOutcome, repairs: ArgumentRepair[] | undefined): ToolCallOutcome {
  if (repairs) outcome.response.argumentRepairs = repairs;
  return outcome;
}

/** Lists on the response what an agent tool recorded of the calls inside it (`innerCalls`), when it recorded any. */
function withInnerCalls(outcome: ToolCallOutcome, context: ToolContext): ToolCallOutcome {
  const inner = takeInnerCalls(context);
  if (inner) outcome.response.innerCalls = inner;
  return outcome;
}

/** Records the policy's verdict on the outcome (for its span) and, unless the call waits, on its response. */
function withVerdict(outcome: ToolCallOutcome, verdict: ConfirmationPolicyVerdict | undefined): ToolCallOutcome {
  if (!verdict) return outcome;
  outcome.policy = verdict;
  if (!outcome.confirmationRequested) outcome.response.policy = verdict;
  return outcome;
}

function succeeded(call: FunctionCall, response: Record<string, unknown>): ToolCallOutcome {
  return { response: { id: call.id, name: call.name, response } };
}

function failed(call: FunctionCall, error: ToolsmithError, maxChars: number): ToolCallOutcome {
  return { response: errorResponse(call, error, maxChars), error };
}

/**
 * {@link failed} with an {@link InvalidArgumentsError} when nothing catches it: the response is made from
 * the same code, message and details, and the error itself only when something reads `error` (an
 * `Error` captures where it was made even without a stack trace: the costliest step of an invalid call).
 */
function invalidArguments(call: FunctionCall, toolName: string, problems: readonly ArgumentProblem[], maxChars: number): ToolCallOutcome {
  // The error's details (`{ problems }` alone) only repeat its message, which lists every problem as
  // `listProblems` writes them: errorResponse leaves them out (see withoutRepeatedProblems), and so does
  // this, without searching the message for each problem again.
  // The feedback is already what the model reads (no tool name to take out: see toolCallFeedback),
  // so the body is made here; reading its start again would flatten the freshly joined text for nothing.
  const body: Record<string, unknown> = { code: 'INVALID_ARGUMENTS', message: invalidArgumentsFeedback(problems) };
  return new InvalidArgumentsOutcome({ id: call.id, name: call.name, response: { error: fittedErrorBody(body, maxChars) }, isError: true }, toolName, problems);
}

/** The outcome {@link invalidArguments} returns; a class, so its getter is the prototype's and not made per call. */
class InvalidArgumentsOutcome implements ToolCallOutcome {
  private made?: InvalidArgumentsError;

  constructor(
    readonly response: FunctionResponse,
    private readonly toolName: string,
    private readonly problems: readonly ArgumentProblem[],
  ) {}

  get error(): InvalidArgumentsError {
    return (this.made ??= new InvalidArgumentsError(this.toolName, this.problems));
  }
}

function pendingConfirmation(call: FunctionCall, toolName: string): ToolCallOutcome {
  return {
    response: {
      id: call.id,
      name: call.name,
      response: { error: { code: 'CONFIRMATION_REQUIRED', message: `The call to tool "${toolName}" is waiting for the user's confirmation.` } },
      isError: true,
    },
    confirmationRequested: true,
  };
}
