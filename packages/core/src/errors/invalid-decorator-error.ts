import { ToolsmithError } from './toolsmith-error';

/**
 * A decorator is used in the wrong place or with wrong arguments; thrown when the class is defined. The
 * message (built in `messages.ts`) names the decorator and where it belongs.
 */
export class InvalidDecoratorError extends ToolsmithError<'INVALID_DECORATOR'> {
  constructor(message: string) {
    super('INVALID_DECORATOR', message);
  }
}
