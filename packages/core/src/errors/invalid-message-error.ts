import { ToolsmithError } from './toolsmith-error';

/** The message given to `runner.run` is not a user `Content` (`{ role: 'user', parts: [...] }`). */
export class InvalidMessageError extends ToolsmithError {
  constructor(
    reason: string,
    /** What to send instead, closing the message; by default the shape of a user's text message. */
    hint = "Send { role: 'user', parts: [{ text: '…' }] }.",
  ) {
    super('INVALID_MESSAGE', `The new message is not valid: ${reason}. ${hint}`);
  }
}
