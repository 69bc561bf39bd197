import { ToolsmithError } from './toolsmith-error';

/**
 * A confirmation answer is malformed: not named `toolsmith_request_confirmation`, or its response is
 * not an object with a boolean `confirmed`. Nothing ran.
 */
export class InvalidConfirmationAnswerError extends ToolsmithError {
  constructor(
    /** The id of the confirmation request (the `toolsmith_request_confirmation` call) the answer was for. */
    readonly requestId: string,
    problem: string,
  ) {
    super('INVALID_CONFIRMATION_ANSWER', `The answer to confirmation request "${requestId}" was refused: ${problem}.`, {
      details: { requestId },
    });
  }
}
