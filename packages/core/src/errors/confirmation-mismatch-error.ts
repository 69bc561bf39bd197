import type { FunctionCall } from '../model/content';
import { ToolsmithError } from './toolsmith-error';

/**
 * A confirmation answer named an original call (id, tool name or arguments) other than the one the
 * session holds for that request. The session's record is the authority: nothing ran.
 */
export class ConfirmationMismatchError extends ToolsmithError {
  constructor(
    /** The id of the confirmation request (the `toolsmith_request_confirmation` call) the answer was for. */
    readonly requestId: string,
    pending: Pick<FunctionCall, 'id' | 'name'>,
  ) {
    super(
      'CONFIRMATION_MISMATCH',
      `The answer to confirmation request "${requestId}" was refused: its originalFunctionCall differs from the pending call ` +
        `"${pending.id}" to tool "${pending.name}". Answer with the request exactly as it was received.`,
      { details: { requestId, pendingCallId: pending.id, pendingToolName: pending.name } },
    );
  }
}
