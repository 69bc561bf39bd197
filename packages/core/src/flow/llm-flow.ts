import type { InvocationContext } from '../agents/invocation-context';
import type { BaseAgent } from '../agents/base-agent';
import type { LlmAgent } from '../agents/llm-agent';
import { AgentNotFoundError } from '../errors/agent-not-found-error';
import { MaxLlmCallsExceededError } from '../errors/max-llm-calls-exceeded-error';
import { RunAbortedError } from '../errors/run-aborted-error';
import type { Event } from '../events/event';
import { errorEvent } from './error-event';
import { handleFunctionCalls } from './function-call-handler';
import { confirmationPause } from './confirmation-pause';
import { type ModelStep, callModel, streamModel } from './model-call';
import { type EventSteps, eventsOf, generatorSteps } from './event-steps';
import type { OfferedTools } from './tool-resolver';
import { pendingValidatorWarmUp } from '../validation/validator-warm-up';
import { OUTPUT_INVALID, checkStructuredOutput } from './structured-output';
import { answersConfirmations, resumeConfirmedCalls } from './resume-confirmed-calls';
import { summarizeIfDue } from './summarize-history';
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
 * `transferSteps` runs a transfer target: by default through its `runAsync`; the runner passes one that
 * drives a plain `LlmAgent` target's step machine directly.
 */
export class LlmFlow implements EventSteps {
  private phase = Phase.Start;
  private outputRetries = 0;
  /** The model call's step ({@link Phase.Tools}), the function responses ({@link Phase.Responded}), the compaction event ({@link Phase.Call}). */
  private step?: ModelStep;
  private offered?: OfferedTools;
  private responseEvent?: Event;
  private compacted?: Event;
  /** The streaming model call under way ({@link Phase.Streaming}). */
  private stream?: AsyncGenerator<Event, ModelStep, undefined>;
  /** The transfer target's run ({@link Phase.Transferred}). */
  private target?: EventSteps;

  constructor(
    private readonly agent: LlmAgent,
    private readonly context: InvocationContext,
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

  /** The next batch of events (never empty), or `undefined` at the end. A loop that throws is over. */
  async next(): Promise<Event[] | undefined> {
    try {
      const { agent, context } = this;
      for (;;) {
        switch (this.phase) {
          case Phase.Start: {
            // An update that asks the person a question pauses the run on it, before any model call.
            const question = context.userContent && asksQuestion(context.userContent) ? updateQuestionPause(context) : undefined;
            if (question) return this.end([question]);
            // Most messages answer no confirmation: skip the resume step (and its await) for them.
            const resumed = answersConfirmations(context) ? await resumeConfirmedCalls(agent, context) : undefined;
            if (!resumed) {
              this.phase = Phase.Model;
              continue;
            }
            const events = resumed.pauseEvents ? [resumed.event, ...resumed.pauseEvents] : [resumed.event];
            if (resumed.stillWaiting) return this.end(events);
            this.responseEvent = resumed.event;
            this.phase = Phase.Responded;
            return events;
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
            if (compaction?.strategy === 'summarize') {
              // Older turns summarized into a stored compaction event before the request is built (docs/context.md).
              const compacted = await summarizeIfDue(agent, context, compaction);
              if (compacted) {
                // Stored by the caller before the request is built from the session.
                this.compacted = compacted;
                return [compacted];
              }
            }
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
            const offered = (this.offered =
              context.services.tools.staticOffered(agent) ?? (await context.services.tools.offered(agent, () => context.readonlyContext())));
            if (!context.streaming) {
              const step = await callModel(agent, context, offered);
              if (pendingValidatorWarmUp() || (agent.resolvedOutputSchema && step.ok)) await this.check(step);
              return this.stepped(step);
            }
            // Streaming: the partial events one per batch, as they arrive.
            this.stream = streamModel(agent, context, offered);
            this.phase = Phase.Streaming;
            continue;
          }
          case Phase.Streaming: {
            const result = await this.stream!.next();
            if (!result.done) return [result.value];
            this.stream = undefined;
            const step = result.value;
            if (pendingValidatorWarmUp() || (agent.resolvedOutputSchema && step.ok)) await this.check(step);
            return this.stepped(step);
          }
          case Phase.Tools: {
            const step = this.step!;
            this.step = undefined;
            const calls = step.event.functionCalls();
            const responseEvent = await handleFunctionCalls({ agent, context, calls, offered: this.offered!, refusedCalls: step.refusedCalls });
            const pause = confirmationPause({ agent, context, calls, responseEvent });
            if (pause.paused) return this.end(pause.events);
            this.responseEvent = responseEvent;
            this.phase = Phase.Responded;
            return pause.events;
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
    } catch (thrown) {
      this.phase = Phase.Done;
      throw thrown;
    }
  }

  /** Before the model's event is handed out: ajv's one-time warm-up done, a structured answer checked. */
  private async check(step: ModelStep): Promise<void> {
    // The model call started ajv's one-time warm-up; a run never ends before it (see validator-warm-up.ts).
    const warmUp = pendingValidatorWarmUp();
    if (warmUp) await warmUp;
    if (this.agent.resolvedOutputSchema && step.ok) await checkStructuredOutput(this.agent, step.event);
  }

  /** The model call's events: its partials (a model may send some without streaming), then its event; decides what comes after. */
  private stepped(step: ModelStep): Event[] {
    const { agent } = this;
    const events = step.partials ? [...step.partials, step.event] : [step.event];
    if (!step.ok) return this.end(events);
    if (step.event.functionCalls().length > 0) {
      this.step = step;
      this.phase = Phase.Tools;
      return events;
    }
    // An answer that broke the output schema goes back to the model (see contents-builder.ts) while retries remain.
    if (step.event.errorCode === OUTPUT_INVALID && this.outputRetries++ < agent.outputRetries) {
      this.phase = Phase.Model;
      return events;
    }
    return this.end(events);
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
