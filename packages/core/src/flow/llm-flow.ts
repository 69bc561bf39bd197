import type { InvocationContext } from '../agents/invocation-context';
import type { BaseAgent } from '../agents/base-agent';
import type { LlmAgent } from '../agents/llm-agent';
import { AgentNotFoundError } from '../errors/agent-not-found-error';
import { MaxLlmCallsExceededError } from '../errors/max-llm-calls-exceeded-error';
import { RunAbortedError } from '../errors/run-aborted-error';
import type { Event } from '../events/event';
import { errorEvent } from './error-event';
import { type FunctionCallsThen, type HandleFunctionCallsInput, handleFunctionCalls } from './function-call-handler';
import { confirmationPause } from './confirmation-pause';
import { type ModelStep, type ModelStepThen, callModel, streamModel } from './model-call';
import { type EventSteps, eventsOf, generatorSteps } from './event-steps';
import type { OfferedTools } from './tool-resolver';
import { pendingValidatorWarmUp } from '../validation/validator-warm-up';
import { DEFAULT_ARGUMENT_LIMITS } from '../validation/argument-parser';
import { OUTPUT_INVALID, checkStructuredOutput } from './structured-output';
import { answersConfirmations, resumeConfirmedCalls } from './resume-confirmed-calls';
import { summarizeIfDue } from './summarize-history';
import type { SummarizeCompaction } from '../context/compaction-options';
import type { FunctionCall } from '../model/content';
import type { ToolsmithError } from '../errors/toolsmith-error';
import { asksQuestion, updateQuestionPause } from './update-question-pause';

/**
 * The model ⇄ tool loop of an {@link LlmAgent}: call the model, emit its response, run the function
 * calls it asked for, emit their merged responses, repeat. Ends on a final answer, an error, a pause
 * (confirmation, long-running tool), `skipSummarization`, `escalate`, a transfer (the target agent
 * continues the invocation) or `maxLlmCalls`. Inside an `invoke_agent` span when the invocation is traced.
 */
export function runLlmFlow(agent: LlmAgent, context: InvocationContext): AsyncGenerator<Event, void, undefined> {
  const events = eventsOf(new LlmFlow(agent, context));
  return context.trace ? context.trace.agentTurn(agent, events) : events;
}

/** Where {@link LlmFlow.next} goes on from: the point of the loop after the batch it handed out last. */
const enum Phase {
  /** Nothing done yet: a question, or the answers to confirmations, come first. */
  Start,
  /** Before a model call: the abort, call-count and budget checks, and compaction. */
  Model,
  /** After a compaction event: the model call itself. */
  Call,
  /** A streaming model call is under way: its partial events, one per batch, then its response. */
  Streaming,
  /** After the model's event: the function calls it asked for. */
  Tools,
  /** After a step's function responses: the model again, or the end ({@link callsModelAgain}). */
  Responded,
  /** A transfer: the target agent's run continues the invocation. */
  Transferred,
  Done,
}

/**
 * {@link runLlmFlow}'s loop as a step machine: each {@link LlmFlow.next} runs the loop up to its next
 * batch of events (a model call, a batch of tool calls) and hands them out together, so the runner drives
 * the loop without a generator layer per event. The caller stores each complete event of a batch before
 * it asks for the next batch, as it does with a generator: the loop sees its own events in the session.
 * While a streaming model call or a transfer target runs, each batch is one of its events.
 *
 * `next()` is no async function of its own: the loop's steps up to a model call or a batch of tool calls
 * are synchronous, and what the loop makes of the call's step runs inside the call's own async function
 * (see `callModel`'s and `handleFunctionCalls`' `then`), so a step costs no promise layer of the loop's.
 * The loop is itself that `then` (its {@link LlmFlow.afterModelStep} and {@link LlmFlow.afterFunctionCalls}),
 * and the input of its steps' function calls (the agent, context, calls, offered tools and refused calls
 * are its fields): a step makes no callback and no input object.
 *
 * `transferSteps` runs a transfer target: by default through its `runAsync`; the runner passes one that
 * drives a plain `LlmAgent` target's step machine directly.
 */
export class LlmFlow implements EventSteps, HandleFunctionCallsInput, ModelStepThen<Event[]>, FunctionCallsThen<Event[]> {
  private phase = Phase.Start;
  private outputRetries = 0;
  /** The model call's step ({@link Phase.Tools}). */
  private step?: ModelStep;
  /** @internal The calls of the step whose function responses are being made ({@link Phase.Tools}); else none. */
  calls: readonly FunctionCall[] = NO_CALLS;
  /** @internal Those of {@link LlmFlow.calls} refused at the model boundary ({@link Phase.Tools}). */
  refusedCalls?: ReadonlyMap<string, ToolsmithError>;
  /** @internal The tools offered to the model call of the step (set before the call). */
  offered!: OfferedTools;
  /** The function responses ({@link Phase.Responded}). */
  private responseEvent?: Event;
  /** The compaction event ({@link Phase.Call}). */
  private compacted?: Event;
  /** The streaming model call under way ({@link Phase.Streaming}). */
  private stream?: AsyncGenerator<Event, ModelStep, undefined>;
  /** The transfer target's run ({@link Phase.Transferred}). */
  private target?: EventSteps;
  /** What a model call made in {@link LlmFlow.nextTo}'s step hands its step to (made at its first call). */
  private consumer?: StepConsumer;
  /** In {@link LlmFlow.nextTo}'s step: a model call hands its step to the consumer (`consumed`: one did). */
  private consuming = false;
  private consumed = false;
  constructor(
    /** @internal */
    readonly agent: LlmAgent,
    /** @internal */
    readonly context: InvocationContext,
    private readonly transferSteps: (target: BaseAgent, context: InvocationContext) => EventSteps = runAsyncSteps,
  ) {}

  /** The loop handed out its last batch: {@link LlmFlow.next} would resolve to `undefined`. */
  get finished(): boolean {
    return this.phase === Phase.Done || (this.phase === Phase.Transferred && this.target!.finished === true);
  }

  /** Ends the loop early: closes the streaming model call or the transfer target's run it reads from. */
  async close(): Promise<void> {
    this.phase = Phase.Done;
    const { stream, target } = this;
    this.stream = this.target = undefined;
    if (stream) await stream.return(undefined as never);
    if (target) await target.close();
  }

  /**
   * The next batch of events (never empty), or `undefined` at the end. A loop that throws is over; so is
   * one whose batch is refused, once its consumer closes it (the runner and {@link eventsOf} both do).
   */
  next(): Promise<Event[] | undefined> {
    try {
      const batch = this.nextNow();
      return batch instanceof Promise ? batch : Promise.resolve(batch);
    } catch (thrown) {
      return Promise.reject(thrown);
    }
  }

  /**
   * {@link EventSteps.nextTo}: a model call made now hands its step to `arrived` (its failure to `failed`)
   * in the call's own async function; any other batch that must be waited for is given to them by a `then`.
   */
  nextTo<R>(arrived: (batch: Event[] | undefined) => R | Promise<R>, failed: (thrown: unknown) => Promise<R>): Event[] | undefined | Promise<R> {
    const consumer = (this.consumer ??= new StepConsumer(this));
    consumer.arrived = arrived;
    consumer.failed = failed;
    this.consuming = true;
    let batch: Event[] | undefined | Promise<Event[] | undefined>;
    try {
      batch = this.nextNow();
    } finally {
      this.consuming = false;
    }
    if (!(batch instanceof Promise)) return batch;
    if (this.consumed) {
      this.consumed = false;
      // The model call's promise: of what `arrived` or `failed` made of its step (see call).
      return batch as unknown as Promise<R>;
    }
    return batch.then(arrived, failed);
  }

  /** {@link LlmFlow.next}, with the batch itself when no step before it waits (the tool step's usual batch), and a throw for a rejection. */
  nextNow(): Event[] | undefined | Promise<Event[] | undefined> {
    try {
      return this.advance();
    } catch (thrown) {
      this.phase = Phase.Done;
      throw thrown;
    }
  }

  /** Runs the loop up to its next batch: the batch itself when no step before it waits, else the promise of it. */
  private advance(): Event[] | undefined | Promise<Event[] | undefined> {
    const { agent, context } = this;
    for (;;) {
      switch (this.phase) {
        case Phase.Start: {
          // An update that asks the person a question pauses the run on it, before any model call.
          const question = context.userContent && asksQuestion(context.userContent) ? updateQuestionPause(context) : undefined;
          if (question) return this.end([question]);
          // Most messages answer no confirmation: skip the resume step (and its await) for them.
          if (answersConfirmations(context)) return this.resume();
          this.phase = Phase.Model;
          continue;
        }
        case Phase.Model: {
          if (context.aborted) return this.end([errorEvent(context, agent.name, new RunAbortedError(context.signal.reason))]);
          if (context.countLlmCall() > agent.maxLlmCalls) {
            return this.end([errorEvent(context, agent.name, new MaxLlmCallsExceededError(agent.name, agent.maxLlmCalls))]);
          }
          const overBudget = context.services.budget && context.budgetExceeded();
          if (overBudget) return this.end([errorEvent(context, agent.name, overBudget)]);
          this.phase = Phase.Call;
          const compaction = agent.compaction ?? context.services.compaction;
          // Older turns summarized into a stored compaction event before the request is built (docs/context.md).
          if (compaction?.strategy === 'summarize') return this.compact(compaction);
          continue;
        }
        case Phase.Call: {
          const compacted = this.compacted;
          if (compacted) {
            this.compacted = undefined;
            if (compacted.errorCode) return this.end(undefined);
            // The summarizing call's usage counts in the run's usage: the budget is checked again before the agent's call.
            const overAfterSummary = context.services.budget && context.budgetExceeded();
            if (overAfterSummary) return this.end([errorEvent(context, agent.name, overAfterSummary)]);
          }
          // Agents without toolsets offer the same tools every time; only toolsets need the await.
          const offered = context.services.tools.staticOffered(agent);
          if (!offered) return this.offerThenCall();
          return this.call((this.offered = offered));
        }
        case Phase.Streaming:
          return this.streamed();
        case Phase.Tools: {
          const step = this.step!;
          this.step = undefined;
          this.calls = step.event.functionCalls();
          this.refusedCalls = step.refusedCalls;
          return handleFunctionCalls(this, this);
        }
        case Phase.Responded: {
          // Decided once the caller has stored the responses (an abort may have come meanwhile).
          const responseEvent = this.responseEvent!;
          this.responseEvent = undefined;
          if (callsModelAgain(context, responseEvent)) {
            this.phase = Phase.Model;
            continue;
          }
          return this.endAfter(responseEvent);
        }
        case Phase.Transferred:
          return this.target!.next();
        case Phase.Done:
          return undefined;
      }
    }
  }

  /** {@link Phase.Start} for a message that answers confirmations: the calls they decide run first. */
  private async resume(): Promise<Event[] | undefined> {
    const resumed = await resumeConfirmedCalls(this.agent, this.context);
    if (!resumed) {
      this.phase = Phase.Model;
      return this.advance();
    }
    const events = resumed.pauseEvents ? [resumed.event, ...resumed.pauseEvents] : [resumed.event];
    if (resumed.stillWaiting) return this.end(events);
    this.responseEvent = resumed.event;
    this.phase = Phase.Responded;
    return events;
  }

  /** {@link Phase.Model} under `summarize` compaction: the compaction event when one is due (stored by the caller before the request is built from the session), else the model call. */
  private async compact(compaction: SummarizeCompaction): Promise<Event[] | undefined> {
    const compacted = await summarizeIfDue(this.agent, this.context, compaction);
    if (!compacted) return this.advance();
    this.compacted = compacted;
    return [compacted];
  }

  /** {@link Phase.Call} for an agent with toolsets: the tools offered now, then the model call. */
  private async offerThenCall(): Promise<Event[] | undefined> {
    const { agent, context } = this;
    return this.call((this.offered = await context.services.tools.offered(agent, () => context.readonlyContext())));
  }

  /** The model call: its events as one batch, or streaming, its partial events one per batch as they arrive. */
  private call(offered: OfferedTools): Promise<Event[] | undefined> {
    const { agent, context } = this;
    if (!context.streaming) {
      if (!this.consuming) return callModel(agent, context, offered, this);
      // Made in nextTo's own step: the call hands its step to the consumer itself (see nextTo).
      this.consumed = true;
      return callModel(agent, context, offered, this.consumer!) as unknown as Promise<Event[] | undefined>;
    }
    this.stream = streamModel(agent, context, offered);
    this.phase = Phase.Streaming;
    return this.streamed();
  }

  /** {@link Phase.Streaming}: the call's next partial event, or its step once it is complete. */
  private async streamed(): Promise<Event[]> {
    const result = await this.stream!.next();
    if (!result.done) return [result.value];
    this.stream = undefined;
    return this.afterModelStep(result.value);
  }

  /** @internal The model call's step, after ajv's one-time warm-up and a structured answer's check when either is due. */
  afterModelStep(step: ModelStep): Event[] | Promise<Event[]> {
    if (pendingValidatorWarmUp() || (this.agent.resolvedOutputSchema && step.ok)) return this.check(step).then(() => this.stepped(step));
    return this.stepped(step);
  }

  /** Before the model's event is handed out: ajv's one-time warm-up done, a structured answer checked. */
  private async check(step: ModelStep): Promise<void> {
    // The model call started ajv's one-time warm-up; a run never ends before it (see validator-warm-up.ts).
    const warmUp = pendingValidatorWarmUp();
    if (warmUp) await warmUp;
    if (this.agent.resolvedOutputSchema && step.ok) await checkStructuredOutput(this.agent, step.event, this.context.services.argumentLimits ?? DEFAULT_ARGUMENT_LIMITS);
  }

  /** The model call's events: its partials (a model may send some without streaming), then its event; decides what comes after. */
  private stepped(step: ModelStep): Event[] {
    const { agent } = this;
    const events = step.partials ? [...step.partials, step.event] : [step.event];
    if (!step.ok) return this.end(events);
    if (hasFunctionCall(step.event)) {
      this.step = step;
      this.phase = Phase.Tools;
      return events;
    }
    // An answer that broke the output schema goes back to the model (see contents-builder.ts) while retries remain.
    if (step.event.errorCode === OUTPUT_INVALID && this.outputRetries++ < agent.outputRetries) {
      this.phase = Phase.Model;
      return events;
    }
    // A transfer a model callback set (`context.actions.transferToAgent`) on an answer with no calls is acted on after
    // the model event, as a tool's is after the function responses (an abort meanwhile ends the run RUN_ABORTED).
    if (step.event.actions.transferToAgent) {
      this.responseEvent = step.event;
      this.phase = Phase.Responded;
      return events;
    }
    return this.end(events);
  }

  /** @internal {@link Phase.Tools}: the function responses, and the confirmation requests of calls that wait; decides what comes after. */
  afterFunctionCalls(responseEvent: Event): Event[] {
    const { agent, context, calls } = this;
    this.calls = NO_CALLS;
    this.refusedCalls = undefined;
    const paused = confirmationPause(agent, context, calls, responseEvent);
    if (paused) return this.end(paused);
    this.responseEvent = responseEvent;
    this.phase = Phase.Responded;
    return [responseEvent];
  }

  /** The events that end the loop when {@link callsModelAgain} says no: the abort error, or the transfer target's run. */
  private endAfter(responseEvent: Event): Promise<Event[] | undefined> | Event[] | undefined {
    const { agent, context } = this;
    if (context.aborted) return this.end([errorEvent(context, agent.name, new RunAbortedError(context.signal.reason))]);
    const transferTo = responseEvent.actions.transferToAgent;
    if (!transferTo) return this.end(undefined);
    const target = context.agent.rootAgent.findAgent(transferTo);
    if (!target) {
      const names = context.agent.rootAgent.allAgents().map((a) => a.name);
      return this.end([errorEvent(context, agent.name, new AgentNotFoundError(transferTo, names))]);
    }
    this.target = this.transferSteps(target, context.forAgent(target));
    this.phase = Phase.Transferred;
    return this.target.next();
  }

  /** `events` are the loop's last. */
  private end<T extends Event[] | undefined>(events: T): T {
    this.phase = Phase.Done;
    return events;
  }
}

/** A model call's `then` for {@link LlmFlow.nextTo}: the loop's step, then the consumer's own (or its failure). */
class StepConsumer implements ModelStepThen<unknown> {
  arrived: (batch: Event[] | undefined) => unknown = ignoreBatch;
  failed: (thrown: unknown) => Promise<unknown> = rejected;

  constructor(private readonly flow: LlmFlow) {}

  afterModelStep(step: ModelStep): unknown {
    const batch = this.flow.afterModelStep(step);
    return batch instanceof Promise ? batch.then(this.arrived, this.failed) : this.arrived(batch);
  }

  modelCallFailed(thrown: unknown): Promise<unknown> {
    return this.failed(thrown);
  }
}

function ignoreBatch(): undefined {
  return undefined;
}

function rejected(thrown: unknown): Promise<never> {
  return Promise.reject(thrown);
}

/** {@link LlmFlow.calls} between steps. */
const NO_CALLS: readonly FunctionCall[] = Object.freeze([]);

/** True when the event's content has a function call (no list of them made). */
function hasFunctionCall(event: Event): boolean {
  const parts = event.content?.parts;
  if (parts) for (let i = 0; i < parts.length; i++) if (parts[i].functionCall) return true;
  return false;
}

/** A transfer target's events through its `runAsync`. */
function runAsyncSteps(target: BaseAgent, context: InvocationContext): EventSteps {
  return generatorSteps(target.runAsync(context));
}

/**
 * After a step's function responses, the loop ends on abort, transfer (the target agent runs),
 * `skipSummarization`, `escalate` or a long-running call; otherwise the model is called again.
 * Decided synchronously: the usual step goes on without an extra generator layer.
 */
function callsModelAgain(context: InvocationContext, responseEvent: Event): boolean {
  const actions = responseEvent.actions;
  if (context.aborted || actions.transferToAgent) return false;
  return !(actions.skipSummarization || actions.escalate || responseEvent.longRunningToolIds?.length);
}
