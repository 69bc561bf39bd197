import { InvalidConfirmationAnswerError } from '../errors/invalid-confirmation-answer-error';
import type { JsonSchema } from '../model/json-schema';
import type { GrantScope } from './grant-service';
import { conditionProblem, expiresAtProblem } from './grant-problem';
import { isRecord } from './request-confirmation';

/** The four things a person can decide on a confirmation request. */
export type ConfirmationDecisionKind = 'approve' | 'edit' | 'reject' | 'respond';

/**
 * A confirmation answer as the runner reads it (see {@link readConfirmationDecision}): what the person
 * decided, and what comes with the decision.
 */
export interface ConfirmationDecision {
  /** `approve` runs the call; `edit` runs it with `args`; `reject` answers it with `TOOL_CALL_REJECTED`; `respond` answers it with `result`. */
  decision: ConfirmationDecisionKind;
  /** With `edit`: the arguments the call runs with instead of the model's. */
  args?: Record<string, unknown>;
  /** With `reject`: the person's words, which the model receives in the rejection. */
  message?: string;
  /** With `respond`: the person's answer, which becomes the tool's result (the tool does not run). */
  result?: unknown;
  /** Data for the tool, as `ctx.toolConfirmation.payload` when it runs. */
  payload?: unknown;
  /** With `approve`: also allow later calls of this tool without asking (a remembered grant). */
  remember?: RememberGrant;
}

/** "Always allow": the grant an approval asks the runner to remember (see `GrantService`). */
export interface RememberGrant {
  /** Who it covers: this session, this user, or the whole app. */
  scope: GrantScope;
  /** When it stops matching: a whole number of ms since the epoch, in the future (else the answer is refused); absent: never. */
  expiresAt?: number;
  /** A JSON Schema later calls' arguments must match to be covered; absent: any arguments. */
  condition?: JsonSchema;
}

const KINDS: readonly string[] = ['approve', 'edit', 'reject', 'respond'];
/**
 * The only `confirmed` each decision may carry (none: an edit takes no `confirmed`). A reader of the
 * yes/no form must never run the model's own call for an edit or a response, so neither may say `true`.
 */
const CONFIRMED: Record<ConfirmationDecisionKind, boolean | undefined> = { approve: true, edit: undefined, reject: false, respond: false };

/**
 * Reads the response object of a confirmation answer: `{ decision, args?, message?, result?, payload? }`,
 * or the older `{ confirmed: boolean, payload? }` (`true` approves, `false` rejects). Returns the error
 * that refuses it when it is neither, or when its fields do not fit its decision (`args` only with
 * `edit`, `message` only with `reject`, `result` only with `respond`, a `confirmed` that contradicts the
 * decision, a `remember` that is not `{ scope, expiresAt?, condition? }` or goes with another decision than
 * `approve`). Nothing here knows the tool: edited arguments are checked against its schema separately.
 *
 * A field that is `null` where `null` can mean nothing else is read as absent, as JSON clients and
 * pydantic dumps write absent fields: `decision`, `confirmed`, `args`, `message`, `remember` (and its
 * `expiresAt` and `condition`), and `result` beside any decision but `respond`. `result` with `respond`
 * is the person's answer, `null` included, and `payload` is data for the tool: their `null` is kept.
 */
export function readConfirmationDecision(requestId: string, answer: unknown): ConfirmationDecision | InvalidConfirmationAnswerError {
  const refuse = (problem: string) => new InvalidConfirmationAnswerError(requestId, problem);
  if (!isRecord(answer)) return refuse('its response must be an object like { "decision": "approve" } or { "confirmed": true }');
  const decision = absentIfNull(answer.decision);
  const confirmed = absentIfNull(answer.confirmed);
  let kind: ConfirmationDecisionKind;
  if (decision === undefined) {
    if (typeof confirmed !== 'boolean') return refuse(`"confirmed" must be true or false, got ${JSON.stringify(confirmed) ?? 'nothing'}`);
    kind = confirmed ? 'approve' : 'reject';
  } else {
    if (typeof decision !== 'string' || !KINDS.includes(decision)) {
      return refuse(`"decision" must be "approve", "edit", "reject" or "respond", got ${JSON.stringify(decision)}`);
    }
    kind = decision as ConfirmationDecisionKind;
    if (confirmed !== undefined && confirmed !== CONFIRMED[kind]) return refuse(`"confirmed": ${JSON.stringify(confirmed)} contradicts "decision": "${kind}"`);
  }
  const read: ConfirmationDecision = { decision: kind };
  const args = absentIfNull(answer.args);
  if (args !== undefined || kind === 'edit') {
    if (kind !== 'edit') return refuse('"args" goes only with "decision": "edit"');
    if (!isRecord(args)) return refuse('"args" (the edited arguments) must be a JSON object');
    read.args = args;
  }
  const message = absentIfNull(answer.message);
  if (message !== undefined) {
    if (kind !== 'reject') return refuse('"message" goes only with "decision": "reject"');
    if (typeof message !== 'string') return refuse('"message" must be a string');
    read.message = message;
  }
  // With "respond", null is the person's answer; beside any other decision, it is an absent result.
  const result = kind === 'respond' ? answer.result : absentIfNull(answer.result);
  if (result !== undefined || kind === 'respond') {
    if (kind !== 'respond') return refuse('"result" goes only with "decision": "respond"');
    if (result === undefined) return refuse('"result" (the answer that stands in for the tool\'s result) is missing');
    read.result = result;
  }
  if (answer.payload !== undefined) read.payload = answer.payload;
  const rememberGiven = absentIfNull(answer.remember);
  if (rememberGiven !== undefined) {
    if (kind !== 'approve') return refuse('"remember" goes only with "decision": "approve"');
    const remember = readRemember(rememberGiven, Date.now());
    if (typeof remember === 'string') return refuse(remember);
    read.remember = remember;
  }
  return read;
}

/** `value`, or `undefined` for `null`: a field JSON clients write as `null` when it is absent. */
function absentIfNull(value: unknown): unknown {
  return value === null ? undefined : value;
}

function readRemember(value: unknown, now: number): RememberGrant | string {
  if (!isRecord(value)) return '"remember" must be an object like { "scope": "session" }';
  const { scope } = value;
  const expiresAt = absentIfNull(value.expiresAt);
  const condition = absentIfNull(value.condition);
  if (scope !== 'session' && scope !== 'user' && scope !== 'app') return `"remember.scope" must be "session", "user" or "app", got ${JSON.stringify(scope) ?? 'nothing'}`;
  const remember: RememberGrant = { scope };
  if (expiresAt !== undefined) {
    const problem = expiresAtProblem(expiresAt);
    if (problem) return `"remember.${problem.slice(1)}`;
    if ((expiresAt as number) <= now) return `"remember.expiresAt" must be in the future (it is ${String(expiresAt)}, now is ${now})`;
    remember.expiresAt = expiresAt as number;
  }
  if (condition !== undefined) {
    const problem = conditionProblem(condition);
    if (problem) return `"remember.${problem.slice(1)}`;
    remember.condition = condition as JsonSchema;
  }
  return remember;
}
