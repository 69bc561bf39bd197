import type { EventData } from '../events/event';
import { isCredentialRequest } from '../auth/request-credential';
import type { FunctionCall } from '../model/content';
import type { ToolConfirmation } from '../state/event-actions';
import { type ConfirmationPrompt, confirmationPromptFrom, isConfirmationRequest, originalCallFrom } from './request-confirmation';

/** A confirmation request stored in the session and not answered yet. */
export interface PendingConfirmation {
  /** Id of the {@link REQUEST_CONFIRMATION} call: the id the client answers. */
  requestId: string;
  /** The call that waits, exactly as the runner recorded it: the authority over what runs. */
  originalFunctionCall: FunctionCall;
  /** What the user is asked (hint and payload), as stored in the request. */
  prompt: ConfirmationPrompt;
  /** The agent whose model made the original call. */
  agentName: string;
  /** The event holding the request; requests of one model response share it. */
  requestEventId: string;
  /** Set for a `toolsmith_request_credential` request: the config asked for and the `state` its answer must carry. */
  auth?: ToolConfirmation['auth'];
  /** Set for a request an `AgentTool` relays from its inner agent: the inner call and session. */
  relay?: ToolConfirmation['relay'];
  /** Who asked, as the runner recorded it (see `ToolConfirmation.askedBy`): `tool` requests refuse `remember`. */
  askedBy?: ToolConfirmation['askedBy'];
  /** Set for a question a long-running call's update asked: that update (the call runs again with the answer). */
  update?: ToolConfirmation['update'];
  /** The grant an earlier answer on the same call remembered (see `ToolConfirmation.grantId`): the call's response names it. */
  grantId?: string;
}

/** A long-running call whose final response has not arrived yet. */
export interface PendingLongRunning {
  /** The call's id: a response with this id answers it (and keeps it pending while it has `willContinue`). */
  id: string;
  /** The tool's name: a response must name the same tool. */
  name: string;
  /** The agent whose model made the call (the author of the event that holds its first response). */
  agentName: string;
}

/** Everything a session is waiting for, derived from its events alone. */
export interface PendingCalls {
  /** Request id → pending confirmation. */
  confirmations: Map<string, PendingConfirmation>;
  /** Call id → pending long-running call. */
  longRunning: Map<string, PendingLongRunning>;
  /** Ids of calls and requests that already got their (final) response. */
  answered: Set<string>;
}

/**
 * Replays a session's events to find what it is waiting for: confirmation requests without an
 * answer, long-running calls without a final response, and what has been answered. The session is
 * the only source, so any process holding the session can resume it.
 */
export function findPendingCalls(events: readonly EventData[]): PendingCalls {
  const pending: PendingCalls = { confirmations: new Map(), longRunning: new Map(), answered: new Set() };
  for (const event of events) {
    if (event.partial || !event.content) continue;
    for (const part of event.content.parts) {
      const call = part.functionCall;
      if (call && (isConfirmationRequest(call) || isCredentialRequest(call))) {
        const record = readRequest(call, event);
        // A new question on a long-running call supersedes the one still open: the call runs again with one answer.
        if (record?.update) closeQuestions(pending, record.originalFunctionCall.id);
        if (record) pending.confirmations.set(call.id, record);
        // A request the runner did not make (written by a model or a user) is never pending; its call id
        // is answered by whoever wrote it (the runner answers a model's forged call with TOOL_NOT_FOUND).
      }
    }
    for (const part of event.content.parts) {
      const response = part.functionResponse;
      if (!response) continue;
      if (event.author === 'user') settleClientResponse(pending, response.id, response.willContinue === true);
      else {
        // A long-running tool run again with an update question's answer may give the call's final response.
        if (pending.longRunning.has(response.id) && response.willContinue !== true) settleLongRunning(pending, response.id);
        pending.answered.add(response.id);
      }
    }
    for (const id of event.longRunningToolIds ?? []) {
      if (pending.confirmations.has(id)) continue; // a confirmation request, listed so clients know to answer it
      const name = event.content.parts.find((p) => p.functionResponse?.id === id)?.functionResponse?.name;
      if (name !== undefined) pending.longRunning.set(id, { id, name, agentName: event.author });
    }
  }
  return pending;
}

function settleClientResponse(pending: PendingCalls, id: string, willContinue: boolean): void {
  if (pending.confirmations.delete(id)) pending.answered.add(id);
  else if (pending.longRunning.has(id)) {
    if (willContinue) return;
    settleLongRunning(pending, id);
  } else pending.answered.add(id);
}

/** A long-running call's final response arrived: it stops being pending, and so do its updates' open questions. */
function settleLongRunning(pending: PendingCalls, id: string): void {
  pending.longRunning.delete(id);
  pending.answered.add(id);
  closeQuestions(pending, id);
}

/** The open questions of updates of the long-running call `id` close: their answers are refused (`answered`). */
function closeQuestions(pending: PendingCalls, id: string): void {
  for (const [requestId, record] of pending.confirmations) {
    if (record.update && record.originalFunctionCall.id === id) {
      pending.confirmations.delete(requestId);
      pending.answered.add(requestId);
    }
  }
}

function readRequest(call: FunctionCall, event: EventData): PendingConfirmation | undefined {
  let originalFunctionCall: FunctionCall;
  try {
    originalFunctionCall = originalCallFrom(call);
  } catch {
    return undefined; // not written by this runner; nothing can resume it
  }
  if (!isRunnerRequest(event, call.id, originalFunctionCall.id)) return undefined;
  const auth = event.actions!.requestedToolConfirmations![originalFunctionCall.id].auth;
  // The runner names a credential request for what it recorded; a name that disagrees is not its request.
  if (isCredentialRequest(call) !== (auth !== undefined)) return undefined;
  const { relay, askedBy, update, grantId } = event.actions!.requestedToolConfirmations![originalFunctionCall.id];
  if (auth) {
    const asked: PendingConfirmation = { requestId: call.id, originalFunctionCall, prompt: {}, agentName: event.author, requestEventId: event.id, auth };
    // Asked for while a long-running tool ran with an update's answer: its answer runs the tool again with that update.
    if (update) asked.update = update;
    return asked;
  }
  const record: PendingConfirmation = { requestId: call.id, originalFunctionCall, prompt: confirmationPromptFrom(call), agentName: event.author, requestEventId: event.id };
  if (relay) record.relay = relay;
  if (askedBy) record.askedBy = askedBy;
  if (update) record.update = update;
  if (grantId !== undefined) record.grantId = grantId;
  return record;
}

/**
 * True when `event` is the runner's own pause event for this request: only the runner records the
 * gated call in `actions.requestedToolConfirmations` (model responses and user messages never carry
 * actions of their own) and lists the request id in `longRunningToolIds`. A request a model or a user
 * wrote is plain content, and approving it must never run anything.
 */
export function isRunnerRequest(event: Pick<EventData, 'author' | 'actions' | 'longRunningToolIds'>, requestId: string, originalCallId: string): boolean {
  if (event.author === 'user') return false;
  const requested = event.actions?.requestedToolConfirmations;
  return (
    requested !== undefined &&
    Object.prototype.hasOwnProperty.call(requested, originalCallId) &&
    (event.longRunningToolIds?.includes(requestId) ?? false)
  );
}
