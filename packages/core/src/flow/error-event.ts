import type { InvocationContext } from '../agents/invocation-context';
import type { ToolsmithError } from '../errors/toolsmith-error';
import { Event } from '../events/event';
import type { EventActions } from '../state/event-actions';

/** An event reporting `error` (its stable code and message; no stack, no cause). */
export function errorEvent(context: InvocationContext, author: string, error: ToolsmithError, actions?: EventActions): Event {
  return Event.create({
    invocationId: context.invocationId,
    author,
    branch: context.branch,
    errorCode: error.code,
    errorMessage: error.message,
    ...(actions ? { actions } : {}),
  });
}
