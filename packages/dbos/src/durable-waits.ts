import type { Content, Event } from '@toolsmith/core';

/**
 * The names a durable run's waits use in DBOS: stable across releases, like {@link DURABLE_STEP_NAMES}.
 * A run that paused (on a confirmation request or a long-running tool call) publishes the call ids it
 * waits for as DBOS event `waitingEvent` and waits for DBOS messages on topic `answerTopic`; each event
 * it stores that carries `longRunningToolIds` names its workflow in `customMetadata[workflowIdMetadata]`,
 * which is how an answer finds the run waiting for it.
 */
export const DURABLE_WAIT_NAMES = {
  /** DBOS event of the run's workflow: the call ids it waits for (`[]` when it waits for nothing). */
  waitingEvent: 'toolsmith.waiting',
  /** DBOS message topic the answers are sent on. */
  answerTopic: 'toolsmith.answer',
  /** DBOS event of a request's claim workflow: the token of the answer that took the request. */
  claimEvent: 'toolsmith.claimedBy',
  /** DBOS message topic on which an answer tells a call's claim whether it keeps the request (`true`: it took all its requests) or gives it up (`false`). */
  keptTopic: 'toolsmith.kept',
  /** DBOS message topic on which, in earlier releases, the winner told its answer's workflow it saved the credential (`true`; `false`: the save failed); such a workflow, recovered, still waits for it. Now the credential is saved before the answer's workflow starts. */
  savedTopic: 'toolsmith.saved',
  /** The key, in a stored pause event's `customMetadata`, of the id of the workflow that paused. */
  workflowIdMetadata: 'toolsmith.dbos.workflowId',
} as const;

/** An answer sent to a waiting run: the message that answers its pause. */
export interface DurableAnswer {
  newMessage: Content;
  messageId?: string;
}

/** The ids of the calls a message answers (its function responses). */
export function answeredIds(message: Content): string[] {
  return message.parts.flatMap((part) => (part.functionResponse?.id === undefined ? [] : [part.functionResponse.id]));
}

/** The id of the workflow that stored `event` while pausing on one of `ids`, if it did. */
export function pausedWorkflowId(event: Event, ids: readonly string[]): string | undefined {
  const workflowId = event.customMetadata?.[DURABLE_WAIT_NAMES.workflowIdMetadata];
  if (typeof workflowId !== 'string' || !event.longRunningToolIds?.some((id) => ids.includes(id))) return undefined;
  return workflowId;
}
