import { type InputRequest, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { InvalidConfirmationAnswerError, type JsonSchema, type ToolConfirmation, type ToolsmithError } from '@toolsmith/core';
import { type ConfirmationDecision, jsonDigest, readConfirmationDecision } from '@toolsmith/core/internal';
import { type ElicitationSchema, confirmationFromForm, elicitationMessage } from './elicitation-form';

/** The key of the confirmation form in a 2026-07-28 `input_required` result and in the retry's `inputResponses`. */
export const CONFIRMATION_INPUT_KEY = 'confirm';

/**
 * The form a 2026-07-28 client shows for a confirmation (an embedded `elicitation/create`): the four
 * decisions of a confirmation (`approve`, `edit` with edited arguments as JSON, `reject` with a message to
 * the model, `respond` with the result instead of running), the hint as message, the payload as details.
 * A tool that asked with `editable: false` gets three: no `edit`, and no `arguments` field.
 */
export function confirmationInputRequest(toolName: string, args: Record<string, unknown>, requested: ToolConfirmation): InputRequest {
  const editable = requested.editable !== false;
  return inputRequired.elicit({
    message: elicitationMessage(toolName, requested),
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          // No default: a client that fills in defaults (SDK v2 `applyDefaults`) must never turn an empty answer into an approval.
          enum: editable ? ['approve', 'edit', 'reject', 'respond'] : ['approve', 'reject', 'respond'],
          description: editable
            ? 'approve: run it; edit: run it with the arguments below; reject: do not run it (say why below); respond: do not run it, answer with the result below'
            : 'approve: run it; reject: do not run it (say why below); respond: do not run it, answer with the result below',
        },
        ...(editable ? { arguments: { type: 'string' as const, title: 'Arguments (JSON), for edit', default: JSON.stringify(args) } } : {}),
        message: { type: 'string', title: 'Message to the model, for reject' },
        result: { type: 'string', title: 'Result instead of running, for respond (JSON or text)' },
      },
      required: ['decision'],
    },
  });
}

/** The form a tool asked for (`payloadSchema`, as `form`), as a 2026-07-28 input request: approving is filling it in. */
export function formInputRequest(toolName: string, requested: ToolConfirmation, form: ElicitationSchema): InputRequest {
  return inputRequired.elicit({ message: elicitationMessage(toolName, requested), requestedSchema: form });
}

/**
 * Reads the answer to {@link formInputRequest} from a retried call's `inputResponses` (see
 * {@link confirmationFromForm}); no answer is `INVALID_CONFIRMATION_ANSWER`.
 */
export function readFormInput(callId: string, responses: Record<string, unknown> | undefined, requested: ToolConfirmation & { payloadSchema: JsonSchema }): ToolConfirmation | ToolsmithError {
  const view = inputResponse(responses, CONFIRMATION_INPUT_KEY);
  if (view.kind !== 'elicit') {
    return new InvalidConfirmationAnswerError(callId, `the retried call carries no answer to the "${CONFIRMATION_INPUT_KEY}" input request in inputResponses`);
  }
  return confirmationFromForm(callId, requested, { action: view.action, ...(view.content ? { content: view.content } : {}) });
}

/**
 * Reads the answer to {@link confirmationInputRequest} from a retried call's `inputResponses`: declined or
 * cancelled is a rejection; accepted content is read as a confirmation decision (also the one-boolean
 * form `{ confirmed }`). A missing or unreadable answer is `INVALID_CONFIRMATION_ANSWER`, and so is one
 * that contradicts itself: a `confirmed` the decision does not allow, no decision at all (never an
 * approval), or a field of another decision (`message` beside approve, `result` beside reject, edited
 * `arguments` beside anything but edit). A `null` or empty (or whitespace-only) text field counts as left empty, and `arguments` as the
 * form prefilled them (the call's own) as left alone. Not `editable` (the tool asked with `editable: false`):
 * an edit is `INVALID_CONFIRMATION_ANSWER` too.
 */
export function readConfirmationInput(callId: string, responses: Record<string, unknown> | undefined, args: Record<string, unknown>, editable = true): ConfirmationDecision | ToolsmithError {
  const view = inputResponse(responses, CONFIRMATION_INPUT_KEY);
  if (view.kind !== 'elicit') {
    return new InvalidConfirmationAnswerError(callId, `the retried call carries no answer to the "${CONFIRMATION_INPUT_KEY}" input request in inputResponses`);
  }
  if (view.action !== 'accept') return { decision: 'reject' };
  const content = view.content ?? {};
  if (!editable && content.decision === 'edit') {
    return new InvalidConfirmationAnswerError(callId, 'this confirmation cannot be answered with "edit": the tool asked about the call as it was made ("editable": false); approve, reject or respond');
  }
  const answer: Record<string, unknown> = {};
  if (content.decision !== undefined) answer.decision = content.decision;
  if (content.confirmed !== undefined) answer.confirmed = content.confirmed;
  if (content.decision === 'edit') {
    const parsed = parseJson(content.arguments);
    if (parsed === undefined) return new InvalidConfirmationAnswerError(callId, '"arguments" (the edited arguments) must be a JSON object');
    answer.args = parsed;
  } else if (filled(content.arguments) && !sameArguments(content.arguments, args)) {
    return new InvalidConfirmationAnswerError(callId, `edited "arguments" go only with "decision": "edit", not with ${JSON.stringify(content.decision) ?? 'no decision'}`);
  }
  if (filled(content.message)) answer.message = content.message;
  if (filled(content.result)) answer.result = typeof content.result === 'string' ? (parseJson(content.result) ?? content.result) : content.result;
  return readConfirmationDecision(callId, answer);
}

/**
 * Whether a retry's answer to {@link confirmationInputRequest} is an edit to exactly the arguments the retry
 * carries (`{ decision: "edit", arguments: <those arguments as JSON> }`): such a retry may carry other
 * arguments than the call that was asked (a client that sends the edited call, as `McpToolset` does).
 */
export function editsToCallArguments(responses: Record<string, unknown> | undefined, args: Record<string, unknown>): boolean {
  const view = inputResponse(responses, CONFIRMATION_INPUT_KEY);
  return view.kind === 'elicit' && view.action === 'accept' && view.content?.decision === 'edit' && sameArguments(view.content.arguments, args);
}

/** A form field the person filled in: anything but nothing, `null` (how JSON clients and pydantic dumps write a field left out) or a text that is empty or only whitespace. */
function filled(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

/** Whether the form's `arguments` are still the call's own (as prefilled): the same JSON, whatever its spacing or key order. */
function sameArguments(text: unknown, args: Record<string, unknown>): boolean {
  const parsed = parseJson(text);
  return parsed !== undefined && jsonDigest(parsed) === jsonDigest(args);
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
