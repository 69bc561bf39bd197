import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import { type PendingConfirmation, findPendingCalls } from '../confirmation/pending-calls';
import { isPauseRequestName, isRecord } from '../confirmation/request-confirmation';
import type { Event } from '../events/event';
import type { LongRunningUpdateAnswer, ToolConfirmation } from '../state/event-actions';
import { type ConfirmationDecision, readConfirmationDecision } from '../confirmation/confirmation-decision';
import { ToolsmithError } from '../errors/toolsmith-error';
import { errorResponse, hasConfirmationRule, wrapResult } from '../internal/tool-executor';
import { UpdateContinuationInvalidError } from '../errors/tool-call-errors';
import { rememberGrant } from '../confirmation/remembered-grants';
import type { FunctionCall, FunctionResponse } from '../model/content';
import type { CallConfirmation } from '../confirmation/call-confirmation';
import { confirmationPause } from './confirmation-pause';
import { credentialConfirmation } from './credential-confirmation';
import { applyDeferredStepActions } from './deferred-step-actions';
import { handleFunctionCalls } from './function-call-handler';

/** What {@link resumeConfirmedCalls} did. */
export interface ResumedCalls {
  /** The responses of the answered calls (confirmed ones ran; denied ones are `TOOL_CALL_REJECTED` errors), in call order. */
  event: Event;
  /** Other calls of the same model response still wait for an answer: the model must not be called yet. */
  stillWaiting: boolean;
  /** Emitted after `event`: a new pause of a resumed call (it asked for a credential again). */
  pauseEvents?: Event[];
}

/**
 * Runs the calls whose confirmation requests the user's message answers, at the start of `agent`'s
 * turn. The calls come from the session's records (never from the answer), and run through the
 * executor with `ctx.toolConfirmation` set. Returns `undefined` when the message answers no request
 * of this agent. The message was checked against the session before it was stored.
 */
export async function resumeConfirmedCalls(agent: LlmAgent, context: InvocationContext): Promise<ResumedCalls | undefined> {
  const answers = confirmationAnswers(context);
  if (answers.size === 0) return undefined;
  const events = context.session.events;
  // The records as they were before this invocation stored the answer; what has run since, from all events.
  const before = findPendingCalls(events.filter((event) => event.invocationId !== context.invocationId));
  const now = findPendingCalls(events);
  const resumed: PendingConfirmation[] = [];
  for (const record of before.confirmations.values()) {
    if (!answers.has(record.requestId) || record.agentName !== agent.name) continue;
    // An update's question is for a call that already answered once: it runs again while the call is pending.
    if (record.update ? now.longRunning.has(record.originalFunctionCall.id) : !now.answered.has(record.originalFunctionCall.id)) resumed.push(record);
  }
  if (resumed.length === 0) return undefined;

  // The tools as offered before any answer is acted on: storing a credential may change a toolset's listing.
  const offered = await context.services.tools.offered(agent, () => context.readonlyContext());
  const confirmations = new Map<string, ToolConfirmation>();
  const answeredCalls = new Map<string, FunctionResponse>();
  const decisions = new Map<string, ConfirmationDecision>();
  const grants = new Map<string, string>();
  const relayed = new Set<string>();
  const updates = new Map<string, LongRunningUpdateAnswer>();
  const calls: FunctionCall[] = [];
  const policyAsksAnswered = new Set<string>();
  for (const record of resumed) {
    const answer = answers.get(record.requestId)!;
    const original = record.originalFunctionCall;
    if (record.auth) {
      // The answer as the user sent it: the stored (and userContent) copy has its credential redacted.
      const confirmation = await credentialConfirmation(context, record, context.withheldAnswers?.get(record.requestId) ?? answer);
      if (record.update && confirmation.confirmed) {
        // Asked for while the tool ran with an update's answer: it runs again with that update, and what it returns is the call's next response.
        const update: LongRunningUpdateAnswer = { response: record.update.response, willContinue: true };
        updates.set(original.id, update);
        confirmation.update = update;
      }
      confirmations.set(original.id, confirmation);
      calls.push(original);
      continue;
    }
    // Checked before the message was stored, so it reads; a decision that somehow does not is a rejection.
    const read = readConfirmationDecision(record.requestId, answer);
    const decision: ConfirmationDecision = read instanceof ToolsmithError ? { decision: 'reject' } : read;
    decisions.set(original.id, decision);
    // An earlier answer on this call (to the policy's ask) remembered a grant: its response names it.
    if (record.grantId !== undefined) grants.set(original.id, record.grantId);
    if (record.relay) {
      // An agent tool's inner request: the agent tool runs again, whatever the decision, and passes it on to its inner agent.
      confirmations.set(original.id, relayedConfirmation(record, decision));
      relayed.add(original.id);
      calls.push(original);
      continue;
    }
    if (record.update) {
      // An update's question: the tool runs again with the answer (any decision but respond), and what it returns is the call's next response.
      const update: LongRunningUpdateAnswer = { response: record.update.response, willContinue: true };
      updates.set(original.id, update);
      const confirmation: ToolConfirmation = { confirmed: decision.decision === 'approve', decision: decision.decision, update };
      if (record.prompt.hint !== undefined) confirmation.hint = record.prompt.hint;
      if (decision.payload !== undefined) confirmation.payload = decision.payload;
      if (decision.message !== undefined) confirmation.message = decision.message;
      if (record.prompt.payloadSchema !== undefined) confirmation.request = record.prompt;
      confirmations.set(original.id, confirmation);
      calls.push(original);
      if (decision.decision === 'respond') answeredCalls.set(original.id, { id: original.id, name: original.name, response: wrapResult(decision.result) });
      continue;
    }
    const tool = offered.byName.get(original.name);
    const approved = decision.decision === 'approve' || decision.decision === 'edit';
    if (approved && record.askedBy === 'runner' && tool && !hasConfirmationRule(tool)) {
      // The runner asked only because the policy said `ask` (the tool has no rule): the approval answers the
      // policy, not a question of the tool's own. The tool runs without `ctx.toolConfirmation`, so a tool that
      // asks itself asks its own question now (docs/confirmation.md, "A policy before the person").
      policyAsksAnswered.add(original.id);
      calls.push(decision.args ? { id: original.id, name: original.name, args: decision.args } : original);
      if (decision.remember) grants.set(original.id, (await rememberGrant(context, tool, decision.remember)).id);
      continue;
    }
    const confirmation: ToolConfirmation = { confirmed: approved };
    if (record.prompt.hint !== undefined) confirmation.hint = record.prompt.hint;
    if (decision.payload !== undefined) confirmation.payload = decision.payload;
    if (decision.message !== undefined) confirmation.message = decision.message;
    // A form's answer is read beside what was asked (an MCP server's request, say).
    if (record.prompt.payloadSchema !== undefined) confirmation.request = record.prompt;
    confirmations.set(original.id, confirmation);
    // The call the session recorded, with the person's arguments when they edited them.
    calls.push(decision.args ? { id: original.id, name: original.name, args: decision.args } : original);
    if (decision.remember && tool) grants.set(original.id, (await rememberGrant(context, tool, decision.remember)).id);
    if (decision.decision === 'respond') answeredCalls.set(original.id, { id: original.id, name: original.name, response: wrapResult(decision.result) });
  }
  const responses = await handleFunctionCalls({ agent, context, calls, offered, confirmations, answeredCalls, policyAsksAnswered });
  recordDecisions(responses, decisions, grants, relayed);
  // A call that remembered a grant and now asks its own question: the request carries the grant on to its response.
  for (const [id, grantId] of grants) {
    const request = responses.actions.requestedToolConfirmations?.[id];
    if (request) request.grantId = grantId;
  }
  if (updates.size > 0) settleUpdates(responses, updates, confirmations, calls);
  // A resumed call may pause again (a credential the token endpoint refused is asked for again).
  const paused = confirmationPause(agent, context, calls, responses);
  const [event, ...pauseEvents] = paused ?? [responses];
  const requestEvents = new Set(resumed.map((record) => record.requestEventId));
  const stillWaiting = paused !== undefined || [...now.confirmations.values()].some((record) => requestEvents.has(record.requestEventId));
  // The step is settled now: what its other calls asked for (a transfer, no summary, escalation) takes effect.
  if (!stillWaiting) applyDeferredStepActions(events, agent.name, resumed, event.actions);
  return pauseEvents.length > 0 ? { event, stillWaiting, pauseEvents } : { event, stillWaiting };
}

/**
 * Records on each response what the person decided, when it was more than a plain yes or no (an
 * approval that remembered a grant names it), and shows
 * the model an edit: the response of an edited call is `{ result | error, argumentsEditedByUser }`, so a
 * model that reads its own call next to it knows which arguments actually ran.
 */
function recordDecisions(event: Event, decisions: ReadonlyMap<string, ConfirmationDecision>, grants: ReadonlyMap<string, string>, relayed: ReadonlySet<string>): void {
  for (const part of event.content?.parts ?? []) {
    const response = part.functionResponse;
    const decision = response && decisions.get(response.id);
    if (!response || !decision) continue;
    if (relayed.has(response.id)) {
      // The decision was on the inner call; the agent tool's own arguments ran as the model made them.
      if (decision.decision !== 'approve' || decision.remember) response.confirmation = relayedDecision(decision);
    } else if (decision.decision === 'edit' && decision.args) {
      const body = response.response;
      const shown = response.isError && isRecord(body.error) ? { error: body.error } : { result: body };
      response.response = { ...shown, argumentsEditedByUser: decision.args };
      response.confirmation = { decision: 'edit', by: 'user', args: decision.args };
    } else if (decision.decision === 'respond') {
      response.confirmation = { decision: 'respond', by: 'user' };
    } else if (decision.decision === 'reject' && decision.message !== undefined) {
      response.confirmation = { decision: 'reject', by: 'user', message: decision.message };
    }
    // The grant this answer (or an earlier one on the same call) remembered.
    const grantId = relayed.has(response.id) ? undefined : grants.get(response.id);
    if (grantId !== undefined) response.confirmation = { ...(response.confirmation ?? { decision: decision.decision, by: 'user' }), grantId };
  }
}

/**
 * The responses of long-running calls run again with an update question's answer are the calls' next
 * updates: `willContinue: true` (the call stays pending) unless the tool set `update.willContinue` to
 * false or failed (then it is the final response). A tool that replaced `ctx.toolConfirmation.update`, or
 * set its `willContinue` to anything but a boolean, said nothing the runner reads: its response becomes
 * `UPDATE_CONTINUATION_INVALID`, which ends the call. Not listed in `longRunningToolIds`: the model is
 * called next, as for a client's update. A tool that asked the person again has no response here: its
 * new request is the update's question (it carries the update), so its answer runs the tool again too.
 */
function settleUpdates(event: Event, updates: ReadonlyMap<string, LongRunningUpdateAnswer>, confirmations: ReadonlyMap<string, ToolConfirmation>, calls: readonly FunctionCall[]): void {
  const parts = event.content?.parts ?? [];
  for (let index = 0; index < parts.length; index++) {
    const response = parts[index].functionResponse;
    const update = response && updates.get(response.id);
    if (!update || response.isError) continue;
    const left: unknown = confirmations.get(response.id)?.update;
    const problem = left !== update ? 'replaced ctx.toolConfirmation.update' : typeof update.willContinue !== 'boolean' ? `set ctx.toolConfirmation.update.willContinue to ${shownValue(update.willContinue)}` : undefined;
    if (problem !== undefined) parts[index] = { functionResponse: errorResponse(response, new UpdateContinuationInvalidError(response.name, problem)) };
    else if (update.willContinue) response.willContinue = true;
  }
  const ids = event.longRunningToolIds?.filter((id) => !updates.has(id));
  event.longRunningToolIds = ids && ids.length > 0 ? ids : undefined;
  // A question asked again, or a credential asked for: recorded with the update that asked, as the first question was.
  const requested = event.actions.requestedToolConfirmations;
  if (!requested) return;
  for (const call of calls) {
    const update = updates.get(call.id);
    const request = update && Object.prototype.hasOwnProperty.call(requested, call.id) ? requested[call.id] : undefined;
    if (request && !request.relay) request.update = { response: update!.response, willContinue: true };
  }
}

/** A value a tool left where a boolean belongs, in a few words (`"no"`, `a number`). */
function shownValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return value === null ? 'null' : `a value of type ${typeof value}`;
}

/** True when the user's message answers confirmation requests: only then can {@link resumeConfirmedCalls} run anything. */
export function answersConfirmations(context: InvocationContext): boolean {
  // A plain loop: asked at every run's start, and `some` made a callback each time.
  const parts = context.userContent?.parts;
  if (parts) for (let index = 0; index < parts.length; index++) if (isPauseRequestName(parts[index].functionResponse?.name)) return true;
  return false;
}

/** Request id → the answer's response object, for the confirmation answers in the user's message. */
function confirmationAnswers(context: InvocationContext): Map<string, Record<string, unknown>> {
  const answers = new Map<string, Record<string, unknown>>();
  for (const part of context.userContent?.parts ?? []) {
    const response = part.functionResponse;
    if (isPauseRequestName(response?.name) && isRecord(response!.response)) answers.set(response!.id, response!.response);
  }
  return answers;
}

/** What an agent tool that relayed its inner agent's request runs again with: the person's whole decision, and the saved inner session. */
function relayedConfirmation(record: PendingConfirmation, decision: ConfirmationDecision): ToolConfirmation {
  const confirmation: ToolConfirmation = { confirmed: decision.decision === 'approve' || decision.decision === 'edit', decision: decision.decision, relay: record.relay };
  if (record.prompt.hint !== undefined) confirmation.hint = record.prompt.hint;
  if (decision.payload !== undefined) confirmation.payload = decision.payload;
  if (decision.message !== undefined) confirmation.message = decision.message;
  if (decision.args !== undefined) confirmation.args = decision.args;
  if (decision.decision === 'respond') confirmation.result = decision.result;
  if (decision.remember !== undefined) confirmation.remember = decision.remember;
  return confirmation;
}

/** The decision on a relayed request, as recorded on the agent tool's response (`by: 'user'`). */
function relayedDecision(decision: ConfirmationDecision): CallConfirmation {
  const recorded: CallConfirmation = { decision: decision.decision, by: 'user' };
  if (decision.args !== undefined) recorded.args = decision.args;
  if (decision.message !== undefined) recorded.message = decision.message;
  return recorded;
}
