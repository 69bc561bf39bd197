import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import { AgentNotFoundError } from '../errors/agent-not-found-error';
import { MaxLlmCallsExceededError } from '../errors/max-llm-calls-exceeded-error';
import { RunAbortedError } from '../errors/run-aborted-error';
import type { Event } from '../events/event';
import { errorEvent } from './error-event';
import { handleFunctionCalls } from './function-call-handler';
import { confirmationPause } from './confirmation-pause';
import { callModel, streamModel } from './model-call';
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
  return context.trace ? context.trace.agentTurn(agent, llmFlow(agent, context)) : llmFlow(agent, context);
}

async function* llmFlow(agent: LlmAgent, context: InvocationContext): AsyncGenerator<Event, void, undefined> {
  // An update that asks the person a question pauses the run on it, before any model call.
  const question = context.userContent && asksQuestion(context.userContent) ? updateQuestionPause(context) : undefined;
  if (question) {
    yield question;
    return;
  }
  // Most messages answer no confirmation: skip the resume step (and its await) for them.
  const resumed = answersConfirmations(context) ? await resumeConfirmedCalls(agent, context) : undefined;
  if (resumed) {
    yield resumed.event;
    if (resumed.pauseEvents) for (const event of resumed.pauseEvents) yield event;
    if (resumed.stillWaiting) return;
    if (!callsModelAgain(context, resumed.event)) {
      yield* endAfter(agent, context, resumed.event);
      return;
    }
  }
  let outputRetries = 0;
  for (;;) {
    if (context.aborted) {
      yield errorEvent(context, agent.name, new RunAbortedError(context.signal.reason));
      return;
    }
    if (context.countLlmCall() > agent.maxLlmCalls) {
      yield errorEvent(context, agent.name, new MaxLlmCallsExceededError(agent.name, agent.maxLlmCalls));
      return;
    }
    const overBudget = context.services.budget && context.budgetExceeded();
    if (overBudget) {
      yield errorEvent(context, agent.name, overBudget);
      return;
    }
    const compaction = agent.compaction ?? context.services.compaction;
    if (compaction?.strategy === 'summarize') {
      // Older turns summarized into a stored compaction event before the request is built (docs/context.md).
      const compacted = await summarizeIfDue(agent, context, compaction);
      if (compacted) yield compacted;
      if (compacted?.errorCode) return;
      // The summarizing call's usage counts in the run's usage: the budget is checked again before the agent's call.
      const overAfterSummary = compacted && context.services.budget && context.budgetExceeded();
      if (overAfterSummary) {
        yield errorEvent(context, agent.name, overAfterSummary);
        return;
      }
    }
    // Agents without toolsets offer the same tools every time; only toolsets need the await.
    const offered = context.services.tools.staticOffered(agent) ?? (await context.services.tools.offered(agent, () => context.readonlyContext()));
    // Streaming needs a generator to yield partial events as they arrive; the usual call does without one.
    const step = context.streaming ? yield* streamModel(agent, context, offered) : await callModel(agent, context, offered);
    // The model call started ajv's one-time warm-up; a run never ends before it (see validator-warm-up.ts).
    const warmUp = pendingValidatorWarmUp();
    if (warmUp) await warmUp;
    if (step.partials) for (const partial of step.partials) yield partial;
    if (agent.resolvedOutputSchema && step.ok) await checkStructuredOutput(agent, step.event);
    yield step.event;
    if (!step.ok) return;
    const calls = step.event.functionCalls();
    if (calls.length === 0) {
      // An answer that broke the output schema goes back to the model (see contents-builder.ts) while retries remain.
      if (step.event.errorCode === OUTPUT_INVALID && outputRetries++ < agent.outputRetries) continue;
      return;
    }

    const responseEvent = await handleFunctionCalls({ agent, context, calls, offered, refusedCalls: step.refusedCalls });
    const pause = confirmationPause({ agent, context, calls, responseEvent });
    for (const event of pause.events) yield event;
    if (pause.paused) return;
    if (!callsModelAgain(context, responseEvent)) {
      yield* endAfter(agent, context, responseEvent);
      return;
    }
  }
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

/** The events that end the loop when {@link callsModelAgain} says no: the abort error, or the transfer target's run. */
async function* endAfter(agent: LlmAgent, context: InvocationContext, responseEvent: Event): AsyncGenerator<Event, void, undefined> {
  if (context.aborted) {
    yield errorEvent(context, agent.name, new RunAbortedError(context.signal.reason));
    return;
  }
  const transferTo = responseEvent.actions.transferToAgent;
  if (!transferTo) return;
  const target = context.agent.rootAgent.findAgent(transferTo);
  if (!target) {
    const names = context.agent.rootAgent.allAgents().map((a) => a.name);
    yield errorEvent(context, agent.name, new AgentNotFoundError(transferTo, names));
    return;
  }
  yield* target.runAsync(context.forAgent(target));
}
