import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import { ProviderError } from '../errors/provider-errors';
import { RunAbortedError } from '../errors/run-aborted-error';
import { Event } from '../events/event';
import { buildContents } from './contents-builder';
import { errorEvent } from './error-event';
import type { LlmRequest } from '../model/llm-request';
import type { LlmResponse, Usage } from '../model/llm-response';
import { createEventActions } from '../state/event-actions';
import { DEFAULT_COMPACTION_PROMPT, type SummarizeCompaction } from '../context/compaction-options';
import { SUMMARY_PREFIX, compactedHistory } from './compacted-contents';
import { conversationTranscript } from '../context/conversation-transcript';
import { cutKeepingTurns, startsTurn } from '../context/cut-points';
import { checkModelResponse, usageOfComplete } from './model-response-check';
import { billedUsageOf } from '../model/billed-usage';
import { addUsage } from '../model/usage-total';
import { DEFAULT_ARGUMENT_LIMITS } from '../validation/argument-parser';
import { redactSecretText } from '../redaction/secret-redaction';
import { thrownMessage } from '../errors/thrown-message';
import { reportableError } from '../errors/reportable-error';

/** Turns kept as they are unless `keepTurns` says otherwise. */
export const DEFAULT_KEEP_TURNS = 2;

/**
 * Before a model call of `agent`: when a trigger of `options` fires (the agent's last model call since
 * the last compaction reported more than `maxInputTokens` input tokens, or `everyTurns` turns started
 * since it), summarizes the events before the last `keepTurns` turns (from the last cut on, after the
 * earlier summary) with the summarizing model, and returns the compaction event to store. Returns
 * `undefined` when no trigger fires or no cut is allowed past the last one (see `cutPoints`); an error
 * event when the summarizing model fails (the run ends on it, nothing stored but the error).
 */
export async function summarizeIfDue(agent: LlmAgent, context: InvocationContext, options: SummarizeCompaction): Promise<Event | undefined> {
  const events = context.session.events;
  const history = compactedHistory(events, agent.name, options);
  if (!isDue(events, agent.name, history.start, options)) return undefined;
  const cut = cutKeepingTurns(events, options.keepTurns ?? DEFAULT_KEEP_TURNS, history.start);
  if (cut === undefined) return undefined;
  const older = buildContents(events.slice(history.start, cut), agent.name, context.branch);
  const transcript = (history.summary === undefined ? '' : `${SUMMARY_PREFIX}${history.summary}\n\n`) + conversationTranscript(older);
  const model = options.model ?? agent.model;
  const request: LlmRequest = {
    systemInstruction: options.prompt ?? DEFAULT_COMPACTION_PROMPT,
    contents: [{ role: 'user', parts: [{ text: `The conversation to summarize:\n\n${transcript}` }] }],
    tools: [],
  };
  let response: LlmResponse | undefined;
  // The counts of the complete response, once the check copied them: a failure after it still counts them.
  let checkedUsage: Usage | undefined;
  let checkedResponse = false;
  // Its own `chat` span (marked toolsmith.compaction), under the agent's turn like the agent's model calls.
  const chat = context.trace?.startChat(agent, request, { model });
  try {
    const start = () => model.generate(request, { signal: context.abortable ? context.signal : undefined, ...(chat ? { onProviderExchange: chat.observeExchange } : {}) });
    for await (const part of chat ? chat.active(start) : start()) {
      // As the agent's own model calls read theirs: an abort ends the read at once, and the complete
      // response ends it (the generator closed there): nothing the model sends after it is read.
      if (context.aborted) throw new RunAbortedError(context.signal.reason);
      if (!part.partial) {
        response = part;
        break;
      }
    }
    // Checked and copied as the agent's own model calls are (INVALID_MODEL_RESPONSE otherwise): the
    // compaction event stores the response's usage, and only a plain-JSON copy of it.
    checkedResponse = response !== undefined;
    const checked = response && checkModelResponse(response, model.modelName, context.services.argumentLimits ?? DEFAULT_ARGUMENT_LIMITS);
    checkedUsage = checked?.usage;
    // The span records the checked copy, the event's: the response's own members are read once, by the check.
    if (chat && checked) {
      chat.response(checked);
      chat.usage(checked.usage);
    }
    // A response that reports an error is that error, as the agent's own model calls make it (with or without
    // content); chat.response marked the span failed with it.
    if (checked?.error) {
      chat?.end();
      return modelErrorEvent(context, agent.name, checked.error, checked.usage);
    }
    const summary = checked?.content?.parts.filter((part) => part.text !== undefined && !part.thought).map((part) => part.text).join('').trim();
    if (!summary) throw new ProviderError('PROVIDER_RESPONSE_INVALID', `Model "${model.modelName}" answered the compaction request with no summary text.`, { provider: model.provider });
    const actions = createEventActions();
    actions.compaction = { summary, firstKeptEventId: events[cut].id, summarizedEvents: cut };
    chat?.end();
    return Event.create({ invocationId: context.invocationId, author: agent.name, branch: context.branch, actions, usage: checked!.usage });
  } catch (thrown) {
    const error = context.aborted
      ? new RunAbortedError(context.signal.reason)
      : (reportableError(thrown) ??
        new ProviderError('PROVIDER_ERROR', `Model "${model.modelName}" failed to summarize the conversation: ${thrownMessage(thrown)}`, { provider: model.provider, cause: thrown }));
    // What was billed still counts, as for the agent's own model calls: the tokens the error says were billed
    // (withBilledUsage), added to the complete response's counts (the check's copy; copied as it copies them
    // when its close threw before the check; none of a response the check refused).
    const completed = checkedResponse ? checkedUsage : response && usageOfComplete(response, model.modelName);
    const thrownBilled = billedUsageOf(thrown);
    const usage = thrownBilled && completed ? addUsage(completed, thrownBilled) : (thrownBilled ?? completed);
    const event = errorEvent(context, agent.name, error);
    if (usage) event.usage = usage;
    if (chat) {
      chat.usage(usage);
      chat.endAs(event);
    }
    return event;
  }
}

/** The error event for a summarizing response that reports `error`: its code, its message redacted, the tokens it was billed. */
function modelErrorEvent(context: InvocationContext, author: string, error: { code: string; message: string }, usage: LlmResponse['usage']): Event {
  const event = Event.of(context.invocationId, author, context.branch, undefined);
  event.errorCode = error.code;
  event.errorMessage = redactSecretText(error.message);
  if (usage) event.usage = usage;
  return event;
}

/** True when a trigger of `options` fires for the events from `start` (the first kept event of the last compaction). */
function isDue(events: readonly Event[], agentName: string, start: number, options: SummarizeCompaction): boolean {
  // Only what happened after the last compaction event counts: its own usage and the calls before it are settled.
  let since = 0;
  for (let i = events.length - 1; i >= start; i--) {
    if (events[i].actions.compaction && events[i].author === agentName) {
      since = i + 1;
      break;
    }
  }
  if (options.maxInputTokens !== undefined) {
    for (let i = events.length - 1; i >= since; i--) {
      const event = events[i];
      if (event.author !== agentName || event.partial || event.actions.compaction) continue;
      const input = event.usage?.inputTokens;
      if (input === undefined) continue;
      if (input > options.maxInputTokens) return true;
      break;
    }
  }
  if (options.everyTurns !== undefined) {
    let turns = 0;
    for (let i = Math.max(since, start); i < events.length; i++) if (startsTurn(events[i])) turns++;
    if (turns >= options.everyTurns) return true;
  }
  return false;
}
