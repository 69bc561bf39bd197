import { confirmationEditInvalidMessage } from './messages';
import type { ArgumentProblem } from './tool-call-errors';
import { ToolsmithError } from './toolsmith-error';

/**
 * A confirmation answer's edited arguments are refused (`CONFIRMATION_EDIT_INVALID`): they break the
 * tool's schema, its Standard Schemas, its DTO rules or the argument limits (checked exactly as a model's
 * arguments are, without repairs), or the confirmation policy denies the edited call. The answer was
 * refused before anything was stored or run: the request is still open.
 */
export class ConfirmationEditInvalidError extends ToolsmithError {
  constructor(
    /** The id of the confirmation request (the `toolsmith_request_confirmation` call) the answer was for. */
    readonly requestId: string,
    toolName: string,
    /** Every problem found, each at its JSON pointer; also in `details.problems`. */
    readonly problems: readonly ArgumentProblem[],
  ) {
    super(
      'CONFIRMATION_EDIT_INVALID',
      confirmationEditInvalidMessage(requestId, toolName, problems.map((p) => p.message)),
      { details: { requestId, toolName, problems } },
    );
  }
}
