import { randomUUID } from 'node:crypto';
import type { InvocationContext } from '../agents/invocation-context';
import type { LongRunningQuestion } from '../confirmation/long-running-question';
import { findPendingCalls } from '../confirmation/pending-calls';
import { type ConfirmationRequestArgs, REQUEST_CONFIRMATION, isRecord } from '../confirmation/request-confirmation';
import { Event } from '../events/event';
import type { Content, FunctionCall, Part } from '../model/content';
import { type ToolConfirmation, createEventActions } from '../state/event-actions';

/**
 * The confirmation request for the questions the user's message asks in long-running updates
 * (`longRunningResponse({ …, willContinue: true, question })`), or `undefined` when it asks none. One
 * event, like a tool's own pause: a {@link REQUEST_CONFIRMATION} call per question (`askedBy: "tool"`,
 * the update recorded with it), listed in `longRunningToolIds`, authored by the agent whose model made
 * the call, so the answer runs there. The update itself is already stored (the user's event); the
 * message was checked against the session before that.
 */
export function updateQuestionPause(context: InvocationContext): Event | undefined {
  let asked: Array<{ id: string; question: LongRunningQuestion; response: Record<string, unknown> }> | undefined;
  for (const part of context.userContent?.parts ?? []) {
    const update = part.functionResponse;
    if (update?.question != null && update.willContinue === true) (asked ??= []).push({ id: update.id, question: update.question, response: update.response });
  }
  if (!asked) return undefined;
  const events = context.session.events;
  const pending = findPendingCalls(events);
  // Asked once per message: an agent this invocation transfers to sees the same message.
  const askedEvents = new Set(events.filter((event) => event.invocationId === context.invocationId).map((event) => event.id));
  for (const record of pending.confirmations.values()) if (record.update && askedEvents.has(record.requestEventId)) return undefined;
  const longRunning = pending.longRunning;
  const requested: Record<string, ToolConfirmation> = {};
  const parts: Part[] = [];
  let author: string | undefined;
  for (const { id, question, response } of asked) {
    const record = longRunning.get(id);
    const call = record && modelCall(context, id);
    if (!record || !call) continue; // checked before the message was stored: pending, so its call is in the session
    author ??= record.agentName;
    const confirmation: ToolConfirmation = { confirmed: false, askedBy: 'tool', update: { response, willContinue: true } };
    const toolConfirmation: ConfirmationRequestArgs['toolConfirmation'] = {};
    if (question.hint !== undefined) toolConfirmation.hint = confirmation.hint = question.hint;
    if (question.payload !== undefined) toolConfirmation.payload = confirmation.payload = question.payload;
    if (question.payloadSchema !== undefined) toolConfirmation.payloadSchema = confirmation.payloadSchema = question.payloadSchema;
    requested[id] = confirmation;
    const args: ConfirmationRequestArgs = { originalFunctionCall: { id, name: call.name, args: argsObject(call.args) }, toolConfirmation };
    parts.push({ functionCall: { id: `confirm-${randomUUID()}`, name: REQUEST_CONFIRMATION, args: args as unknown as Record<string, unknown> } });
  }
  if (parts.length === 0) return undefined;
  const actions = createEventActions();
  actions.requestedToolConfirmations = requested;
  return Event.create({
    invocationId: context.invocationId,
    author: author!,
    branch: context.branch,
    content: { role: 'model', parts },
    actions,
    longRunningToolIds: parts.map((part) => part.functionCall!.id),
  });
}

/** True when the message holds a long-running update with a question (`null`: none): only then can {@link updateQuestionPause} pause. */
export function asksQuestion(message: Content): boolean {
  // A plain loop: asked at every run's start, and `some` made a callback each time.
  const parts = message.parts;
  for (let index = 0; index < parts.length; index++) if (parts[index].functionResponse?.question != null) return true;
  return false;
}

/** The model's call with this id, as stored in the session. */
function modelCall(context: InvocationContext, id: string): FunctionCall | undefined {
  const events = context.session.events;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event.author === 'user' || !event.content) continue;
    for (const part of event.content.parts) if (part.functionCall?.id === id && part.functionCall.name !== REQUEST_CONFIRMATION) return part.functionCall;
  }
  return undefined;
}

function argsObject(args: FunctionCall['args']): Record<string, unknown> {
  if (typeof args !== 'string') return args;
  try {
    const parsed: unknown = JSON.parse(args);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
