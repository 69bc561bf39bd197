import type { CallbackContext } from '../agents/callback-context';
import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import { AgentNotFoundError } from '../errors/agent-not-found-error';
import { MaxLlmCallsExceededError } from '../errors/max-llm-calls-exceeded-error';
import { ProviderError } from '../errors/provider-errors';
import { RunAbortedError } from '../errors/run-aborted-error';
import { ToolsmithError } from '../errors/toolsmith-error';
import { Event } from '../events/event';
import { LlmResponse } from '../model/llm-response';
import { EventActions, createEventActions } from '../state/event-actions';
import { State } from '../state/state';
import { modelCallbackChain } from './callback-chains';
import { errorEvent } from './error-event';
import { handleFunctionCalls } from './function-call-handler';
import { confirmationPause } from './confirmation-pause';
import { buildRequest } from './request-builder';
import { answersConfirmations, resumeConfirmedCalls } from './resume-confirmed-calls';
import { OfferedTools } from './tool-resolver';

/**
 * The model ⇄ tool loop of an {@link LlmAgent}: call the model, emit its response, run the function
 * calls it asked for, emit their merged responses, repeat. Ends on a final answer, an error, a pause
 * (confirmation, long-running tool), `skipSummarization`, `escalate`, a transfer (the target agent
 * continues the invocation) or `maxLlmCalls`.
 */
export async function* runLlmFlow(agent: LlmAgent, context: InvocationContext): AsyncGenerator<Event, void, undefined> {
  // Most messages answer no confirmation: skip the resume step (and its await) for them.
  const resumed = answersConfirmations(context) ? await resumeConfirmedCalls(agent, context) : undefined;
  if (resumed) {
    yield resumed.event;
    if (resumed.stillWaiting) return;
    if (!callsModelAgain(context, resumed.event)) {
      yield* endAfter(agent, context, resumed.event);
      return;
    }
  }
  for (;;) {
    if (context.signal.aborted) {
      yield errorEvent(context, agent.name, new RunAbortedError(context.signal.reason));
      return;
    }
    if (context.countLlmCall() > agent.maxLlmCalls) {
      yield errorEvent(context, agent.name, new MaxLlmCallsExceededError(agent.name, agent.maxLlmCalls));
      return;
    }
    // Agents without toolsets offer the same tools every time; only toolsets need the await.
    const offered = context.services.tools.staticOffered(agent) ?? (await context.services.tools.offered(agent, () => context.readonlyContext()));
    const modelEvent = yield* callModel(agent, context, offered);
    if (!modelEvent) return;
    const calls = modelEvent.functionCalls();
    if (calls.length === 0) return;

    const responseEvent = await handleFunctionCalls({ agent, context, calls, offered });
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
  if (context.signal.aborted || actions.transferToAgent) return false;
  return !(actions.skipSummarization || actions.escalate || responseEvent.longRunningToolIds?.length);
}

/** The events that end the loop when {@link callsModelAgain} says no: the abort error, or the transfer target's run. */
async function* endAfter(agent: LlmAgent, context: InvocationContext, responseEvent: Event): AsyncGenerator<Event, void, undefined> {
  if (context.signal.aborted) {
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

/**
 * One model call with its callbacks. Yields partial events while streaming and then the complete
 * model event, which it returns; returns `undefined` after yielding an error event.
 */
async function* callModel(agent: LlmAgent, context: InvocationContext, offered: OfferedTools): AsyncGenerator<Event, Event | undefined, undefined> {
  const built = buildRequest(agent, context, offered);
  const request = built instanceof Promise ? await built : built;
  const chain = modelCallbackChain(context.services.plugins, agent.callbacks);
  const actions = createEventActions();
  // Built on first use: most turns have no model callbacks, and the state snapshot is not free.
  let callbackContextCache: CallbackContext | undefined;
  const callbackContext = () => (callbackContextCache ??= makeCallbackContext(context, agent, actions));

  let response: LlmResponse | undefined;
  for (const before of chain.beforeModel) {
    response = (await before({ context: callbackContext(), request })) ?? undefined;
    if (response) break;
  }
  if (!response) {
    try {
      for await (const part of agent.model.generate(request, { signal: context.signal, stream: context.streaming })) {
        if (context.signal.aborted) throw new RunAbortedError(context.signal.reason);
        if (!part.partial) {
          response = part; // the complete, aggregated response ends the call
          break;
        }
        yield Event.create({ invocationId: context.invocationId, author: agent.name, branch: context.branch, content: part.content, partial: true });
      }
      if (!response) {
        throw new ProviderError('PROVIDER_RESPONSE_INVALID', `Model "${agent.model.modelName}" ended its answer without a complete response.`, {
          provider: agent.model.provider,
        });
      }
    } catch (thrown) {
      if (context.signal.aborted) {
        yield errorEvent(context, agent.name, new RunAbortedError(context.signal.reason));
        return undefined;
      }
      const error = toToolsmithError(thrown, agent);
      for (const onError of chain.onModelError) {
        response = (await onError({ context: callbackContext(), request, error })) ?? undefined;
        if (response) break;
      }
      if (!response) {
        yield errorEvent(context, agent.name, error, actions);
        return undefined;
      }
    }
  }
  for (const after of chain.afterModel) {
    const replaced = (await after({ context: callbackContext(), response })) ?? undefined;
    if (replaced) {
      response = replaced;
      break;
    }
  }

  const event = Event.create({
    invocationId: context.invocationId,
    author: agent.name,
    branch: context.branch,
    content: response.content,
    actions,
    turnComplete: response.turnComplete,
    finishReason: response.finishReason,
    usage: response.usage,
    errorCode: response.error?.code,
    errorMessage: response.error?.message,
  });
  if (agent.outputKey && event.functionCalls().length === 0 && !event.errorCode) {
    actions.stateDelta[agent.outputKey] = event.text();
  }
  yield event;
  return event;
}

function makeCallbackContext(context: InvocationContext, agent: LlmAgent, actions: EventActions): CallbackContext {
  return {
    appName: context.services.appName,
    userId: context.session.userId,
    sessionId: context.session.id,
    invocationId: context.invocationId,
    agentName: agent.name,
    state: new State(context.stateSnapshot(), actions.stateDelta),
    actions,
  };
}

function toToolsmithError(thrown: unknown, agent: LlmAgent): ToolsmithError {
  if (ToolsmithError.isInstance(thrown)) return thrown;
  const reason = thrown instanceof Error ? thrown.message : String(thrown);
  return new ProviderError('PROVIDER_ERROR', `Model "${agent.model.modelName}" failed: ${reason}`, { provider: agent.model.provider, cause: thrown });
}
