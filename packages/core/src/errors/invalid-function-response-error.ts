import { ToolsmithError } from './toolsmith-error';

/**
 * A function response sent by the client is malformed: no string `id` or `name`, a `response` that is
 * not a JSON object, a `willContinue` that is not a boolean, a tool name other than the pending
 * call's, or a member a client's update does not carry (only `id`, `name`, `response`, `willContinue`,
 * `question` and `parts`: `isError`, `confirmation`, `innerCalls` and the like are the runner's). Nothing
 * was stored and nothing ran.
 */
export class InvalidFunctionResponseError extends ToolsmithError {
  constructor(
    /** The id the refused response carried; `undefined` when it had no string `id`. */
    readonly functionCallId: string | undefined,
    problem: string,
  ) {
    super(
      'INVALID_FUNCTION_RESPONSE',
      `The function response${functionCallId === undefined ? '' : ` for "${functionCallId}"`} was refused: ${problem}.`,
      { details: { functionCallId } },
    );
  }
}
