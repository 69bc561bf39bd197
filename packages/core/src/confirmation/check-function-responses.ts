import { REQUEST_CREDENTIAL } from '../auth/request-credential';
import { InvalidCredentialAnswerError } from '../errors/auth-errors';
import { ConfirmationMismatchError } from '../errors/confirmation-mismatch-error';
import { FunctionResponseNotPendingError } from '../errors/function-response-not-pending-error';
import { InvalidConfirmationAnswerError } from '../errors/invalid-confirmation-answer-error';
import { InvalidFunctionResponseError } from '../errors/invalid-function-response-error';
import type { ToolsmithError } from '../errors/toolsmith-error';
import type { EventData } from '../events/event';
import type { Content, FunctionCall } from '../model/content';
import type { JsonSchema } from '../model/json-schema';
import { toArgumentProblems, validatorFor } from '../validation/schema-validator';
import { readConfirmationDecision } from './confirmation-decision';
import { readCredentialAnswer } from './credential-answer';
import { longRunningQuestionProblem } from './long-running-question';
import { type PendingCalls, findPendingCalls } from './pending-calls';
import { REQUEST_CONFIRMATION, isRecord, originalCallFrom } from './request-confirmation';

const REMEMBER_NOT_APPLICABLE =
  '"remember" (always allow) does not apply to this request: the tool asked itself (ctx.requestConfirmation), and a grant never answers such a request; approve without "remember"';

/**
 * Checks the function responses of a client's message against what the session is waiting for,
 * before anything is stored or run. Returns the first problem as a typed error, or `undefined` when
 * every response answers something pending (or the message has none). The session's records are the
 * authority: an answer's own claims (its echoed original call) are only compared with them.
 */
export function checkFunctionResponses(events: readonly EventData[], message: Content): ToolsmithError | undefined {
  const parts = Array.isArray(message.parts) ? message.parts : [];
  if (!parts.some((part) => isRecord(part) && part.functionResponse !== undefined)) return undefined;
  const pending = findPendingCalls(events);
  const seen = new Set<string>();
  for (const part of parts) {
    if (!isRecord(part) || part.functionResponse === undefined) continue;
    const response: unknown = part.functionResponse;
    if (!isRecord(response) || typeof response.id !== 'string') return new InvalidFunctionResponseError(undefined, 'it has no string "id"');
    const id = response.id;
    if (seen.has(id)) return new FunctionResponseNotPendingError(id, 'answered'); // the same id twice in one message
    seen.add(id);
    const problem = pending.confirmations.has(id) ? checkAnswer(pending, id, response) : checkUpdate(pending, id, response);
    if (problem) return problem;
  }
  return undefined;
}

function checkAnswer(pending: PendingCalls, id: string, response: Record<string, unknown>): ToolsmithError | undefined {
  const auth = pending.confirmations.get(id)!.auth;
  const others = otherMembers(response, ANSWER_MEMBERS);
  if (others) {
    const problem = `it has ${others}, which an answer does not carry (only "id", "name" and "response")`;
    return auth ? new InvalidCredentialAnswerError(id, problem) : new InvalidConfirmationAnswerError(id, problem);
  }
  if (!auth) return checkConfirmationAnswer(pending, id, response);
  if (response.name !== REQUEST_CREDENTIAL) return new InvalidCredentialAnswerError(id, `it must be named "${REQUEST_CREDENTIAL}"`);
  const answer = readCredentialAnswer(id, auth, response.response);
  return 'kind' in answer ? undefined : answer;
}

function checkConfirmationAnswer(pending: PendingCalls, id: string, response: Record<string, unknown>): ToolsmithError | undefined {
  const record = pending.confirmations.get(id)!;
  if (response.name !== REQUEST_CONFIRMATION) return new InvalidConfirmationAnswerError(id, `it must be named "${REQUEST_CONFIRMATION}"`);
  const answer = response.response;
  const decision = readConfirmationDecision(id, answer);
  if (decision instanceof InvalidConfirmationAnswerError) return decision;
  if (!isRecord(answer)) return undefined; // read above: always an object
  if (decision.remember && record.askedBy === 'tool') {
    return new InvalidConfirmationAnswerError(id, REMEMBER_NOT_APPLICABLE);
  }
  if (record.update && decision.decision === 'edit') {
    return new InvalidConfirmationAnswerError(id, 'an update\'s question cannot be answered with "edit": the call already ran; approve, reject or respond');
  }
  if (record.prompt.editable === false && decision.decision === 'edit') {
    return new InvalidConfirmationAnswerError(id, 'this request cannot be answered with "edit" ("editable": false): its question is about the call as it was made; approve, reject or respond');
  }
  const form = record.prompt.payloadSchema;
  if (form && (decision.decision === 'approve' || decision.decision === 'edit')) {
    const problem = formProblem(form, decision.payload);
    if (problem) return new InvalidConfirmationAnswerError(id, problem);
  }
  // null, as JSON clients write an absent field, is no copy of the call (as in readConfirmationDecision).
  if (answer.originalFunctionCall !== undefined && answer.originalFunctionCall !== null) {
    let claimed: FunctionCall;
    try {
      claimed = originalCallFrom({ name: REQUEST_CONFIRMATION, args: { originalFunctionCall: answer.originalFunctionCall } });
    } catch {
      return new ConfirmationMismatchError(id, record.originalFunctionCall);
    }
    if (!sameCall(claimed, record.originalFunctionCall)) return new ConfirmationMismatchError(id, record.originalFunctionCall);
  }
  return undefined;
}

function checkUpdate(pending: PendingCalls, id: string, response: Record<string, unknown>): ToolsmithError | undefined {
  const record = pending.longRunning.get(id);
  if (!record) return new FunctionResponseNotPendingError(id, pending.answered.has(id) ? 'answered' : 'unknown');
  const others = otherMembers(response, UPDATE_MEMBERS);
  if (others) return new InvalidFunctionResponseError(id, `it has ${others}, which a client's update does not carry (only "id", "name", "response", "willContinue", "question" and "parts")`);
  if (response.name !== record.name) {
    return new InvalidFunctionResponseError(id, `it names tool "${String(response.name)}" but the pending call is to "${record.name}"`);
  }
  if (!isRecord(response.response)) return new InvalidFunctionResponseError(id, '"response" must be a JSON object');
  // null, as JSON clients write an absent field, is absent (as in otherMembers and readConfirmationDecision).
  if (response.willContinue != null && typeof response.willContinue !== 'boolean') {
    return new InvalidFunctionResponseError(id, '"willContinue" must be true or false');
  }
  if (response.question != null) {
    const problem = longRunningQuestionProblem(response.question, response.willContinue);
    if (problem) return new InvalidFunctionResponseError(id, problem);
  }
  return undefined;
}

/**
 * The members a client's long-running update may carry (docs/long-running.md): the rest of a function
 * response (`isError`, `confirmation`, `policy`, `innerCalls`, `argumentRepairs`) is the runner's record of
 * what it did, and a client's copy of it would be stored, shown to the model and read as an audit.
 */
const UPDATE_MEMBERS: ReadonlySet<string> = new Set(['id', 'name', 'response', 'willContinue', 'question', 'parts']);

/** The members an answer to a confirmation or credential request may carry: its decision is all in `response`. */
const ANSWER_MEMBERS: ReadonlySet<string> = new Set(['id', 'name', 'response']);

/**
 * The members of `response` outside `allowed`, each named (`"isError" and "foo"`), or `undefined`; a member
 * left `undefined` is absent, as JSON leaves it out, and so is one that is `null`, as JSON clients write an
 * absent field (every reader of a stored response reads `null` as absent).
 */
function otherMembers(response: Record<string, unknown>, allowed: ReadonlySet<string>): string | undefined {
  let others: string[] | undefined;
  for (const key of Object.keys(response)) {
    if (!allowed.has(key) && response[key] != null) (others ??= []).push(JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key));
  }
  if (!others) return undefined;
  if (others.length === 1) return `a member ${others[0]}`;
  // Named up to ten: a message of a thousand keys is refused in a readable line.
  const named = others.length > 10 ? [...others.slice(0, 10), `${others.length - 10} more`] : others;
  return `members ${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
}

/** Why an approving answer's payload does not fill in the request's form, or `undefined` when it does. */
function formProblem(form: JsonSchema, payload: unknown): string | undefined {
  if (payload === undefined) return 'the request is a form: its "payload" must be the filled-in form (see the request\'s "payloadSchema")';
  let validate;
  try {
    validate = validatorFor(form);
  } catch {
    return 'the request\'s "payloadSchema" is not a usable JSON Schema, so no answer can fill it in';
  }
  if (validate(payload)) return undefined;
  const problems = toArgumentProblems(validate.errors, payload).map((problem) => problem.message);
  return `its "payload" does not fill in the request's form (${problems.join('; ')})`;
}

/** Same id, same tool, deep-equal arguments (JSON text and objects compared by value). */
function sameCall(a: FunctionCall, b: FunctionCall): boolean {
  return a.id === b.id && a.name === b.name && deepEqual(argsValue(a.args), argsValue(b.args));
}

function argsValue(args: FunctionCall['args']): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  const bRecord = b as Record<string, unknown>;
  return aKeys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && deepEqual((a as Record<string, unknown>)[key], bRecord[key]));
}
