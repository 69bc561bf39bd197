import type { Content, FunctionCall, FunctionResponse, Part } from '../model/content';
import type { FinishReason } from '../model/finish-reason';
import type { Usage } from '../model/llm-response';
import { type EventActions, createEventActions } from '../state/event-actions';
import { idSequence } from './event-id';

/** The plain-JSON form of an {@link Event}, as stored by session services. */
export interface EventData {
  /** Unique id of the event (`e-…`), generated when the event is created unless one is given. */
  id: string;
  /** The invocation the event belongs to: a user's message and every event run in answer to it share this id. */
  invocationId: string;
  /** `user`, or the name of the agent that produced the event. */
  author: string;
  /** Agent path (`root.child`) of the agent that produced it; isolates the history of parallel branches. */
  branch?: string;
  /** The message: the user's, the model's (text, function calls) or merged function responses; absent on the runner's error events. */
  content?: Content;
  /** What the event asks of the session and runner besides its content (state and artifact changes, transfer, …); applied when stored. */
  actions: EventActions;
  /**
   * Ids of calls the client is expected to answer later; the invocation pauses. Either calls to
   * long-running tools whose initial result this event carries, or this event's `toolsmith_request_confirmation` calls.
   */
  longRunningToolIds?: string[];
  /** A streaming fragment; never stored in the session. */
  partial?: boolean;
  /** `true` on a model event holding the model's complete response for the call; absent on partials and non-model events. */
  turnComplete?: boolean;
  /** Why the model stopped, on a model event when the provider said. */
  finishReason?: FinishReason;
  /** Token counts of the model call, on a model event when the provider reports them. */
  usage?: Usage;
  /**
   * Token counts of all model calls of the invocation so far, summed (see {@link Usage}): on every
   * complete event from the first model call that reported usage on, so the invocation's last event
   * carries its total. Absent on partial events and while no model call reported usage.
   */
  runUsage?: Usage;
  /** Set on error events (model failure, `MAX_LLM_CALLS_EXCEEDED`, `RUN_ABORTED`, …). */
  errorCode?: string;
  /** What went wrong, for people to read; set with `errorCode`. */
  errorMessage?: string;
  /**
   * The structured details of the error (its `ToolsmithError.details`, e.g. `{ limit, max, used }` of
   * `RUN_BUDGET_EXCEEDED`, the `problems` of a validation error), as plain JSON with secret-named
   * properties and secret-looking text redacted; set with `errorCode` when the error has details.
   */
  errorDetails?: unknown;
  /**
   * The final answer of an agent with an `outputSchema`, parsed and validated (plain JSON). Read it typed
   * with `agent.outputOf(event)`.
   */
  output?: unknown;
  /**
   * Plain-JSON facts about the event for tools around the runner, not for the model: e.g. the paused
   * invocation's trace context on a pause event (`toolsmith.traceparent`, see docs/observability.md).
   */
  customMetadata?: Record<string, unknown>;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

const NO_PARTS: readonly Part[] = [];
const newEventId = idSequence('e');

/** What {@link Event.create} needs; the rest gets defaults. */
export type EventInit = Omit<EventData, 'id' | 'actions' | 'timestamp'> & Partial<Pick<EventData, 'id' | 'actions' | 'timestamp'>>;

/**
 * One step of a conversation: a user message, a model response (text and/or function calls), merged
 * function responses, or an error. Events are plain data (see {@link Event.toJSON} and
 * {@link Event.fromJSON}) so sessions can be stored and resumed elsewhere.
 */
export class Event implements EventData {
  // `declare`: the constructor assigns every field itself, so class-field definitions would only do the work twice.
  /** Unique id of the event (`e-…`), generated unless given to {@link Event.create}. */
  declare id: string;
  /** The invocation the event belongs to: a user's message and every event run in answer to it share this id. */
  declare invocationId: string;
  /** `user`, or the name of the agent that produced the event. */
  declare author: string;
  /** Agent path (`root.child`) of the agent that produced it; isolates the history of parallel branches. */
  declare branch?: string;
  /** The message: the user's, the model's (text, function calls) or merged function responses; absent on the runner's error events. */
  declare content?: Content;
  /** What the event asks of the session and runner besides its content (state and artifact changes, transfer, …); applied when stored. */
  declare actions: EventActions;
  /** Ids of calls the client is expected to answer later (long-running tools, confirmation requests); the invocation pauses. */
  declare longRunningToolIds?: string[];
  /** A streaming fragment; never stored in the session. */
  declare partial?: boolean;
  /** `true` on a model event holding the model's complete response for the call; absent on partials and non-model events. */
  declare turnComplete?: boolean;
  /** Why the model stopped, on a model event when the provider said. */
  declare finishReason?: FinishReason;
  /** Token counts of the model call, on a model event when the provider reports them. */
  declare usage?: Usage;
  /** Token counts of all model calls of the invocation so far; the invocation's last event carries its total. */
  declare runUsage?: Usage;
  /** Set on error events (model failure, `MAX_LLM_CALLS_EXCEEDED`, `RUN_ABORTED`, …). */
  declare errorCode?: string;
  /** What went wrong, for people to read; set with `errorCode`. */
  declare errorMessage?: string;
  /** The error's structured details (plain JSON, secrets redacted); set with `errorCode` when the error has any. */
  declare errorDetails?: unknown;
  /** The validated final answer of an agent with an `outputSchema` (plain JSON); read it typed with `agent.outputOf(event)`. */
  declare output?: unknown;
  /** Plain-JSON facts about the event for tools around the runner, not for the model (e.g. a pause's trace context). */
  declare customMetadata?: Record<string, unknown>;
  /** Milliseconds since the epoch; the creation time unless given. */
  declare timestamp: number;

  private constructor(id: string, invocationId: string, author: string, branch: string | undefined, content: Content | undefined, actions: EventActions, timestamp: number) {
    // The fields every turn's events may carry are assigned, the rest as undefined, always in this
    // order: those events share one shape, which keeps the runner's reads of them fast. The fields only
    // some events have (a pause's, a partial's, an error's, an output's, metadata) are set on those
    // events alone: most events never carry them and need not hold them. `toJSON` leaves the undefined
    // ones out. The fields come as arguments, not read from an init object: the objects of the many
    // places that make events each have their own shape, and reading them here made every read megamorphic.
    this.id = id;
    this.invocationId = invocationId;
    this.author = author;
    this.branch = branch;
    this.content = content;
    this.actions = actions;
    this.turnComplete = undefined;
    this.finishReason = undefined;
    this.usage = undefined;
    this.runUsage = undefined;
    this.timestamp = timestamp;
  }

  /** Creates an event with a fresh id, empty actions and the current time unless given. */
  static create(init: EventInit): Event {
    return Event.from(init, init.actions ?? createEventActions());
  }

  /** An event of `init`'s fields with `actions`: the constructor's, then the rest set on the event (the rare ones only when given). */
  private static from(init: EventInit, actions: EventActions): Event {
    const event = new Event(init.id ?? newEventId(), init.invocationId, init.author, init.branch, init.content, actions, init.timestamp ?? Date.now());
    event.turnComplete = init.turnComplete;
    event.finishReason = init.finishReason;
    event.usage = init.usage;
    event.runUsage = init.runUsage;
    // The rare fields only when given: an event without them has the common shape.
    if (init.longRunningToolIds !== undefined) event.longRunningToolIds = init.longRunningToolIds;
    if (init.partial !== undefined) event.partial = init.partial;
    if (init.errorCode !== undefined) event.errorCode = init.errorCode;
    if (init.errorMessage !== undefined) event.errorMessage = init.errorMessage;
    if (init.errorDetails !== undefined) event.errorDetails = init.errorDetails;
    if (init.output !== undefined) event.output = init.output;
    if (init.customMetadata !== undefined) event.customMetadata = init.customMetadata;
    return event;
  }

  /**
   * @internal An event of the runner's own, with a fresh id and the current time: the caller sets the
   * other fields it has on the event itself. What {@link Event.create} does without an init object to
   * read (see the constructor), for the events every turn makes. `timestamp`: a time the caller read
   * already (the run's first message, stored in the step that created its session, has the session's).
   */
  static of(invocationId: string, author: string, branch: string | undefined, content: Content | undefined, actions: EventActions = createEventActions(), timestamp = Date.now()): Event {
    return new Event(newEventId(), invocationId, author, branch, content, actions, timestamp);
  }

  /** Restores an event from its JSON form (for example a stored session). */
  static fromJSON(data: EventData): Event {
    // Straight from the stored fields, with no copy of them first: a store restores every event of a session it loads.
    // (Data stored by earlier releases may lack either delta.)
    return Event.from(data, { stateDelta: {}, artifactDelta: {}, ...(data.actions as Partial<EventActions> | undefined) });
  }

  /** The function calls in this event's content, in order (a new array). */
  functionCalls(): FunctionCall[] {
    return membersOf(this.content?.parts ?? NO_PARTS, 'functionCall');
  }

  /** The function responses in this event's content, in order (a new array). */
  functionResponses(): FunctionResponse[] {
    return membersOf(this.content?.parts ?? NO_PARTS, 'functionResponse');
  }

  /** The concatenated answer text of this event (reasoning parts excluded). */
  text(): string {
    let text = '';
    for (const part of this.content?.parts ?? []) if (part.text !== undefined && !part.thought) text += part.text;
    return text;
  }

  /**
   * True when this event is an answer for the user rather than a step of the loop: a complete model
   * response without function calls, an error, or a tool result that ends the turn
   * (`skipSummarization`, a long-running tool's initial result). Never for a compaction event.
   */
  isFinalResponse(): boolean {
    if (this.partial || this.actions.compaction) return false;
    if (this.actions.skipSummarization || (this.longRunningToolIds?.length ?? 0) > 0) return true;
    // Asked of every event a client reads: look at the parts without building the call and response lists.
    for (const part of this.content?.parts ?? NO_PARTS) if (part.functionCall || part.functionResponse) return false;
    return true;
  }

  /** The plain-JSON form (no methods, no undefined fields). */
  toJSON(): EventData {
    // Field by field, in the constructor's order: every store append and devtools stream makes one, and
    // Object.entries' pair arrays cost ten times as much.
    const data: Partial<EventData> = {};
    if (this.id !== undefined) data.id = this.id;
    if (this.invocationId !== undefined) data.invocationId = this.invocationId;
    if (this.author !== undefined) data.author = this.author;
    if (this.branch !== undefined) data.branch = this.branch;
    if (this.content !== undefined) data.content = this.content;
    if (this.actions !== undefined) data.actions = this.actions;
    if (this.longRunningToolIds !== undefined) data.longRunningToolIds = this.longRunningToolIds;
    if (this.partial !== undefined) data.partial = this.partial;
    if (this.turnComplete !== undefined) data.turnComplete = this.turnComplete;
    if (this.finishReason !== undefined) data.finishReason = this.finishReason;
    if (this.usage !== undefined) data.usage = this.usage;
    if (this.runUsage !== undefined) data.runUsage = this.runUsage;
    if (this.errorCode !== undefined) data.errorCode = this.errorCode;
    if (this.errorMessage !== undefined) data.errorMessage = this.errorMessage;
    if (this.errorDetails !== undefined) data.errorDetails = this.errorDetails;
    if (this.output !== undefined) data.output = this.output;
    if (this.customMetadata !== undefined) data.customMetadata = this.customMetadata;
    if (this.timestamp !== undefined) data.timestamp = this.timestamp;
    return data as EventData;
  }
}

/**
 * The parts' `key` members that are set, in order, in an array made as long as it is: the first push into
 * an empty array gives it room for 17 (the runner asks each model event, which usually has no call or one).
 */
function membersOf<K extends 'functionCall' | 'functionResponse'>(parts: readonly Part[], key: K): Array<NonNullable<Part[K]>> {
  let first: NonNullable<Part[K]> | undefined;
  let members: Array<NonNullable<Part[K]>> | undefined;
  for (let i = 0; i < parts.length; i++) {
    const member = parts[i][key];
    if (!member) continue;
    if (members) members.push(member);
    else if (first) members = [first, member];
    else first = member;
  }
  return members ?? (first ? [first] : []);
}
