import type { ConfirmationPolicySetting } from '../confirmation/confirmation-policy';
import type { GrantService } from '../confirmation/grant-service';
import { grantGate } from '../confirmation/grant-gate';
import type { BaseAgent } from '../agents/base-agent';
import type { CompactionOptions } from '../context/compaction-options';
import { checkCompactionOptions } from '../context/check-compaction-options';
import type { RunBudget } from '../context/run-budget';
import { checkRunBudget } from '../context/check-run-budget';
import { isAgentBackedTool } from '../agents/agent-backed-tool';
import type { InvocationServices } from '../agents/invocation-context';
import { LlmAgent } from '../agents/llm-agent';
import type { Plugin } from '../agents/plugin';
import type { ArtifactService } from '../artifacts/artifact-service';
import { CredentialManager } from '../auth/credential-manager';
import type { CredentialService } from '../auth/credential-service';
import { AgentConfigError } from '../errors/agent-config-error';
import { checkPolicySetting } from '../confirmation/confirmation-policy';
import type { Event } from '../events/event';
import { type ArgumentLimits, DEFAULT_ARGUMENT_LIMITS } from '../validation/argument-parser';
import { DEFAULT_TOOL_CALL_POLICY, type ToolErrorExposure, type ToolOutputValidation } from '../tools/tool-call-policy';
import type { MemoryService } from '../memory/memory-service';
import type { Content } from '../model/content';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import type { Session } from '../sessions/session';
import type { SessionService } from '../sessions/session-service';
import { answeringAgent } from './answering-agent';
import { type AgentOutput, type AskResult, askResult } from './ask-result';
import { type RunTerms, runInvocation } from './run-invocation';
import { MAX_RUN_ID_LENGTH, runIdProblem, runInputProblem, unreadableRunInput } from './run-input-problem';
import type { ToolsmithError } from '../errors/toolsmith-error';
import { SessionTurns } from './session-turns';
import { SequentialCalls } from '../flow/sequential-calls';
import { resolveSessionClaimPolicy, type ResolvedSessionClaimPolicy, type SessionClaimPolicy } from './session-claim-policy';
import { ToolResolver } from '../flow/tool-resolver';
import { Container } from '../di/container';
import type { ContainerAdapter, InjectionToken } from '../di/container-adapter';
import type { Provider } from '../di/provider';
import { createClassTools } from '../scanning/class-tools';
import { Tracing } from '../tracing/tracing';
import type { TracingOptions } from '../tracing/tracing-options';
import { checkedPlugins } from '../agents/checked-plugins';

/** Options of {@link Runner}; `TAgent` is the root agent's type (it types {@link Runner.ask}'s `output`). */
export interface RunnerOptions<TAgent extends BaseAgent = BaseAgent> {
  /**
   * Names the app; `app:` state is shared per app name. A string of at most 256 characters with no control
   * character and no lone surrogate (as a run's `userId` and `sessionId`), else `AGENT_CONFIG_INVALID`.
   */
  appName: string;
  /** The root agent. */
  agent: TAgent;
  /** Where sessions live. Default: a new {@link InMemorySessionService}. */
  sessionService?: SessionService;
  /**
   * One writer per session across processes: how long a run's claim on its session lasts, and whether a
   * run that finds the session held by another process waits (default) or fails with `SESSION_BUSY`.
   */
  sessionClaim?: SessionClaimPolicy;
  /** Long-term memory behind `ctx.searchMemory`, `loadMemory` and `preloadMemory`; without it they throw `SERVICE_NOT_CONFIGURED`. */
  memoryService?: MemoryService;
  /**
   * Where tools' artifacts are kept (`ctx.saveArtifact`, `loadArtifacts`), and whole results cut for the model are saved.
   * Without it, the artifact methods throw `SERVICE_NOT_CONFIGURED` and cut results are not saved.
   */
  artifactService?: ArtifactService;
  /**
   * Where the credentials tools obtain (`@Tool({ auth })`, `ctx.requestCredential`) are kept, per app,
   * user and auth config. Without it, a tool that needs a credential fails with `CREDENTIAL_SERVICE_MISSING`.
   */
  credentialService?: CredentialService;
  /**
   * Remembered confirmation grants ("always allow", see docs/confirmation.md): a gated call a grant
   * covers runs without asking, and an answer with `remember` creates one. Without it, every gated call asks.
   */
  grantService?: GrantService;
  /**
   * Decides every agent's calls before remembered grants and the person (allow, deny with a reason, ask),
   * or only records what it would decide (`{ decide, mode: 'shadow' }`); an `LlmAgent`'s own
   * `confirmationPolicy` replaces it for that agent's calls. See docs/confirmation.md.
   */
  confirmationPolicy?: ConfirmationPolicySetting;
  /** Plugins: callbacks for every agent, run before the agents' own. The runner keeps a copy of this array: later changes to it have no effect. */
  plugins?: Plugin[];
  /**
   * Function calls of one model response run at most this many at a time. Default: no limit (all calls
   * of a response start together, as peers do); tools marked `sequential` never overlap their own calls.
   */
  maxConcurrentToolCalls?: number;
  /** Size and depth limits on the arguments a model may send, and on each new user message (refused with `INVALID_MESSAGE`). */
  argumentLimits?: ArgumentLimits;
  /**
   * Milliseconds an async tool call may run before it gets a `TOOL_TIMEOUT` error response and its
   * `ctx.signal` aborts; a tool's own `timeoutMs` wins. Default 300,000 (5 minutes); `Infinity` turns it off.
   */
  toolTimeoutMs?: number;
  /**
   * Characters of JSON a tool result may have before it is cut for the model (head and tail kept, with a
   * note; the whole result saved as an artifact when `artifactService` is set); a tool's own
   * `maxResultChars` wins. Default 100,000.
   */
  maxResultChars?: number;
  /**
   * Bytes the files of one tool result (`toolFile`, `toolResult`) may have together. Files are never cut:
   * over the limit the call gets a `TOOL_FILES_TOO_LARGE` error response. Default 20 MiB.
   */
  maxToolFileBytes?: number;
  /** What the model sees of an error a tool throws: `'message'` (default), `'generic'`, or a function. See docs/tools.md. */
  toolErrorExposure?: ToolErrorExposure;
  /** Results that break a tool's declared output schema: `'error'` (default, `TOOL_OUTPUT_INVALID`), `'warn'` or `'off'`. */
  toolOutputValidation?: ToolOutputValidation;
  /**
   * Repair what models commonly get wrong in arguments before refusing them (a code fence, trailing
   * commas, double-encoded JSON, numbers and booleans as strings, `null` for an optional property, an enum
   * value's case); each repair is recorded on the function response (`argumentRepairs`). Default `true`;
   * `false` turns it off for every tool (a tool can turn it off for itself with `repairArguments: false`).
   */
  repairArguments?: boolean;
  /** Providers for the built-in DI container that builds `@Toolset` classes (ignored when `container` is given). */
  providers?: Provider[];
  /** An external container (e.g. NestJS's) to build `@Toolset` classes with. */
  container?: ContainerAdapter;
  /**
   * OpenTelemetry spans (`invoke_agent`, `chat`, `execute_tool`, per the GenAI conventions): the tracer
   * provider (default: the global one) and whether contents are recorded (default: no). See docs/observability.md.
   */
  tracing?: TracingOptions;
  /**
   * Compaction for every `LlmAgent` without its own `compaction`: summarize older turns or send only the
   * last ones, so long conversations keep small requests. See docs/context.md.
   */
  compaction?: CompactionOptions;
  /**
   * What one run may spend: input, output or total tokens, or a cost. Checked before each model call;
   * a run over a limit ends with a `RUN_BUDGET_EXCEEDED` error event. See docs/context.md.
   */
  budget?: RunBudget;
}

/** Runs `input` on `runner` under the invocation id `invocationId` (set in {@link Runner}'s static block: it reaches the runner's private `invoke`). */
let invokeAs: (runner: Runner<BaseAgent>, input: RunInput, invocationId: string) => AsyncGenerator<Event, void, undefined>;

/**
 * Runs `input` as {@link Runner.run} does, but under the invocation id `invocationId` instead of a new one:
 * for a caller whose run is the same invocation in every execution (`@toolsmith/dbos`'s DurableRunner: a
 * workflow recovered after a crash goes on under the id its first execution stored its events with).
 * Not for applications (`@toolsmith/core/internal`).
 */
export function runWithInvocationId<TAgent extends BaseAgent>(runner: Runner<TAgent>, input: RunInput, invocationId: string): ReturnType<Runner<TAgent>['run']> {
  return invokeAs(runner, input, invocationId);
}

/** Input of {@link Runner.run}. */
export interface RunInput {
  /** The user the run is for; sessions, `user:` state, memory and credentials are per user. */
  userId: string;
  /** The session to continue; created (empty) when it does not exist. */
  sessionId: string;
  /** The user's message (text, or function responses answering a pause). */
  newMessage: Content;
  /**
   * The client's id for this message, unique in the session, so sending it again is safe: when the
   * session already holds a message with this id, nothing is stored or run, and the run yields the
   * events that message produced (as stored). A non-empty string of at most 256 characters, without
   * control characters or lone surrogates; else the run yields one `INVALID_MESSAGE` error event. See
   * docs/sessions.md.
   */
  messageId?: string;
  /** Aborts the model call and reaches tools as `ctx.signal`. */
  signal?: AbortSignal;
  /** Yield partial (streaming) events before each complete model response. */
  streaming?: boolean;
}

/**
 * Runs agents for users: loads the session, stores each event as it happens, and returns the
 * invocation's events as an async iterable. Agent trees and their tools are checked once, here.
 *
 * @example
 * ```ts
 * const runner = new Runner({ appName: 'weather', agent });
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] } })) {
 *   if (event.isFinalResponse()) console.log(event.text());
 * }
 * ```
 */
export class Runner<TAgent extends BaseAgent = BaseAgent> {
  /** The app name from the options; scopes sessions, `app:` state, memory, artifacts and credentials. */
  readonly appName: string;
  /** The root agent; a run starts with it, unless an agent it transferred to keeps the conversation or a pause is being answered. */
  readonly agent: TAgent;
  /** Where the runner loads sessions and stores events: the one given, or the in-memory default. */
  readonly sessionService: SessionService;
  /** Size and depth limits of the model's call arguments, and of each new user message (the options', else the defaults). */
  readonly argumentLimits: ArgumentLimits;
  private readonly services: InvocationServices;
  private readonly turns = new SessionTurns();
  private readonly claim: ResolvedSessionClaimPolicy;
  /** The agent a run is for, from its loaded session and its message's checked copy: made once, not per run. */
  private readonly chooseAgent = (session: Session, checked: Content | undefined): BaseAgent => answeringAgent(this.agent, session, checked) ?? this.agentToRun(session);
  /** What every run of this runner shares: made once, not per run. */
  private readonly terms: RunTerms;

  static {
    invokeAs = (runner, input, invocationId) => runner.invoke(input, invocationId);
  }

  constructor(options: RunnerOptions<TAgent>) {
    // The app's id in every store, as a run's userId and sessionId are: an appName PostgreSQL would change (a lone surrogate) shares another app's sessions and state.
    const appNameProblem = runIdProblem('appName', options.appName);
    if (appNameProblem) throw new AgentConfigError(`Runner option ${appNameProblem}: it must be a string of at most ${MAX_RUN_ID_LENGTH} characters with no control character and no lone surrogate.`);
    this.appName = options.appName;
    this.agent = options.agent;
    this.sessionService = options.sessionService ?? new InMemorySessionService();
    this.claim = resolveSessionClaimPolicy(options.sessionClaim);
    this.argumentLimits = options.argumentLimits ?? DEFAULT_ARGUMENT_LIMITS;
    const container = options.container ?? new Container(options.providers ?? []);
    // Toolsmith's container knows every provider up front; an external one may add them later (request scopes).
    const ownContainer = container instanceof Container ? container : undefined;
    const tools = new ToolResolver((entry: Function | object) => {
      const created = createClassTools(entry, { container });
      // Our own container knows every provider now: a missing one fails startup, not the tool's first call.
      if (typeof entry === 'function') ownContainer?.assertResolvable(entry as InjectionToken);
      return created;
    });
    this.services = {
      appName: options.appName,
      sessionService: this.sessionService,
      memoryService: options.memoryService,
      artifactService: options.artifactService,
      credentials: options.credentialService ? new CredentialManager(options.credentialService) : undefined,
      // A frozen copy: the runner keeps the plugins it was given (the callback chains are cached by this array).
      plugins: checkedPlugins(options.plugins),
      maxConcurrentToolCalls: options.maxConcurrentToolCalls ?? Infinity,
      argumentLimits: this.argumentLimits,
      toolCallPolicy: {
        timeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_CALL_POLICY.timeoutMs,
        maxResultChars: options.maxResultChars ?? DEFAULT_TOOL_CALL_POLICY.maxResultChars,
        maxFileBytes: options.maxToolFileBytes ?? DEFAULT_TOOL_CALL_POLICY.maxFileBytes,
        errorExposure: options.toolErrorExposure ?? DEFAULT_TOOL_CALL_POLICY.errorExposure,
        outputValidation: options.toolOutputValidation ?? DEFAULT_TOOL_CALL_POLICY.outputValidation,
        repairArguments: options.repairArguments ?? true,
      },
      tools,
      tracing: new Tracing(options.tracing),
      compaction: options.compaction ? checkCompactionOptions(options.compaction, 'the runner') : undefined,
      grantService: options.grantService,
      confirmationGate: options.grantService ? grantGate(options.grantService, options.appName) : undefined,
      confirmationPolicy: options.confirmationPolicy,
      budget: options.budget ? checkRunBudget(options.budget) : undefined,
      sequentialCalls: new SequentialCalls(),
    };
    this.terms = { agent: this.chooseAgent, fallbackAuthor: options.agent.name, turns: this.turns, claim: this.claim, requireMessage: true };
    checkPolicySetting(options.confirmationPolicy, 'the runner');
    checkAgentTree(options.agent);
    prepareTools(options.agent, tools, new Set());
  }

  /**
   * Runs one invocation for the user's message and yields its events (partial ones only when streaming).
   * Never throws: every failure is an error event. Runs on the same session take turns in arrival order
   * (one invocation per session at a time in this process); across processes each run first claims its
   * session in the store (see `sessionClaim`), so a session has one writer at a time. Iterate each run
   * to its end, or `return()` it (as `break` in `for await` does), to pass the turn on.
   */
  run(input: RunInput): AsyncGenerator<Event, void, undefined> {
    return this.invoke(input, undefined);
  }

  /** {@link run}, under the invocation id `invocationId` when given (see {@link runWithInvocationId}). */
  private invoke(input: RunInput, invocationId: string | undefined): AsyncGenerator<Event, void, undefined> {
    // Never throws: the input is read once, here, into plain values (a getter or Proxy that throws, or
    // values of the wrong kind, end the run on one INVALID_MESSAGE event, with nothing stored or created).
    // No input at all is a run without a message (one INVALID_MESSAGE event too).
    let userId: unknown, sessionId: unknown, newMessage: unknown, messageId: unknown, signal: unknown, streaming: unknown;
    let refused: ToolsmithError | undefined;
    try {
      if (input !== undefined && input !== null) ({ userId, sessionId, newMessage, messageId, signal, streaming } = input);
      refused = runInputProblem(userId, sessionId, signal, streaming);
    } catch (thrown) {
      refused = unreadableRunInput(thrown);
    }
    if (refused) newMessage = messageId = signal = streaming = undefined;
    return runInvocation(this.services, {
      terms: this.terms,
      session: { appName: this.appName, userId: userId as string, sessionId: sessionId as string },
      refused,
      newMessage: newMessage as Content | undefined,
      messageId: messageId as string | undefined,
      signal: signal as AbortSignal | undefined,
      streaming: streaming as boolean | undefined,
      invocationId,
    });
  }

  /**
   * Runs one invocation like {@link Runner.run} (without streaming) and resolves to what it came to: the
   * answer's text, the root agent's structured output, the requests left to answer, the error it ended
   * on, and its events. Never rejects for model, tool or callback failures: those are `error`.
   *
   * @example
   * ```ts
   * const { text, error } = await runner.ask({ userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'Paris?' }] } });
   * ```
   */
  async ask(input: Omit<RunInput, 'streaming'>): Promise<AskResult<AgentOutput<TAgent>>> {
    const events: Event[] = [];
    for await (const event of this.run({ ...input, streaming: false })) events.push(event);
    return askResult(this.agent, events);
  }

  /**
   * Deletes a session of this app from the session service, then revokes its `session`-scoped grants
   * (with a `grantService`), so "always allow … for this session" ends with the session: a new session
   * under the same id is asked again. `sessionService.deleteSession` alone knows no grants and leaves them.
   */
  async deleteSession(key: { userId: string; sessionId: string }): Promise<void> {
    const session = { appName: this.appName, userId: key.userId, sessionId: key.sessionId };
    await this.services.sessionService.deleteSession(session);
    await this.services.grantService?.revokeSessionGrants(session);
  }

  /** Releases the toolsets of every agent. */
  async close(): Promise<void> {
    await this.services.tools.close();
  }

  /** The agent that answered last keeps the conversation (after a transfer); otherwise the root agent. */
  private agentToRun(session: Session): BaseAgent {
    for (let i = session.events.length - 1; i >= 0; i--) {
      const author = session.events[i].author;
      if (author === 'user') continue;
      const agent = this.agent.findAgent(author);
      return agent && transferable(agent) ? agent : this.agent;
    }
    return this.agent;
  }
}

/** An agent can keep the conversation only if it and its ancestors are LLM agents (workflow agents run their children themselves). */
function transferable(agent: BaseAgent): boolean {
  for (let a: BaseAgent | undefined = agent; a; a = a.parentAgent) if (!(a instanceof LlmAgent)) return false;
  return true;
}

/** Resolves every agent's tools now, including agents run by tools (`AgentTool`), so configuration errors surface at startup. */
function prepareTools(root: BaseAgent, tools: ToolResolver, seen: Set<BaseAgent>): void {
  for (const agent of root.allAgents()) {
    if (!(agent instanceof LlmAgent) || seen.has(agent)) continue;
    seen.add(agent);
    for (const tool of tools.prepare(agent).staticTools) {
      if (isAgentBackedTool(tool)) {
        checkAgentTree(tool.agent);
        prepareTools(tool.agent, tools, seen);
      }
    }
  }
}

function checkAgentTree(root: BaseAgent): void {
  const seen = new Set<string>();
  for (const agent of root.allAgents()) {
    if (seen.has(agent.name)) throw new AgentConfigError(`Two agents in the tree are named "${agent.name}"; agent names must be unique.`);
    seen.add(agent.name);
  }
}
