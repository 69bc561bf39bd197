import type { CredentialRequestRecord } from '../auth/request-credential';
import type { ConfirmationPolicyVerdict } from '../confirmation/confirmation-policy';
import type { ConfirmationDecisionKind, RememberGrant } from '../confirmation/confirmation-decision';
import type { FunctionCall } from '../model/content';
import type { EventCompaction } from '../context/event-compaction';
import type { JsonSchema } from '../model/json-schema';
import type { StateOp } from './state-ops';

/** A confirmation asked of the user for one function call, or the user's answer to it. */
export interface ToolConfirmation {
  /** Shown to the user: what is being approved. */
  hint?: string;
  /** Set by the client's answer; `false` while pending. */
  confirmed: boolean;
  /** Structured data for the client (request) or from it (answer). */
  payload?: unknown;
  /** The request's form: the JSON Schema an approving answer's `payload` must match (see `ConfirmationPrompt.payloadSchema`). */
  payloadSchema?: JsonSchema;
  /** On a request: `false` when it cannot be answered with `edit` (see `ConfirmationPrompt.editable`). */
  editable?: boolean;
  /** Set when the call runs again after answering a form (a request with `payloadSchema`): what the request asked (its hint, payload and form). */
  request?: { hint?: string; payload?: unknown; payloadSchema?: JsonSchema };
  /** With a rejection (`confirmed: false`): the person's message, which the model reads in the `TOOL_CALL_REJECTED` response. */
  message?: string;
  /**
   * Set when the pause asks for a credential (`ctx.requestCredential`) rather than a yes or no: the
   * runner then emits a `toolsmith_request_credential` call. Holds no secret (the PKCE verifier stays
   * in the credential service).
   */
  auth?: CredentialRequestRecord;
  /**
   * On a request: who asked. `runner`: the tool's `requireConfirmation` rule or the confirmation policy's
   * `ask`, which a remembered grant may answer ("always allow" applies). `tool`: the tool itself, with
   * `ctx.requestConfirmation`, which no grant answers (an answer with `remember` is refused). Absent on
   * requests stored before it was recorded.
   */
  askedBy?: 'runner' | 'tool';
  /** On a request: what the `confirmationPolicy` decided on the call (`ask`, or a shadow verdict), for audits. */
  policy?: ConfirmationPolicyVerdict;
  /**
   * On a request the tool made itself (`askedBy: 'tool'`) when it ran after the person approved the
   * confirmation policy's `ask` with `remember`: the grant that approval stored. The call's response names
   * it in its `confirmation` whatever the answer to this request, for audits.
   */
  grantId?: string;
  /**
   * On a request an `AgentTool` relays: the inner agent's waiting call, and the inner session saved at
   * the pause so the answer resumes the inner agent where it stopped (in any process). Written by the
   * runner only; what a client decides on.
   */
  relay?: RelayedConfirmation;
  /** When a relayed call runs again: the person's decision, passed on to the inner agent. */
  decision?: ConfirmationDecisionKind;
  /** With a relayed `edit`: the inner call's edited arguments. */
  args?: Record<string, unknown>;
  /** With a relayed `respond`: the answer given instead of the inner tool's result. */
  result?: unknown;
  /** With a relayed approval: the grant to remember for the inner tool. */
  remember?: RememberGrant;
  /**
   * On a question a long-running call's update asked (see `LongRunningQuestion`), and when the tool runs
   * again with the answer: that update.
   */
  update?: LongRunningUpdateAnswer;
}

/** The update of a long-running call that asked the person a question, as the tool sees it when run again with the answer. */
export interface LongRunningUpdateAnswer {
  /** The update's `response`, as the client sent it. */
  response: Record<string, unknown>;
  /**
   * True (the default): what the tool returns is an intermediate update and the call stays pending. The
   * tool sets it to `false` to make what it returns the call's final response. Any other value, or an
   * `update` object the tool replaced, ends the call with `UPDATE_CONTINUATION_INVALID`.
   */
  willContinue: boolean;
}

/** An `AgentTool`'s inner confirmation request, relayed to the outer run's client (see {@link ToolConfirmation.relay}). */
export interface RelayedConfirmation {
  /** The inner agent whose model made the waiting call (the agent tool's agent, a sub-agent it transferred to, or through agent tools nested in it, the innermost agent). */
  agent: string;
  /** The inner call that waits (the innermost one, through nested agent tools): its tool, and the arguments an `edit` replaces. */
  call: FunctionCall;
  /** The inner request's id, answered in the inner session when the outer request is. */
  requestId: string;
  /** The inner session's id. */
  sessionId: string;
  /** The inner session (`InMemorySessionService.toJSON()`) as it was at the pause. */
  sessions: unknown;
}

/**
 * What a tool or callback asks the runner to do besides answering. Plain JSON, stored on the event.
 */
export interface EventActions {
  /** State writes (a `null` value deletes the key). Applied by the session service with scope rules. */
  stateDelta: Record<string, unknown>;
  /**
   * Keys of `stateDelta` the session store updates against the value it holds inside the append
   * (`ctx.state.increment`, `ctx.state.compareAndSet`), by key. Absent when there are none.
   */
  stateOps?: Record<string, StateOp>;
  /** Artifacts saved in this step: filename → version. */
  artifactDelta: Record<string, number>;
  /** Hand the conversation to this agent (the current agent's parent, a sub-agent or a peer). */
  transferToAgent?: string;
  /** End the enclosing loop / return control to the parent agent. */
  escalate?: boolean;
  /** The tool's result ends the turn: no further model call summarizes it. */
  skipSummarization?: boolean;
  /** Confirmations requested by tools in this step: function call id → request. */
  requestedToolConfirmations?: Record<string, ToolConfirmation>;
  /**
   * Where the workflow agents (`SequentialAgent`, `LoopAgent`) around the pausing agent stood when this
   * event paused the invocation for a confirmation, by workflow agent name. Read back from the session
   * when the answer comes, so the workflow resumes there, in any process.
   */
  workflowPositions?: Record<string, WorkflowPosition>;
  /**
   * Set on a compaction event (no content): the summary that stands for the older events in what the
   * author agent's model is sent from now on (see docs/context.md). The stored events stay as they are.
   */
  compaction?: EventCompaction;
}

/** Where one workflow agent stood at a pause: the sub-agent running, and for a `LoopAgent` the round (from 0). */
export interface WorkflowPosition {
  /** Name of the sub-agent that was running. */
  subAgent: string;
  /** The loop's round, counted from 0 over the whole conversation (a `LoopAgent` only). */
  round?: number;
}

/**
 * Makes an empty plain object, as `{}` does (its prototype is `Object.prototype`, its `constructor` is
 * `Object`: nothing tells the two apart), but with no room reserved for members: a literal `{}` keeps
 * room for four inside the object (56 bytes where this takes 24), and an event's deltas are usually
 * left empty. A member written later is kept outside the object, as a literal's fifth would be.
 */
const EmptyObject = function EmptyObject() {} as unknown as new () => Record<string, never>;
EmptyObject.prototype = Object.prototype;

/** A fresh, empty {@link EventActions}. Every event gets one; its two deltas are made with no room reserved ({@link EmptyObject}). */
export function createEventActions(): EventActions {
  return { stateDelta: new EmptyObject(), artifactDelta: new EmptyObject() };
}
