import { type PendingConfirmation, findPendingCalls } from '../confirmation/pending-calls';
import { isPauseRequestName } from '../confirmation/request-confirmation';
import type { Event } from '../events/event';
import type { WorkflowPosition } from '../state/event-actions';
import type { BaseAgent } from './base-agent';
import type { InvocationContext } from './invocation-context';

/** Where a workflow agent resumes: the sub-agent to start with, its round, and the pause being answered. */
export interface WorkflowResume {
  /** Index of the sub-agent that paused (it finishes its turn, then the following ones run). */
  index: number;
  /** The loop round to continue (0 for a `SequentialAgent`). */
  round: number;
  /** The request event being answered: while requests of it stay open, the workflow must not go on. */
  requestEventId: string;
}

/**
 * Where `workflow` resumes in this invocation, or `undefined` when it starts from the beginning. It
 * resumes only when the user's message answers a confirmation request made by one of its descendants,
 * and only on its first entry in the invocation (nothing but the user's message is stored yet): a later
 * round of an enclosing loop starts it afresh. The position comes from the session alone (the request
 * event's `workflowPositions`, else the sub-agent containing the paused agent), so any process resumes it.
 */
export function workflowResume(workflow: BaseAgent, context: InvocationContext): WorkflowResume | undefined {
  const answered = answeredRequestIds(context);
  if (answered.size === 0) return undefined;
  const events = context.session.events;
  let start = events.length;
  while (start > 0 && events[start - 1].invocationId === context.invocationId) {
    if (events[start - 1].author !== 'user') return undefined; // the invocation is under way: not the resume entry
    start--;
  }
  // The records as they were before this invocation stored the answers.
  const pending = findPendingCalls(events.slice(0, start)).confirmations;
  let record: PendingConfirmation | undefined;
  let requestEvent: Event | undefined;
  for (let i = start - 1; i >= 0 && !record; i--) {
    for (const candidate of pending.values()) {
      if (candidate.requestEventId !== events[i].id || !answered.has(candidate.requestId)) continue;
      if (candidate.agentName === workflow.name || !workflow.findAgent(candidate.agentName)) continue;
      record = candidate;
      requestEvent = events[i];
      break;
    }
  }
  if (!record || !requestEvent) return undefined;
  const index = workflow.subAgents.findIndex((child) => child.findAgent(record.agentName) !== undefined);
  if (index < 0) return undefined;
  const recorded = requestEvent.actions.workflowPositions?.[workflow.name];
  // A recorded position naming another sub-agent (the tree changed since) yields to the tree.
  const round = recorded && recorded.subAgent === workflow.subAgents[index].name ? (recorded.round ?? 0) : 0;
  return { index, round, requestEventId: record.requestEventId };
}

/** True while requests of the answered pause are still open: the paused agent stopped again, so the workflow stops too. */
export function pauseStillOpen(context: InvocationContext, resume: WorkflowResume): boolean {
  for (const record of findPendingCalls(context.session.events).confirmations.values()) {
    if (record.requestEventId === resume.requestEventId) return true;
  }
  return false;
}

/** Notes on an event that pauses for a confirmation where `workflow` stands, for {@link workflowResume} to read back. */
export function recordWorkflowPosition(event: Event, workflow: BaseAgent, position: WorkflowPosition): void {
  const requested = event.actions.requestedToolConfirmations;
  if (!requested || Object.keys(requested).length === 0) return;
  event.actions.workflowPositions = { ...event.actions.workflowPositions, [workflow.name]: position };
}

function answeredRequestIds(context: InvocationContext): Set<string> {
  const ids = new Set<string>();
  for (const part of context.userContent?.parts ?? []) {
    if (isPauseRequestName(part.functionResponse?.name)) ids.add(part.functionResponse!.id);
  }
  return ids;
}
