import { REQUEST_CREDENTIAL } from '../auth/request-credential';
import { MalformedConfirmationRequestError } from '../errors/malformed-confirmation-request-error';
import type { FunctionCall } from '../model/content';
import type { JsonSchema } from '../model/json-schema';

/**
 * Name of the function call the runner emits when a tool call needs the user's confirmation.
 *
 * Its `args` are {@link ConfirmationRequestArgs}: `originalFunctionCall` (the call that did not run)
 * and `toolConfirmation` (`hint` and `payload` to show the user). The event carrying it lists its id
 * in `longRunningToolIds` and ends the invocation. A client must:
 * 1. find function calls with this name in the run's events (see {@link confirmationRequests});
 * 2. show the user `toolConfirmation.hint` and the original call ({@link originalCallFrom});
 * 3. send, as the next `newMessage`, a function response with the SAME id, this name and
 *    `{ confirmed: boolean, payload? }` (build it with {@link confirmationResponse}).
 *
 * Confirmed, the original call runs with `ctx.toolConfirmation` set and its response goes to the
 * model; denied, the model gets a `TOOL_CALL_REJECTED` error response. Answers that do not match a
 * pending request are refused with an error event and nothing runs.
 */
export const REQUEST_CONFIRMATION = 'toolsmith_request_confirmation';

/** What a confirmation request asks: shown to the user, echoed back in `ctx.toolConfirmation.hint`. */
export interface ConfirmationPrompt {
  /** What is being approved, in words. */
  hint?: string;
  /** Structured data for the client (e.g. the amount), set by the tool or the runner. */
  payload?: unknown;
  /**
   * A form to fill in rather than a plain yes or no: the JSON Schema the answer's `payload` must match
   * when the person approves (or edits). An answer whose payload does not match is refused before
   * anything is stored or run.
   */
  payloadSchema?: JsonSchema;
  /**
   * `false`: the question is about the call as it was made (an MCP server's form, say), so it takes
   * approve, reject and respond, and an answer with `edit` is refused (`INVALID_CONFIRMATION_ANSWER`).
   * Absent: every decision.
   */
  editable?: boolean;
}

/** The `args` of a {@link REQUEST_CONFIRMATION} function call. */
export interface ConfirmationRequestArgs {
  /** The call that is waiting: its id, tool name and arguments. */
  originalFunctionCall: FunctionCall;
  /** What to show the user: the `hint` and `payload` the tool or runner gave (each absent when not given). */
  toolConfirmation: ConfirmationPrompt;
}

/**
 * True when `call` is named {@link REQUEST_CONFIRMATION}. The name alone does not make a request: a
 * model can write a call with this name. To find what the user must answer, use
 * `confirmationRequests(event)`, which lists only the runner's own requests.
 */
export function isConfirmationRequest(call: Pick<FunctionCall, 'name'>): boolean {
  return call.name === REQUEST_CONFIRMATION;
}

/**
 * True for the names of the runner's pause requests, {@link REQUEST_CONFIRMATION} and
 * `REQUEST_CREDENTIAL`: their calls and answers are the pause protocol, never shown to the model.
 */
export function isPauseRequestName(name: unknown): boolean {
  return name === REQUEST_CONFIRMATION || name === REQUEST_CREDENTIAL;
}

/**
 * Extracts the original function call from a {@link REQUEST_CONFIRMATION} (or `REQUEST_CREDENTIAL`) call: the typed
 * {@link FunctionCall} or the raw JSON map (e.g. parsed from a server-sent event); its `args` and
 * `originalFunctionCall` may be objects or JSON text. Throws {@link MalformedConfirmationRequestError}
 * when it is not a confirmation request or carries no valid original call.
 *
 * @example
 * ```ts
 * const original = originalCallFrom(requestCall); // { id: 'call_1', name: 'refund', args: { amount: 250 } }
 * ```
 */
export function originalCallFrom(functionCall: FunctionCall | Record<string, unknown>): FunctionCall {
  if (!isRecord(functionCall)) throw new MalformedConfirmationRequestError('the function call is not an object');
  if (!isPauseRequestName(functionCall.name)) {
    throw new MalformedConfirmationRequestError(`the function call is named "${String(functionCall.name)}", not "${REQUEST_CONFIRMATION}"`);
  }
  const args = fromJson(functionCall.args, 'args');
  const original = fromJson(args.originalFunctionCall, 'originalFunctionCall');
  if (typeof original.id !== 'string' || original.id === '') throw new MalformedConfirmationRequestError('originalFunctionCall has no string "id"');
  if (typeof original.name !== 'string' || original.name === '') throw new MalformedConfirmationRequestError('originalFunctionCall has no string "name"');
  const originalArgs = original.args === undefined ? {} : original.args;
  if (typeof originalArgs !== 'string' && !isRecord(originalArgs)) {
    throw new MalformedConfirmationRequestError('originalFunctionCall "args" is neither an object nor JSON text');
  }
  return { id: original.id, name: original.name, args: originalArgs };
}

/** The `toolConfirmation` of a {@link REQUEST_CONFIRMATION} call (empty when absent). */
export function confirmationPromptFrom(functionCall: FunctionCall): ConfirmationPrompt {
  const args = fromJson(functionCall.args, 'args');
  const prompt = args.toolConfirmation === undefined ? {} : fromJson(args.toolConfirmation, 'toolConfirmation');
  const result: ConfirmationPrompt = {};
  if (typeof prompt.hint === 'string') result.hint = prompt.hint;
  if (prompt.payload !== undefined) result.payload = prompt.payload;
  if (isRecord(prompt.payloadSchema)) result.payloadSchema = prompt.payloadSchema;
  if (prompt.editable === false) result.editable = false;
  return result;
}

function fromJson(value: unknown, what: string): Record<string, unknown> {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new MalformedConfirmationRequestError(`"${what}" is not valid JSON`);
    }
  }
  if (!isRecord(parsed)) throw new MalformedConfirmationRequestError(`"${what}" is ${parsed === undefined ? 'missing' : 'not an object'}`);
  return parsed;
}

/** @internal */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
