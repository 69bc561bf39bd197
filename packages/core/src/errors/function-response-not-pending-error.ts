import { ToolsmithError } from './toolsmith-error';

/** Why a function response sent by the client was refused by {@link FunctionResponseNotPendingError}. */
export type NotPendingReason = 'unknown' | 'answered';

/**
 * The client sent a function response whose id answers nothing pending in the session: an id that was
 * never asked for (a forged or mistyped id), or one already answered. Nothing ran.
 */
export class FunctionResponseNotPendingError extends ToolsmithError {
  constructor(
    /** The id the refused function response carried. */
    readonly functionCallId: string,
    /** `'answered'` when that call was already answered (or answered twice in one message); `'unknown'` when nothing asked for it. */
    readonly reason: NotPendingReason,
  ) {
    super(
      'FUNCTION_RESPONSE_NOT_PENDING',
      reason === 'answered'
        ? `The function response for "${functionCallId}" was refused: that call was already answered.`
        : `The function response for "${functionCallId}" was refused: no pending confirmation request or long-running call has this id.`,
      { details: { functionCallId, reason } },
    );
  }
}
