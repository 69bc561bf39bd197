// The JSON the dev server's HTTP API speaks (docs/devtools.md). Shared by the server and the page, so
// it imports nothing: the page is built for the browser, without Node or core's classes. Events and
// sessions are core's own JSON forms (`EventData`, `SessionData`), spelled out here for the browser.

/** One part of a message: text, a function call or a function response (other kinds pass through). */
export interface WirePart {
  /** Answer text (or reasoning, with `thought`). */
  text?: string;
  /** True for the model's reasoning, not part of its answer. */
  thought?: boolean;
  /** A tool call the model made (`args` as text when it was not valid JSON). */
  functionCall?: { id: string; name: string; args: Record<string, unknown> | string };
  /** A tool's response to a call of the same `id`. */
  functionResponse?: {
    id: string;
    name: string;
    response: Record<string, unknown>;
    isError?: boolean;
    willContinue?: boolean;
    /** How a confirmation settled the call, when more than a plain yes or no did (an edit, a message, a response, a grant). */
    confirmation?: WireCallConfirmation;
    /** What the confirmation policy decided on the call: core's `ConfirmationPolicyVerdict`. */
    policy?: WirePolicyVerdict;
    /** On an agent tool's response: the calls inside it a confirmation settled or the policy judged (core's `InnerCallRecord`). */
    innerCalls?: WireInnerCall[];
  };
}

/** What the confirmation policy decided on a call: core's `ConfirmationPolicyVerdict`. */
export interface WirePolicyVerdict {
  /** `enforce` (acted on) or `shadow` (only recorded). */
  mode: 'enforce' | 'shadow';
  /** `allow`, `deny`, `ask` or `none`. */
  decision: 'allow' | 'deny' | 'ask' | 'none';
  /** The policy's reason, when it gave one. */
  reason?: string;
  /** The policy failed: `CONFIRMATION_POLICY_FAILED` and its message. */
  error?: { code: string; message: string };
}

/** A call inside an agent tool that a confirmation settled or the policy judged: core's `InnerCallRecord`. */
export interface WireInnerCall {
  /** The inner agent whose model made the call. */
  agent: string;
  /** The call's id and tool. */
  call: { id: string; name: string };
  /** How its confirmation was settled. */
  confirmation?: WireCallConfirmation;
  /** What the policy decided on it. */
  policy?: WirePolicyVerdict;
}

/** How a person (or a remembered grant) settled a call that needed confirmation: core's `CallConfirmation`. */
export interface WireCallConfirmation {
  /** `approve`, `edit`, `reject` or `respond`. */
  decision: WireDecision;
  /** `user` when a person answered, `grant` when a remembered grant let the call run without asking, `policy` when the confirmation policy decided. */
  by: 'user' | 'grant' | 'policy';
  /** With `edit`: the arguments the call ran with. */
  args?: Record<string, unknown>;
  /** With `reject`: the person's message. */
  message?: string;
  /** The grant the call ran on, or the one the approval created. */
  grantId?: string;
}

/** The four decisions a person can take on a confirmation request. */
export type WireDecision = 'approve' | 'edit' | 'reject' | 'respond';

/** A message: core's `Content`. */
export interface WireContent {
  /** `user` or `model`. */
  role: string;
  /** The message's parts, in order. */
  parts: WirePart[];
}

/** An event as stored and streamed: core's `EventData` (`Event.toJSON()`). */
export interface WireEvent {
  /** The event's id, unique in its session. */
  id: string;
  /** The run (invocation) the event belongs to. */
  invocationId: string;
  /** `user`, or the name of the agent that wrote it. */
  author: string;
  /** The agent path of a sub-agent's event, e.g. `root.researcher`. */
  branch?: string;
  /** The message, when the event carries one. */
  content?: WireContent;
  /** What the event changes: `stateDelta` and the other actions core records. */
  actions: { stateDelta: Record<string, unknown>; [action: string]: unknown };
  /** Ids of the calls in this event that are long-running. */
  longRunningToolIds?: string[];
  /** True for a streamed fragment; the complete event follows. */
  partial?: boolean;
  /** True on the event that ends the model's turn. */
  turnComplete?: boolean;
  /** The error code, on an error event. */
  errorCode?: string;
  /** What went wrong, for people; set with `errorCode`. */
  errorMessage?: string;
  /** The error's structured details (core's `errorDetails`: plain JSON, secrets redacted), when it has any. */
  errorDetails?: unknown;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

/** A confirmation request the session waits for (from core's `findPendingCalls`). */
export interface WirePendingConfirmation {
  /** The id to answer (`POST /api/sessions/:id/confirmations/:requestId`). */
  requestId: string;
  /** The call waiting for the answer. */
  originalFunctionCall: { id: string; name: string; args: Record<string, unknown> | string };
  /** The question for the user. */
  hint?: string;
  /** Data the tool attached to the request. */
  payload?: unknown;
  /** The agent whose tool asked. */
  agentName: string;
  /**
   * Set when an agent used as a tool (`AgentTool`) relays its inner agent's request: that agent and its
   * waiting call, which is what the decision applies to (an edit gives this call's arguments).
   */
  relayed?: { agent: string; call: { id: string; name: string; args: Record<string, unknown> | string } };
  /**
   * Who asked: `runner` (the tool's `requireConfirmation` rule or the confirmation policy), where "always
   * allow" applies, or `tool` (`ctx.requestConfirmation`), where it does not (an answer with `remember` is
   * refused, and the dev UI and `toolsmith run` do not offer it). Absent on older requests.
   */
  askedBy?: 'runner' | 'tool';
  /**
   * `false` when the request cannot be answered with `edit` (core's `editable: false`: the tool asked about
   * the call as it was made, e.g. an MCP server's form): an edit is refused with `INVALID_CONFIRMATION_ANSWER`
   * and the request stays open; the dev UI and `toolsmith run` do not offer it. Absent when an edit is taken.
   */
  editable?: false;
  /** The form the answer's `payload` must fill in (a JSON Schema), when the request is a form. */
  payloadSchema?: Record<string, unknown>;
  /**
   * Set when the request is a question a long-running call's update asked (see docs/long-running.md): that
   * update. The answer runs the tool again; `edit` is refused, and so is `remember` (`askedBy` is `tool`).
   */
  update?: { response: Record<string, unknown>; willContinue: boolean };
}

/** A long-running call whose final response has not arrived. */
export interface WirePendingLongRunning {
  /** The call id to send updates for (`POST /api/sessions/:id/long-running/:callId`). */
  id: string;
  /** The tool's name. */
  name: string;
  /** The agent that called it. */
  agentName: string;
}

/** What a session waits for. */
export interface WirePending {
  /** Confirmation requests not yet answered. */
  confirmations: WirePendingConfirmation[];
  /** Long-running calls without a final response. */
  longRunning: WirePendingLongRunning[];
}

/** `GET /api/sessions` item: a session without its events. */
export interface SessionSummary {
  /** The session id. */
  id: string;
  /** The first user message's text (up to 80 characters), when there is one. */
  title?: string;
  /** Milliseconds since the epoch of the last event. */
  lastUpdateTime: number;
  /** The session's state. */
  state: Record<string, unknown>;
}

/** `GET /api/sessions/:id`: the whole session and what it waits for. */
export interface SessionDetail {
  /** The session id. */
  id: string;
  /** The user the session belongs to. */
  userId: string;
  /** The session's state. */
  state: Record<string, unknown>;
  /** Every event, oldest first. */
  events: WireEvent[];
  /** Milliseconds since the epoch of the last event. */
  lastUpdateTime: number;
  /** What the session waits for. */
  pending: WirePending;
}

/** Where sessions are kept: the embedded durable store, memory, or the store of an exported Runner. */
export interface SessionStoreInfo {
  /** `embedded` (PGlite), `memory`, or `runner` (the store of an exported Runner). */
  kind: 'embedded' | 'memory' | 'runner';
  /** A sentence for people, e.g. `embedded PostgreSQL (PGlite) in /app/.toolsmith/sessions`. */
  description: string;
  /** True when sessions survive a restart of the dev server. */
  durable: boolean;
}

/** `GET /api/info`. */
export interface AppInfo {
  /** The Runner's app name. */
  appName: string;
  /** The root agent's name. */
  agentName: string;
  /** The user every session of the dev server belongs to. */
  userId: string;
  /** `provider/model` of the root agent, when it is an LLM agent. */
  model?: string;
  /** Where sessions are kept. */
  store: SessionStoreInfo;
  /** True when approvals can be remembered ("always allow"): the runner has a grant service (`GET /api/grants`). */
  grants: boolean;
  /** True when runs are recorded for the inspector (`GET /api/sessions/:id/inspector`): the dev tools built the runner. */
  inspector: boolean;
}

/** One OpenTelemetry span the runner emitted, as the inspector keeps it. */
export interface WireSpan {
  /** The trace: one per invocation (a run, or the answer that resumed it). */
  traceId: string;
  /** The span's id. */
  spanId: string;
  /** The enclosing span, when there is one. */
  parentSpanId?: string;
  /** `toolsmith.invocation`, `invoke_agent <agent>`, `chat <model>` or `execute_tool <tool>`. */
  name: string;
  /** Milliseconds since the epoch. */
  startTime: number;
  /** How long it took, in milliseconds. */
  durationMs: number;
  /** `error` when the operation failed. */
  status: 'ok' | 'error' | 'unset';
  /** What failed, on an error span. */
  statusMessage?: string;
  /** The span's attributes (docs/observability.md), without any whose name suggests a secret. */
  attributes: Record<string, unknown>;
  /** The span's events (a `chat` span's `toolsmith.provider.attempt` events), oldest first, when it has any. */
  events?: WireSpanEvent[];
}

/** One event of a span. */
export interface WireSpanEvent {
  /** E.g. `toolsmith.provider.attempt`. */
  name: string;
  /** Milliseconds since the epoch. */
  time: number;
  /** Its attributes, without any whose name suggests a secret. */
  attributes: Record<string, unknown>;
}

/** One attempt the model's adapter made for a model call (retries included), from its `chat` span's events. */
export interface WireModelAttempt {
  /** 1 for the first attempt, 2 for the first retry… */
  attempt: number;
  /** Until the answer (or the open stream), or the failure, in milliseconds. */
  latencyMs: number;
  /** The request body as the adapter sent it to the provider's SDK. */
  body?: unknown;
  /** The error code of a failed attempt. */
  error?: string;
  /** Its message. */
  errorMessage?: string;
}

/** One model call, from its `chat` span. */
export interface WireModelCall {
  /** The `chat` span. */
  spanId: string;
  /** Its trace (invocation). */
  traceId: string;
  /** The model asked. */
  model: string;
  /** The provider, as OpenTelemetry names it. */
  provider: string;
  /** Milliseconds since the epoch. */
  startTime: number;
  /** From the request to the complete response, in milliseconds. */
  latencyMs: number;
  /** Tokens the provider reported: input (of which cached), output (of which reasoning). */
  tokens: { input?: number; cached?: number; output?: number; reasoning?: number };
  /** The provider's finish reasons. */
  finishReasons?: string[];
  /** What the runner sent the model's adapter: the system instructions and the messages (GenAI message format). */
  request: { systemInstructions?: unknown; messages?: unknown };
  /** What came back (GenAI message format). */
  response?: unknown;
  /** The error code of a failed call. */
  error?: string;
  /** Each attempt the adapter made, oldest first: the body it sent the provider, latency, error. Empty for a model that reports none (`ScriptedModel`). */
  attempts: WireModelAttempt[];
}

/** `GET /api/sessions/:id/inspector`: the session's runs as spans and model calls, oldest first. */
export interface WireInspection {
  /** Every span of the session's invocations. */
  spans: WireSpan[];
  /** Every model call. */
  modelCalls: WireModelCall[];
}

/** `GET /api/tools` item. */
export interface ToolInfo {
  /** The name the model calls it by. */
  name: string;
  /** What the tool does, as the model reads it. */
  description: string;
  /** The tool's canonical JSON Schema for its arguments. */
  parameters: Record<string, unknown>;
  /** The schema of its result, when it declares one. */
  responseSchema?: Record<string, unknown>;
  /** True for a long-running tool. */
  isLongRunning: boolean;
  /** True when some calls need a confirmation (`requireConfirmation` is set). */
  requiresConfirmation: boolean;
  /** The agents that offer it. */
  agents: string[];
}

/** `POST /api/tools/:name/run` body. */
export interface ToolRunRequest {
  /** The arguments, as an object or as the raw JSON text a model would send. */
  args: Record<string, unknown> | string;
  /** Run with this session's state (read only: the call's state delta is reported, not stored). */
  sessionId?: string;
  /** Run as if the user approved a confirmation (`ctx.toolConfirmation`), with this payload. */
  confirmation?: { confirmed: boolean; payload?: unknown };
}

/** `POST /api/tools/:name/run` response: what the model would get, and what the call did. */
export interface ToolRunResult {
  /** The function response the model would get. */
  response: Record<string, unknown>;
  /** True when the call failed. */
  isError: boolean;
  /** The error code when the call failed (`INVALID_ARGUMENTS`, `TOOL_NOT_FOUND`, …). */
  errorCode?: string;
  /** The state changes the call made (not stored). */
  stateDelta: Record<string, unknown>;
  /** The call did not run: it needs a confirmation (send `confirmation` to run it as approved). */
  confirmationRequested: boolean;
  /** How long the call took, in milliseconds. */
  durationMs: number;
}

/**
 * `POST /api/sessions/:id/confirmations/:requestId` body: one of the four decisions (core's
 * `ConfirmationAnswer`), or the older `{ confirmed, payload? }`.
 */
export interface ConfirmationAnswerRequest {
  /** `approve`, `edit` (with `args`), `reject` (with an optional `message`) or `respond` (with `result`). */
  decision?: WireDecision;
  /** The yes/no form, without `decision`: `true` approves, `false` rejects. */
  confirmed?: boolean;
  /** With `edit`: the arguments to run the call with, checked against the tool's schema. */
  args?: Record<string, unknown>;
  /** With `reject`: what the model is told the person said. */
  message?: string;
  /** With `respond`: the person's answer, which becomes the call's result (the tool does not run). */
  result?: unknown;
  /** Data sent back with the answer, for the tool (`ctx.toolConfirmation.payload`). */
  payload?: unknown;
  /** With `approve`: "always allow" later calls of the tool, for this session, this user or the whole app, until `expiresAt` (ms since the epoch). */
  remember?: { scope: WireGrantScope; expiresAt?: number; condition?: Record<string, unknown> };
  /**
   * Optional: the call the answer decides on, as the request gave it (`pending.confirmations[].originalFunctionCall`).
   * When given, it must be the pending call (same id, tool name and arguments, JSON text compared by value), or
   * the answer is refused with `CONFIRMATION_MISMATCH`.
   */
  originalFunctionCall?: unknown;
}

/** Who a remembered grant covers. */
export type WireGrantScope = 'session' | 'user' | 'app';

/** `GET /api/grants` item: a remembered "always allow" (core's `ConfirmationGrant`). */
export interface WireGrant {
  /** The grant's id (`DELETE /api/grants/:id` revokes it). */
  id: string;
  /** The app it belongs to. */
  appName: string;
  /** `session`, `user` or `app`. */
  scope: WireGrantScope;
  /** The user, for `user` and `session` grants. */
  userId?: string;
  /** The session, for `session` grants. */
  sessionId?: string;
  /** The tool it allows. */
  toolName: string;
  /** The hash of the tool's parameter schema when granted: a tool whose parameters changed asks again. */
  schemaHash: string;
  /** A JSON Schema the arguments must match; absent: any arguments. */
  condition?: Record<string, unknown>;
  /** When it was granted (ms since the epoch). */
  createdAt: number;
  /** When it stops matching (ms since the epoch); absent: never. */
  expiresAt?: number;
}

/** `POST /api/sessions/:id/long-running/:callId` body. */
export interface LongRunningUpdateRequest {
  /** The call's (intermediate or final) response. */
  response: Record<string, unknown>;
  /** True for an intermediate update: the call stays pending. */
  willContinue?: boolean;
  /**
   * With `willContinue: true`: a question for the person (`{ hint?, payload?, payloadSchema? }`); the run
   * pauses on a confirmation request for the call (`askedBy: "tool"`), and the answer runs the tool again.
   */
  question?: { hint?: string; payload?: unknown; payloadSchema?: Record<string, unknown> };
}

/** `POST /api/sessions/:id/run` body: text, or a whole message (e.g. several function responses). */
export type RunRequest = { text: string } | { message: WireContent };

/** The last SSE message of a run (`event: end`): what the session waits for now. */
export interface RunEnd {
  /** What the session waits for now. */
  pending: WirePending;
}

/** An API error body (any 4xx/5xx, and an SSE `event: error`). */
export interface ApiErrorBody {
  /** A stable code and a message for people. */
  error: { code: string; message: string };
}

/** `GET /api/evals`: the eval set file the dev server saves cases to and runs. */
export interface EvalsInfo {
  /** The file's absolute path (`--evals`, default `evals/dev.evals.json` in the project). */
  file: string;
  /** The set in it; absent while the file does not exist. */
  set?: {
    /** The set's id. */
    id: string;
    /** Its name, when it has one. */
    name?: string;
    /** Its cases: id and number of turns. */
    cases: Array<{ id: string; turns: number }>;
  };
}

/** `POST /api/sessions/:id/eval-case`: the case's id; default the session's id. */
export interface SaveEvalCaseRequest {
  /** The case's id; default the session's id. A case of that id in the file is replaced. */
  caseId?: string;
}

/** The answer to `POST /api/sessions/:id/eval-case`. */
export interface EvalCaseSaved {
  /** The file written. */
  file: string;
  /** The set's id. */
  setId: string;
  /** The case's id. */
  caseId: string;
  /** A case of that id was there and is replaced. */
  replaced: boolean;
  /** How many turns the case has. */
  turns: number;
  /** The arguments left out because they look like secrets, as `turn N: tool.argument`. */
  withheld: string[];
}

/** `POST /api/evals/run`: which cases to run; default all. */
export interface RunEvalsRequest {
  /** The ids of the cases to run; default every case. */
  caseIds?: string[];
}

/** One line of a trajectory diff (`@toolsmith/evals`' `TrajectoryDiffLine`). */
export interface WireTrajectoryDiffLine {
  /** What the line says: a `match`, a `mismatch`, an expected call `missing` or `notCalled`, a call made `unexpected` or `extra`. */
  kind: 'match' | 'mismatch' | 'missing' | 'unexpected' | 'extra' | 'notCalled';
  /** The expected call, as the report writes it. */
  expected?: string;
  /** The call made, as the report writes it. */
  actual?: string;
  /** Why a `mismatch` does not match. */
  problems?: string[];
}

/** One turn of one run of an eval case (`@toolsmith/evals`' `TurnReport`). */
export interface WireEvalTurn {
  /** The turn's position in the case, from 0. */
  index: number;
  /** The user's message as text. */
  user: string;
  /** Every check passed, and the run neither failed nor paused. */
  pass: boolean;
  /** The tool calls the turn made, in order. */
  calls: Array<{ name: string; args: Record<string, unknown> | string; agent: string }>;
  /** The turn's final answer text. */
  answer?: string;
  /** The structured output of the final answer. */
  output?: unknown;
  /** The trajectory check and its diff; absent when the turn expects no calls. */
  trajectory?: { pass: boolean; match: string; diff: WireTrajectoryDiffLine[] };
  /** The answer check; absent when the turn expects no answer. */
  answerCheck?: { pass: boolean; expected: string; detail?: string };
  /** The run's error, when the turn ended with one. */
  error?: { code: string; message: string };
  /** The calls the run paused on (an eval turn cannot answer them). */
  pausedOn?: string[];
}

/** The answer to `POST /api/evals/run`: `@toolsmith/evals`' `EvalReport`, and the file it ran. */
export interface WireEvalReport {
  /** The eval set file run. */
  file: string;
  /** The set's id. */
  setId: string;
  /** The set's name, when it has one. */
  name?: string;
  /** Every case run passed. */
  pass: boolean;
  /** How many cases passed. */
  passedCases: number;
  /** Each case: its runs (each with its turns) and whether enough of them passed its threshold. */
  cases: Array<{
    id: string;
    pass: boolean;
    runs: number;
    passedRuns: number;
    threshold: number;
    results: Array<{ run: number; pass: boolean; sessionId: string; turns: WireEvalTurn[] }>;
  }>;
}
