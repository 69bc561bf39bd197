import type { InvocationContext } from '../agents/invocation-context';
import { checkFunctionResponses } from '../confirmation/check-function-responses';
import { ToolsmithError } from '../errors/toolsmith-error';
import { Event } from '../events/event';

/**
 * Checks a just-stored answer again, against the events stored before it. Two runs answering the
 * same request at once (a double click, two servers) both pass the first check on the session they
 * loaded; the store orders their answers, and only the first may run. Returns the refusal for the
 * later one. Only messages with function responses pay for the extra read (callers skip the call
 * when {@link canRace} is false).
 */
export async function refuseRacedAnswers(context: InvocationContext, userEvent: Event): Promise<ToolsmithError | undefined> {
  const content = userEvent.content;
  if (!content || !canRace(userEvent)) return undefined;
  const session = context.session;
  const stored = await context.services.sessionService.getSession({ appName: session.appName, userId: session.userId, sessionId: session.id });
  const index = stored?.events.findIndex((event) => event.id === userEvent.id) ?? -1;
  if (!stored || index < 0) return undefined;
  return checkFunctionResponses(stored.events.slice(0, index), content);
}

/** True when `userEvent` carries function responses: only answers can race. */
export function canRace(userEvent: Event): boolean {
  return userEvent.content?.parts.some((part) => part.functionResponse !== undefined) ?? false;
}
