import type { GrantService } from '../confirmation/grant-service';
import type { ConfirmationGate } from '../confirmation/grant-gate';
import type { ConfirmationPolicySetting } from '../confirmation/confirmation-policy';
import type { CredentialManager } from '../auth/credential-manager';
import type { ArtifactService } from '../artifacts/artifact-service';
import type { ArgumentLimits } from '../validation/argument-parser';
import type { ToolCallPolicy } from '../tools/tool-call-policy';
import type { MemoryService } from '../memory/memory-service';
import type { Content } from '../model/content';
import type { ToolResolver } from '../flow/tool-resolver';
import type { Session } from '../sessions/session';
import type { SessionService } from '../sessions/session-service';
import { State } from '../state/state';
import type { EventActions, ToolConfirmation } from '../state/event-actions';
import type { ReadonlyContext } from '../tools/readonly-context';
import type { InvocationTrace } from '../tracing/invocation-trace';
import type { Tracing } from '../tracing/tracing';
import { ToolContext } from '../tools/tool-context';
import type { BaseAgent } from './base-agent';
import type { Plugin } from './plugin';
import type { Event } from '../events/event';
import type { Usage } from '../model/llm-response';
import { type RunBudget, budgetOverrun } from '../context/run-budget';
import { RunBudgetExceededError } from '../errors/run-budget-exceeded-error';
import { AgentConfigError } from '../errors/agent-config-error';
import { costOfFailedMessage } from '../errors/messages';
import type { CompactionOptions } from '../context/compaction-options';
import type { CallIdCache } from '../flow/model-response-check';
import type { SequentialCalls } from '../flow/sequential-calls';
import { thrownMessage } from '../errors/thrown-message';

/** @internal What every invocation of one runner shares: services, plugins, limits and the resolved tools. */
export interface InvocationServices {
  readonly appName: string;
  readonly sessionService: SessionService;
  readonly memoryService?: MemoryService;
  readonly artifactService?: ArtifactService;
  /** Obtains, refreshes and stores tools' credentials, over the runner's `credentialService`. */
  readonly credentials?: CredentialManager;
  readonly plugins: readonly Plugin[];
  readonly maxConcurrentToolCalls: number;
  readonly argumentLimits?: ArgumentLimits;
  /** Timeout, result budget and error exposure of every tool call. */
  readonly toolCallPolicy: ToolCallPolicy;
  /** @internal Resolves and caches each agent's tools. */
  readonly tools: ToolResolver;
  /** @internal The runner's OpenTelemetry tracing; absent: no spans. */
  readonly tracing?: Tracing;
  /** The runner's `compaction`, for `LlmAgent`s without their own. */
  readonly compaction?: CompactionOptions;
  /** The runner's remembered confirmation grants; absent: none are remembered. */
  readonly grantService?: GrantService;
  /** @internal Decides gated calls before the person is asked (the grants); absent: always ask. */
  readonly confirmationGate?: ConfirmationGate;
  /** The runner's `confirmationPolicy`, for agents without their own; absent: none. */
  readonly confirmationPolicy?: ConfirmationPolicySetting;
  /** The runner's `budget`: what one run may spend. */
  readonly budget?: RunBudget;
  /** @internal The queues of `sequential` tools' calls, per session and tool, across responses and runs. */
  readonly sequentialCalls: SequentialCalls;
}

/** @internal Mutable facts shared by every agent taking part in one invocation. */
export interface InvocationShared {
  /** `temp:` state: visible to the whole invocation, never stored. Made when first written (most runs write none). */
  tempState?: Record<string, unknown>;
  llmCalls: number;
  /** Ids of the function calls stored in the session so far, read up to `events` (see `collectCallIds`). */
  callIds?: CallIdCache;
  /** The run's token counts so far and, with a budget's `costOf`, its cost (see {@link InvocationContext.countUsage}). */
  runUsage?: Usage;
  runCost?: number;
  /** Why the budget's `costOf` could not price an event (it threw, or returned no finite number of at least 0): the run ends on it. */
  costError?: AgentConfigError;
}

/**
 * One invocation: a user message handled by an agent (and the agents it transfers to) until a final
 * answer, a pause or an error. Passed to {@link BaseAgent.runAsync}; agents hand a copy made with
 * {@link InvocationContext.forAgent} to the agents they run.
 */
export class InvocationContext {
  // `declare`: the constructor assigns every field itself, once, in this order (a class field would be
  // defined as undefined first and then assigned again, for every context of every run).
  /** Identifies this invocation in events, logs and traces. */
  declare readonly invocationId: string;
  /** The agent running now. */
  declare readonly agent: BaseAgent;
  /** The session the invocation reads and appends to. */
  declare readonly session: Session;
  /** @internal */
  declare readonly services: InvocationServices;
  /** The user's message that started the invocation, as stored (the values of a typed-in credential redacted). */
  declare readonly userContent?: Content;
  /** @internal The credential answers of the user's message with their secrets (request id → response); never stored. */
  declare readonly withheldAnswers?: ReadonlyMap<string, unknown>;
  /** False when the caller gave no signal: nothing can abort the invocation. */
  declare readonly abortable: boolean;
  declare private ownSignal?: AbortSignal;
  /** Whether models are asked for partial responses. */
  declare readonly streaming: boolean;
  /** The agent path of this invocation (`root.child`), which scopes the events an agent sees. */
  declare readonly branch?: string;
  /** @internal The invocation's spans, when it is traced (copied by {@link InvocationContext.forAgent}). */
  declare readonly trace?: InvocationTrace;
  declare private readonly shared: InvocationShared;

  /**
   * @internal Made by the runner, from each field's value (no init object made per run): `signal`, this
   * invocation's own signal, linked to the caller's (absent when the caller gave none: then made on first
   * read); `withheldAnswers`, the credential answers of the user's message with their secrets (request id
   * → response, never stored); `shared`, what {@link InvocationContext.forAgent} copies share (temp state,
   * model-call count).
   */
  constructor(
    invocationId: string,
    agent: BaseAgent,
    session: Session,
    services: InvocationServices,
    userContent: Content | undefined,
    withheldAnswers: ReadonlyMap<string, unknown> | undefined,
    abortable: boolean,
    signal: AbortSignal | undefined,
    streaming: boolean,
    branch: string | undefined,
    trace: InvocationTrace | undefined,
    shared: InvocationShared = { llmCalls: 0 },
  ) {
    this.invocationId = invocationId;
    this.agent = agent;
    this.session = session;
    this.services = services;
    this.userContent = userContent;
    this.withheldAnswers = withheldAnswers;
    this.abortable = abortable;
    this.ownSignal = signal;
    this.streaming = streaming;
    this.branch = branch;
    this.trace = trace;
    this.shared = shared;
  }

  /** The same invocation, run by another agent. */
  forAgent(agent: BaseAgent): InvocationContext {
    const { invocationId, session, services, userContent, withheldAnswers, abortable, ownSignal, streaming, branch, trace, shared } = this;
    return new InvocationContext(invocationId, agent, session, services, userContent, withheldAnswers, abortable, ownSignal, streaming, branch, trace, shared);
  }

  /**
   * This invocation's abort signal. When the caller gave a signal it is linked to it; otherwise nothing
   * can abort the invocation, and a signal of its own is made only if something reads it (most turns
   * never do, and an AbortController is not free).
   */
  get signal(): AbortSignal {
    return (this.ownSignal ??= new AbortController().signal);
  }

  /** True once the invocation was aborted; reads no signal when nothing can abort it. */
  get aborted(): boolean {
    return this.abortable && this.signal.aborted;
  }

  /** @internal Where the model-response check keeps the session's call ids, for this invocation. */
  get callIdCache(): CallIdCache {
    return (this.shared.callIds ??= { events: 0 });
  }

  /** @internal `temp:` keys written so far in this invocation. */
  get tempState(): Record<string, unknown> {
    return (this.shared.tempState ??= {});
  }

  /** @internal Counts one model call and returns the count so far (all agents of the invocation). */
  countLlmCall(): number {
    return ++this.shared.llmCalls;
  }

  /** @internal Records the run's usage after `event` (`runUsage`, the sum so far) and, with a budget's `costOf`, the event's cost. */
  countUsage(event: Event, runUsage: Usage): void {
    this.shared.runUsage = runUsage;
    const costOf = this.services.budget?.costOf;
    if (!costOf || !event.usage || this.shared.costError) return;
    let cost: unknown;
    try {
      cost = costOf(event.usage, event);
    } catch (thrown) {
      this.shared.costError = new AgentConfigError(costOfFailedMessage(event.author, `threw: ${thrownMessage(thrown)}`));
      return;
    }
    if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) {
      this.shared.costError = new AgentConfigError(costOfFailedMessage(event.author, `returned ${typeof cost === 'number' ? String(cost) : JSON.stringify(cost) ?? String(cost)}, not a finite number of at least 0`));
      return;
    }
    this.shared.runCost = (this.shared.runCost ?? 0) + cost;
  }

  /** @internal Why the budget's `costOf` failed to price an event of this run, if it did: the run ends on it. */
  get costError(): AgentConfigError | undefined {
    return this.shared.costError;
  }

  /** @internal The error that ends the run when its usage so far is over a limit of the runner's budget; else `undefined`. */
  budgetExceeded(): RunBudgetExceededError | AgentConfigError | undefined {
    if (this.shared.costError) return this.shared.costError;
    const budget = this.services.budget;
    const overrun = budget && budgetOverrun(budget, this.shared.runUsage, this.shared.runCost ?? 0);
    return overrun ? new RunBudgetExceededError(overrun) : undefined;
  }

  /** Session state plus this invocation's `temp:` state, as one snapshot. */
  stateSnapshot(): Record<string, unknown> {
    return { ...this.session.state, ...this.shared.tempState };
  }

  /**
   * @internal {@link InvocationContext.stateSnapshot} for a base nothing writes (a call's state reads it): without
   * state, one shared frozen empty object instead of a new one per call.
   */
  stateBase(): Record<string, unknown> {
    const temp = this.shared.tempState;
    return hasOwnKeys(this.session.state) || (temp !== undefined && hasOwnKeys(temp)) ? this.stateSnapshot() : NO_STATE;
  }

  /** A read-only view for toolsets and instruction functions. */
  readonlyContext(): ReadonlyContext {
    return {
      appName: this.services.appName,
      userId: this.session.userId,
      sessionId: this.session.id,
      invocationId: this.invocationId,
      agentName: this.agent.name,
      state: new State(this.stateSnapshot()),
    };
  }

  /**
   * @internal The {@link ToolContext} of one call (or of a `processRequest` hook) in this invocation: its writes
   * go to `actions`, its reads see `stateBase` (a {@link stateSnapshot}) plus those writes. Its values one by one:
   * a call makes no object to pass them.
   */
  toolContext(agentName: string, functionCallId: string, stateBase: Record<string, unknown>, actions: EventActions, toolConfirmation?: ToolConfirmation): ToolContext {
    return new ToolContext({
      functionCallId,
      invocationId: this.invocationId,
      agentName,
      appName: this.services.appName,
      userId: this.session.userId,
      sessionId: this.session.id,
      branch: this.branch,
      state: new State(stateBase, actions.stateDelta, actions),
      actions,
      signal: this.abortable ? this.signal : undefined,
      toolConfirmation,
      memoryService: this.services.memoryService,
      artifactService: this.services.artifactService,
      credentials: this.services.credentials,
    });
  }
}

/** The base of every call's state when there is none (see {@link InvocationContext.stateBase}). */
const NO_STATE: Record<string, unknown> = Object.freeze({});

/** True when `object` has an own key (state keys are strings); no array of keys made. */
function hasOwnKeys(object: Record<string, unknown>): boolean {
  for (const key in object) if (Object.prototype.hasOwnProperty.call(object, key)) return true;
  return false;
}
