import { ToolsmithError } from './toolsmith-error';

/**
 * A `beforeModel` callback (or a tool's `processRequest` hook) left the request it edits with a file no provider can be sent (inline data
 * without a `type/subtype` media type, data that is not base64, bytes that are not its PNG, JPEG, GIF,
 * WebP or PDF type, …) or with contents whose files cannot be read. Found before the model is called: the
 * model is not called, and the run ends with this error as an event, rather than with the provider's
 * failure to convert the request.
 */
export class InvalidModelRequestError extends ToolsmithError {
  constructor(
    /** The `modelName` of the model the request was for. */
    readonly modelName: string,
    /** What is wrong with the request, e.g. `content 2, part 0 has inlineData that is not …`; also in `details.reason`. */
    readonly reason: string,
    /** Who left the file at fault: a `beforeModel` callback (the default) or a tool's `processRequest` hook; also in `details.by`. */
    readonly by: 'beforeModel' | 'processRequest' = 'beforeModel',
  ) {
    const who = by === 'processRequest' ? 'a processRequest hook' : 'a beforeModel callback';
    super('INVALID_MODEL_REQUEST', `The request ${who} left for model "${modelName}" is not valid: ${reason}. The model was not called.`, { details: { reason, by } });
  }
}
