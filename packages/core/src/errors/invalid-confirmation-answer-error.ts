import { invalidConfirmationAnswerMessage } from './messages';
import { ToolsmithError } from './toolsmith-error';

/**
 * A confirmation answer the request cannot take (`INVALID_CONFIRMATION_ANSWER`): not named
 * `toolsmith_request_confirmation`, with members other than `id`, `name` and `response`, without a valid
 * `decision` (or boolean `confirmed`), with fields its decision does not take, an approval or edit whose `payload` does not fill in the request's form
 * (`payloadSchema`), an `edit` of an update's question or of a request that is not editable, or a `remember` that is malformed, asked of a
 * request the tool made itself, or sent to a runner without a `grantService`. Nothing was stored; the
 * request is still open.
 */
export class InvalidConfirmationAnswerError extends ToolsmithError {
  constructor(
    /** The id of the confirmation request (the `toolsmith_request_confirmation` call) the answer was for. */
    readonly requestId: string,
    problem: string,
  ) {
    super('INVALID_CONFIRMATION_ANSWER', invalidConfirmationAnswerMessage(requestId, problem), {
      details: { requestId },
    });
  }
}
