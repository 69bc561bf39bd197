import type { Content, FunctionResponse } from '../model/content';
import type { LongRunningQuestion } from './long-running-question';

/** Input of {@link longRunningResponse}. */
export interface LongRunningResponseInput {
  /** Id of the long-running call (listed in its event's `longRunningToolIds`). */
  id: string;
  /** The tool's name, as in the original call. */
  name: string;
  /** The update: any JSON object (e.g. `{ status: 'done', url }`). */
  response: Record<string, unknown>;
  /** True for an intermediate update: the call stays pending and more responses may follow. */
  willContinue?: boolean;
  /**
   * With `willContinue: true`: a question for the person (hint, payload, form). The run stores the update
   * and pauses on a confirmation request for the call; the answer runs the tool again (docs/long-running.md).
   */
  question?: LongRunningQuestion;
}

/**
 * Builds the message reporting progress or the result of a long-running call: a user `Content` with
 * one function response of the call's id. Send it as `newMessage` of a later `runner.run` (possibly
 * in another process); the model gets it and continues. Without `willContinue` it is the final
 * response and the id stops being pending.
 *
 * @example
 * ```ts
 * const newMessage = longRunningResponse({ id: ticketCallId, name: 'startExport', response: { status: 'done' } });
 * ```
 */
export function longRunningResponse(input: LongRunningResponseInput): Content {
  return {
    role: 'user',
    parts: [
      { functionResponse: updateOf(input) },
    ],
  };
}

function updateOf(input: LongRunningResponseInput): FunctionResponse {
  const response: FunctionResponse = { id: input.id, name: input.name, response: input.response };
  if (input.willContinue) response.willContinue = true;
  if (input.question !== undefined) response.question = input.question;
  return response;
}
