import { BaseAgent } from '../agents/base-agent';
import { InvocationContext, InvocationServices } from '../agents/invocation-context';
import { RunAbortedError } from '../errors/run-aborted-error';
import { ToolsmithError } from '../errors/toolsmith-error';
import { Event } from '../events/event';
import { newId } from '../events/event-id';
import { Content } from '../model/content';
import { Session } from '../sessions/session';
import { SessionKey } from '../sessions/session-service';
import { StatePrefix } from '../state/state';
import { checkFunctionResponses } from '../confirmation/check-function-responses';
import { checkNewMessage } from './check-new-message';
import { canRace, refuseRacedAnswers } from './answer-race-guard';
import { errorEvent } from './error-event';
import { NEVER_ABORTED } from './never-aborted';


/** Input of {@link runInvocation}. */
export interface RunInvocationInput {
  agent: BaseAgent | ((session: Session) => BaseAgent);
  /** The session, or the key of the session to continue (created empty when it does not exist). */
  session: Session | SessionKey;
  newMessage?: Content;
  signal?: AbortSignal;
  streaming?: boolean;
}

/**
 * Runs one invocation: stores the user's message, runs the agent, stores every complete event before
 * the agent continues (so the agent sees it in the session) and yields it. Anything thrown becomes an
 * error event; an abort ends the run with a `RUN_ABORTED` event and stores nothing half-made.
 */
export async function* runInvocation(services: InvocationServices, input: RunInvocationInput): AsyncGenerator<Event, void, undefined> {
  const signal = input.signal ?? NEVER_ABORTED;
  const session = isSessionKey(input.session)
    ? ((await services.sessionService.getSession(input.session)) ?? (await services.sessionService.createSession(input.session)))
    : input.session;
  const agent = typeof input.agent === 'function' ? input.agent(session) : input.agent;
  const context = new InvocationContext({
    invocationId: newId('inv'), agent, session, services, userContent: input.newMessage, signal, streaming: input.streaming ?? false,
  });
  try {
    if (signal.aborted) {
      yield errorEvent(context, agent.name, new RunAbortedError(signal.reason));
      return;
    }
    if (input.newMessage !== undefined) {
      const invalid = checkNewMessage(input.newMessage);
      if (invalid) {
        yield errorEvent(context, agent.name, invalid);
        return;
      }
      // Answers to confirmations and long-running calls must match what the session waits for; else nothing runs.
      const refusal = checkFunctionResponses(session.events, input.newMessage);
      if (refusal) {
        const refused = errorEvent(context, agent.name, refusal);
        await store(context, refused);
        yield refused;
        return;
      }
      const userEvent = Event.create({ invocationId: context.invocationId, author: 'user', content: input.newMessage });
      await store(context, userEvent);
      // Only answers (function responses) can race; a plain message skips the check and its await.
      const raced = canRace(userEvent) ? await refuseRacedAnswers(context, userEvent) : undefined;
      if (raced) {
        const refused = errorEvent(context, agent.name, raced);
        await store(context, refused);
        yield refused;
        return;
      }
    }
    for await (const event of agent.runAsync(context)) {
      if (!event.partial && event.errorCode !== 'RUN_ABORTED') await store(context, event);
      yield event;
    }
  } catch (thrown) {
    const error = ToolsmithError.isInstance(thrown)
      ? thrown
      : new ToolsmithError('INTERNAL_ERROR', `The run failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`, { cause: thrown });
    yield errorEvent(context, context.agent.name, error);
  }
}

/** A key names `sessionId`; a session has `id` instead. */
function isSessionKey(session: Session | SessionKey): session is SessionKey {
  return typeof (session as Partial<SessionKey>).sessionId === 'string';
}

/**
 * Moves `temp:` writes into the invocation (they are never stored), then appends the event. Not an
 * async function: it hands back the service's promise, so each stored event costs one await, not two.
 */
function store(context: InvocationContext, event: Event): Promise<Event> {
  const delta = event.actions.stateDelta;
  for (const key of Object.keys(delta)) {
    if (!key.startsWith(StatePrefix.TEMP)) continue;
    if (delta[key] === null) delete context.tempState[key];
    else context.tempState[key] = delta[key];
  }
  return context.services.sessionService.appendEvent(context.session, event);
}
