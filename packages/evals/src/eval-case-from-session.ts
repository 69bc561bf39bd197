import type { Event, FunctionResponse, Session } from '@toolsmith/core';
import { argumentsAsRead } from '@toolsmith/core/internal';
import { REQUEST_CONFIRMATION, REQUEST_CREDENTIAL } from '@toolsmith/core';
import type { EvalCase, EvalTurn, ExpectedCall, TrajectoryMatch } from './eval-set';
import { literalArguments } from './literal-arguments';
import { callFailure, finalResponses } from './call-failure';

/** Options of {@link evalCaseFromSession}. */
export interface EvalCaseFromSessionOptions {
  /** The case's id; default the session's id. */
  id?: string;
  /** How the recorded calls are to be matched; default `exact`. */
  match?: TrajectoryMatch;
  /** `exact` (default): each turn's recorded answer text is its expected answer; `none`: answers are not checked. */
  answers?: 'exact' | 'none';
  /** The state the case starts from (a stored session keeps only its current state); default none. */
  initialState?: Record<string, unknown>;
}

/**
 * Records a stored session as an eval case: each user message with text starts a turn (its `user` is the
 * message's content, or its text when that is all it holds); the turn expects the tool calls the session's
 * agents made in answer to it, in order, each with the arguments it was called with (`exactArgs: true`; JSON
 * text read as the executor read it, the value repairs its response lists made again, and text it refused
 * as malformed kept as `argsText`; a call whose response was an error expected to fail again, `failed: true`),
 * and (with `answers: 'exact'`) the turn's last final answer text. The runner's own calls (confirmation and
 * credential requests) and compaction events are left out; answers to pauses continue their turn and are
 * not replayed. The case keeps the session's `userId` and `appName`, the turns their invocation ids and times.
 *
 * @example
 * ```ts
 * const session = await sessionService.getSession({ appName: 'shop', userId: 'u1', sessionId: 's1' });
 * const evalCase = evalCaseFromSession(session!, { id: 'refund-flow' });
 * ```
 */
export function evalCaseFromSession(session: Session, options: EvalCaseFromSessionOptions = {}): EvalCase {
  const turns: EvalTurn[] = [];
  let current: { turn: EvalTurn; calls: ExpectedCall[]; answer?: string } | undefined;
  const finish = () => {
    if (!current) return;
    current.turn.tools = { match: options.match ?? 'exact', calls: current.calls };
    if (options.answers !== 'none' && current.answer !== undefined) current.turn.answer = { exact: current.answer };
    turns.push(current.turn);
  };
  // Each call's arguments as the executor read them: its (first) response says whether it repaired their text.
  const responses = new Map<string, FunctionResponse>();
  for (const event of session.events) for (const response of event.functionResponses()) if (!responses.has(response.id)) responses.set(response.id, response);
  // A call whose final response is an error is expected to fail again (a failed call does not match a plain expected call).
  const final = finalResponses(session.events.flatMap((event) => event.functionResponses()));
  for (const event of session.events) {
    if (event.author === 'user') {
      if (!startsTurn(event)) continue;
      finish();
      const parts = event.content?.parts ?? [];
      const onlyText = parts.every((part) => part.text !== undefined && Object.keys(part).length === 1);
      const user = onlyText ? parts.map((part) => part.text).join('') : { role: 'user' as const, parts: structuredClone(parts) };
      current = { turn: { user, id: event.invocationId, createdAt: event.timestamp / 1000 }, calls: [] };
      continue;
    }
    if (!current || event.actions.compaction) continue;
    for (const call of event.functionCalls()) {
      if (call.name === REQUEST_CONFIRMATION || call.name === REQUEST_CREDENTIAL) continue;
      const args = argumentsAsRead(call, responses.get(call.id));
      // Text the executor refused is expected as that text: a replay matches only the same malformed call.
      const failed = callFailure(final.get(call.id)) !== undefined;
      current.calls.push(
        typeof args === 'string' ? { name: call.name, argsText: args } : { name: call.name, args: literalArguments(structuredClone(args)), exactArgs: true, ...(failed ? { failed } : {}) },
      );
    }
    if (!event.errorCode && event.isFinalResponse() && event.text()) current.answer = event.text();
  }
  finish();
  return {
    id: options.id ?? session.id,
    turns,
    userId: session.userId,
    appName: session.appName,
    ...(options.initialState ? { initialState: structuredClone(options.initialState) } : {}),
  };
}

/** A user event with text starts a turn; one holding only function responses answers a pause. */
function startsTurn(event: Event): boolean {
  return (event.content?.parts ?? []).some((part) => part.text !== undefined || part.inlineData !== undefined);
}
