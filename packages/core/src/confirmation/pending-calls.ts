import { EventData } from '../events/event';
import { FunctionCall } from '../model/content';
import { ConfirmationPrompt, confirmationPromptFrom, isConfirmationRequest, originalCallFrom } from './request-confirmation';

/** A confirmation request stored in the session and not answered yet. */
export interface PendingConfirmation {
  /** Id of the {@link REQUEST_CONFIRMATION} call: the id the client answers. */
  requestId: string;
  /** The call that waits, exactly as the runner recorded it: the authority over what runs. */
  originalFunctionCall: FunctionCall;
  prompt: ConfirmationPrompt;
  /** The agent whose model made the original call. */
  agentName: string;
  /** The event holding the request; requests of one model response share it. */
  requestEventId: string;
}

/** A long-running call whose final response has not arrived yet. */
export interface PendingLongRunning {
  id: string;
  /** The tool's name: a response must name the same tool. */
  name: string;
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
      if (call && isConfirmationRequest(call)) {
        const record = readRequest(call, event);
        if (record) pending.confirmations.set(call.id, record);
      }
    }
    for (const part of event.content.parts) {
      const response = part.functionResponse;
      if (!response) continue;
      if (event.author === 'user') settleClientResponse(pending, response.id, response.willContinue === true);
      else pending.answered.add(response.id);
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
    pending.longRunning.delete(id);
    pending.answered.add(id);
  } else pending.answered.add(id);
}

function readRequest(call: FunctionCall, event: EventData): PendingConfirmation | undefined {
  try {
    return {
      requestId: call.id,
      originalFunctionCall: originalCallFrom(call),
      prompt: confirmationPromptFrom(call),
      agentName: event.author,
      requestEventId: event.id,
    };
  } catch {
    return undefined; // not written by this runner; nothing can resume it
  }
}
