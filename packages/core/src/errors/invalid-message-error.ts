import { ToolsmithError } from './toolsmith-error';

/** The message given to `runner.run` is not a user `Content` (`{ role: 'user', parts: [...] }`). */
export class InvalidMessageError extends ToolsmithError {
  constructor(reason: string) {
    super('INVALID_MESSAGE', `The new message is not valid: ${reason}. Send { role: 'user', parts: [{ text: '…' }] }.`);
  }
}
