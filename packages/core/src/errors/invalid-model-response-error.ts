import { ToolsmithError } from './toolsmith-error';

/**
 * A model (or an `afterModel` / `onModelError` callback) returned a response that is not a valid
 * `LlmResponse`: parts that are not objects, text that is not a string, a function call without a name,
 * a function response written by the model, content that cannot be stored as JSON. The response is
 * refused at the boundary: nothing of it is stored, and the run ends with this error as an event.
 */
export class InvalidModelResponseError extends ToolsmithError {
  constructor(
    /** The `modelName` of the model whose response (as the callbacks left it) was refused. */
    readonly modelName: string,
    /** What is wrong with the response, e.g. `part 0 has "text" that is not a string`; also in `details.reason`. */
    readonly reason: string,
  ) {
    super('INVALID_MODEL_RESPONSE', `Model "${modelName}" returned an invalid response: ${reason}.`, { details: { reason } });
  }
}
