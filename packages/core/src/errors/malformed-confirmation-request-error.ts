import { ToolsmithError } from './toolsmith-error';

/**
 * A `toolsmith_request_confirmation` call does not carry a usable `originalFunctionCall` (missing, not
 * JSON, or without a string `id` and `name` and object `args`).
 */
export class MalformedConfirmationRequestError extends ToolsmithError {
  constructor(problem: string) {
    super('MALFORMED_CONFIRMATION_REQUEST', `Not a valid confirmation request: ${problem}.`);
  }
}
