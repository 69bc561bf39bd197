import type { ConfirmationAnswer, Content, Event, GrantService, Session } from '@toolsmith/core';
import { Container, InMemoryGrantService, LlmAgent, Runner, ToolsmithError, checkFunctionResponses, confirmationResponse, findPendingCalls, longRunningResponse } from '@toolsmith/core';
import { readConfirmationDecision } from '@toolsmith/core/internal';
import type { AgentToolEntry} from './agent-tools';
import { agentTools, listingContext, toolInfo } from './agent-tools';
import { DevApiError } from './dev-api-error';
import { DevEvals } from './dev-evals';
import type { EvalCaseSaved } from './protocol/api-types';
import type { AgentModule} from './load-agent-module';
import { loadAgentModule } from './load-agent-module';
import type { OpenedSessionStore} from './open-session-store';
import { openSessionStore } from './open-session-store';
import type {
  AppInfo,
  ConfirmationAnswerRequest,
  LongRunningUpdateRequest,
  SessionDetail,
  SessionSummary,
  ToolInfo,
  ToolRunRequest,
  ToolRunResult,
  WireEvent,
  WireGrant,
  WireInspection,
  WirePending,
} from './protocol/api-types';
import { RunInspector } from './run-inspector';
import { runToolAlone } from './run-tool-alone';

/** Options of {@link DevAgentHost.open}. */
export interface OpenDevAgentHostOptions {
  /** Path of the module exporting the agent (or a `Runner`), relative to `cwd`. */
  module: string;
  /** Directory paths are resolved against, and where the embedded store lives (`.toolsmith/sessions`). Default: the current directory. */
  cwd?: string;
  /** The build-time manifest to scan with (default: the one found from the module's directory). */
  manifest?: string;
  /** `memory` keeps sessions in memory even when `@toolsmith/postgres` is installed. Default `auto`. */
  store?: 'auto' | 'memory';
  /** The user all sessions belong to. Default `dev-user`. */
  userId?: string;
  /** The eval set file sessions are saved to as cases and the Evals view runs, relative to `cwd`. Default `evals/dev.evals.json`. */
  evals?: string;
}

/**
 * One agent served to a developer: its runner, its session store and its tools, with the operations
 * the dev UI, its HTTP API and `toolsmith run` share (sessions, runs, answers to pauses, running a
 * tool alone). Everything goes through core's public runner and executor: what you see is what a run does.
 */
export class DevAgentHost {
  /** The runner every run goes through: the module's own, or one built on the agent and the dev session store. */
  readonly runner: Runner;
  /** The user every session belongs to. */
  readonly userId: string;
  /**
   * Where remembered approvals ("always allow") are kept: the module's `grantService` export, else (when the
   * host builds the runner) a new `InMemoryGrantService`. Absent for an exported `Runner` without that export.
   */
  readonly grantService?: GrantService;
  /** Records the runs of a runner the host builds (spans and model calls); absent for an exported `Runner`. */
  private readonly inspector?: RunInspector;
  /** The eval set file: cases saved from sessions, and runs of the set against the agent. */
  readonly evals: DevEvals;
  private readonly container: Container;
  private toolCache?: Promise<Map<string, AgentToolEntry>>;
  /** The runs under way, by session id: deleting a session stops them first (see {@link deleteSession}). */
  private readonly runs = new Map<string, Set<ActiveRun>>();

  private constructor(
    /** What the module exported. */
    readonly agentModule: AgentModule,
    private readonly store: OpenedSessionStore,
    userId: string,
    evals: DevEvals,
  ) {
    this.userId = userId;
    this.evals = evals;
    this.container = new Container(agentModule.providers);
    this.grantService = agentModule.grantService ?? (agentModule.runner ? undefined : new InMemoryGrantService());
    if (!agentModule.runner) this.inspector = new RunInspector();
    this.runner =
      agentModule.runner ??
      new Runner({
        appName: agentModule.appName,
        agent: agentModule.agent,
        sessionService: store.sessionService,
        container: this.container,
        ...(agentModule.plugins ? { plugins: agentModule.plugins } : {}),
        ...(agentModule.memoryService ? { memoryService: agentModule.memoryService } : {}),
        ...(agentModule.artifactService ? { artifactService: agentModule.artifactService } : {}),
        ...(this.grantService ? { grantService: this.grantService } : {}),
        ...(agentModule.credentialService ? { credentialService: agentModule.credentialService } : {}),
        ...(this.inspector ? { tracing: { tracerProvider: this.inspector.tracerProvider, recordContent: true } } : {}),
      });
  }

  /** Loads the module, opens the session store (see {@link openSessionStore}) and builds the runner. */
  static async open(options: OpenDevAgentHostOptions): Promise<DevAgentHost> {
    const cwd = options.cwd ?? process.cwd();
    const agentModule = loadAgentModule(options.module, { cwd, ...(options.manifest ? { manifest: options.manifest } : {}) });
    // An exported Runner keeps its own store: the dev tools must show the sessions it writes.
    const store: OpenedSessionStore = agentModule.runner
      ? {
          sessionService: agentModule.runner.sessionService,
          info: { kind: 'runner', durable: false, description: `the exported Runner's own store (${agentModule.runner.sessionService.constructor.name})` },
          close: async () => undefined,
        }
      : await openSessionStore({ projectDir: cwd, ...(options.store ? { store: options.store } : {}) });
    return new DevAgentHost(agentModule, store, options.userId ?? 'dev-user', new DevEvals(agentModule, options.evals, cwd));
  }

  /** The app, the agent, the user and the session store. */
  info(): AppInfo {
    const agent = this.runner.agent;
    return {
      appName: this.runner.appName,
      agentName: agent.name,
      userId: this.userId,
      ...(agent instanceof LlmAgent ? { model: `${agent.model.provider}/${agent.model.modelName}` } : {}),
      store: this.store.info,
      grants: this.grantService !== undefined,
      inspector: this.inspector !== undefined,
    };
  }

  /**
   * The user's sessions, most recently updated first, each titled by its first user message. With `search`,
   * only those whose title or id contains it (ignoring case).
   */
  async listSessions(search?: string): Promise<SessionSummary[]> {
    const key = { appName: this.runner.appName, userId: this.userId };
    const listed = await this.runner.sessionService.listSessions(key);
    const needle = search?.trim().toLowerCase() ?? '';
    const summaries: SessionSummary[] = [];
    for (const listedSession of listed) {
      // Stores list sessions without their events: the title needs the first user message.
      const session = listedSession.events.length > 0 ? listedSession : ((await this.runner.sessionService.getSession({ ...key, sessionId: listedSession.id })) ?? listedSession);
      const title = titleOf(session);
      if (needle && !`${title ?? ''}\n${session.id}`.toLowerCase().includes(needle)) continue;
      summaries.push({ id: session.id, ...(title ? { title } : {}), lastUpdateTime: session.lastUpdateTime, state: session.state });
    }
    return summaries.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime || a.id.localeCompare(b.id));
  }

  /** The session's runs as the inspector recorded them; `NOT_FOUND` when the module built its own Runner (nothing is recorded). */
  inspect(sessionId: string): WireInspection {
    if (!this.inspector) throw new DevApiError('NOT_FOUND', 'The module exports its own Runner, so the dev tools do not trace its runs: export the agent instead to use the inspector.');
    return this.inspector.inspect(sessionId);
  }

  /** Creates a session (a random id unless one is given). */
  async createSession(sessionId?: string): Promise<SessionDetail> {
    const session = await this.runner.sessionService.createSession({
      appName: this.runner.appName,
      userId: this.userId,
      ...(sessionId ? { sessionId } : {}),
    });
    return detail(session);
  }

  /** The session with its events and what it waits for; `SESSION_NOT_FOUND` when there is none. */
  async getSession(sessionId: string): Promise<SessionDetail> {
    return detail(await this.session(sessionId));
  }

  /**
   * Deletes a session (nothing happens when it does not exist). A run of it under way is stopped first, and
   * its end waited for: otherwise its tools would go on and its events find no session to be stored in.
   */
  async deleteSession(sessionId: string): Promise<void> {
    const runs = this.runs.get(sessionId);
    if (runs) {
      for (const run of runs) run.stop.abort(new Error(`Session "${sessionId}" was deleted.`));
      await Promise.all([...runs].map((run) => run.ended));
    }
    await this.runner.deleteSession({ userId: this.userId, sessionId }); // its session grants go with it
    this.inspector?.forget(sessionId);
  }

  /**
   * Runs the agent on a message and yields every event, partial text included (the runner stores the
   * complete ones). Never throws once started: failures are error events, as with `Runner.run`. With
   * `messageId`, a message the session already holds is not run again (see `RunInput.messageId`).
   */
  async *run(sessionId: string, newMessage: Content, signal?: AbortSignal, messageId?: string): AsyncGenerator<Event, void, undefined> {
    const stop = new AbortController();
    let ended!: () => void;
    const run: ActiveRun = { stop, ended: new Promise<void>((resolve) => (ended = resolve)) };
    const runs = this.runs.get(sessionId) ?? new Set<ActiveRun>();
    this.runs.set(sessionId, runs.add(run));
    try {
      const stopped = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
      yield* this.runner.run({ userId: this.userId, sessionId, newMessage, streaming: true, signal: stopped, ...(messageId === undefined ? {} : { messageId }) });
    } finally {
      runs.delete(run);
      if (runs.size === 0 && this.runs.get(sessionId) === runs) this.runs.delete(sessionId);
      ended();
    }
  }

  /**
   * The message answering a pending confirmation with one of the four decisions (or `{ confirmed }`):
   * `NOT_PENDING` unless the session waits for `requestId`; then the message is checked against the session
   * exactly as the runner checks it (core's `checkFunctionResponses`), so what the runner would refuse is
   * thrown here, before anything is sent: `INVALID_CONFIRMATION_ANSWER` for a malformed answer, a `remember`
   * on a request the tool asked itself, an `edit` of an update's question or a payload outside the request's
   * form; `CONFIRMATION_MISMATCH` for an `originalFunctionCall` that is not the pending call. A `remember`
   * without a grant service is `BAD_REQUEST`. Edited arguments are checked by the runner, which refuses them
   * with `CONFIRMATION_EDIT_INVALID` before anything is stored.
   */
  async confirmationAnswer(sessionId: string, requestId: string, answer: ConfirmationAnswerRequest): Promise<Content> {
    const events = (await this.session(sessionId)).events;
    const pending = findPendingCalls(events).confirmations.get(requestId);
    if (!pending) throw new DevApiError('NOT_PENDING', `Session "${sessionId}" is not waiting for a confirmation "${requestId}".`);
    const decision = readConfirmationDecision(requestId, answer);
    if (decision instanceof ToolsmithError) throw decision;
    if (decision.remember && !this.grantService) {
      throw new DevApiError('BAD_REQUEST', 'This agent has no grant service, so an approval cannot be remembered: export `grantService` (the one your Runner uses) from the module.');
    }
    const { decision: kind, args, message, result, payload, remember } = decision;
    const extra = { ...(payload === undefined ? {} : { payload }) };
    const built: ConfirmationAnswer =
      answer.decision === undefined && !remember
        ? { confirmed: kind === 'approve', ...extra }
        : kind === 'edit'
          ? { decision: kind, args: args!, ...extra }
          : kind === 'reject'
            ? { decision: kind, ...(message === undefined ? {} : { message }), ...extra }
            : kind === 'respond'
              ? { decision: kind, result, ...extra }
              : { decision: kind, ...(remember ? { remember } : {}), ...extra };
    const reply = confirmationResponse(pending, built);
    // An answer that names the call it decides on is held to it: the runner compares it with the pending call.
    if (answer.originalFunctionCall !== undefined) reply.parts[0].functionResponse!.response.originalFunctionCall = answer.originalFunctionCall;
    const refusal = checkFunctionResponses(events, reply);
    if (refusal) throw refusal;
    return reply;
  }

  /** The app's remembered grants, oldest first (expired ones included); `NOT_FOUND` without a grant service. */
  async listGrants(): Promise<WireGrant[]> {
    return (await this.grants().listGrants({ appName: this.runner.appName })) as WireGrant[];
  }

  /** Revokes a grant: the next call it covered asks again. `NOT_FOUND` when the app has no grant `grantId`. */
  async revokeGrant(grantId: string): Promise<void> {
    if (!(await this.grants().revokeGrant({ appName: this.runner.appName, grantId }))) {
      throw new DevApiError('NOT_FOUND', `There is no grant "${grantId}" in app "${this.runner.appName}".`);
    }
  }

  /** The message carrying an update of a pending long-running call; `NOT_PENDING` unless the session waits for `callId`. */
  async longRunningUpdate(sessionId: string, callId: string, update: LongRunningUpdateRequest): Promise<Content> {
    const pending = findPendingCalls((await this.session(sessionId)).events).longRunning.get(callId);
    if (!pending) throw new DevApiError('NOT_PENDING', `Session "${sessionId}" is not waiting for the long-running call "${callId}".`);
    return longRunningResponse({ id: callId, name: pending.name, response: update.response, willContinue: update.willContinue === true, ...(update.question !== undefined && { question: update.question }) });
  }

  /** Every tool of the agent tree, with its description and schemas. */
  async listTools(): Promise<ToolInfo[]> {
    return [...(await this.tools()).values()].map(toolInfo);
  }

  /** Runs one tool alone, exactly as a run would call it (see {@link runToolAlone}); `signal` aborts the call (`ctx.signal`). */
  async runTool(name: string, request: ToolRunRequest, signal?: AbortSignal): Promise<ToolRunResult> {
    const tools = await this.tools();
    const entry = tools.get(name);
    const state = request.sessionId ? (await this.session(request.sessionId)).state : {};
    return runToolAlone({
      name,
      tool: entry?.tool,
      toolNames: [...tools.keys()],
      request,
      state,
      appName: this.runner.appName,
      userId: this.userId,
      sessionId: request.sessionId ?? 'devtools-tool-run',
      agentName: entry?.agents[0] ?? this.runner.agent.name,
      ...(signal ? { signal } : {}),
      ...(this.agentModule.memoryService ? { memoryService: this.agentModule.memoryService } : {}),
      ...(this.agentModule.artifactService ? { artifactService: this.agentModule.artifactService } : {}),
    });
  }

  /** Releases the runner's toolsets and the session store. */
  async close(): Promise<void> {
    await this.runner.close();
    await this.store.close();
  }

  private grants(): GrantService {
    if (!this.grantService) throw new DevApiError('NOT_FOUND', 'This agent has no grant service: export `grantService` (the one your Runner uses) from the module to list and revoke grants.');
    return this.grantService;
  }

  private tools(): Promise<Map<string, AgentToolEntry>> {
    this.toolCache ??= agentTools(this.runner.agent, this.container, listingContext(this.runner.appName, this.userId, this.runner.agent.name));
    return this.toolCache;
  }

  /** Saves the session as a case of the eval set file (see {@link DevEvals.saveCase}); `SESSION_NOT_FOUND` when there is none. */
  async saveEvalCase(sessionId: string, caseId?: string): Promise<EvalCaseSaved> {
    return this.evals.saveCase(await this.session(sessionId), caseId);
  }

  private async session(sessionId: string): Promise<Session> {
    const session = await this.runner.sessionService.getSession({ appName: this.runner.appName, userId: this.userId, sessionId });
    if (!session) throw new DevApiError('SESSION_NOT_FOUND', `There is no session "${sessionId}" for user "${this.userId}".`);
    return session;
  }
}

/** A session's title: its first user message's text, cut at 80 characters. */
function titleOf(session: Session): string | undefined {
  const first = session.events.find((event) => event.author === 'user' && event.text().trim() !== '');
  const text = first?.text().trim().replace(/\s+/g, ' ');
  return text && text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The API's view of a session: its JSON form and what it waits for. */
function detail(session: Session): SessionDetail {
  return {
    id: session.id,
    userId: session.userId,
    state: session.state,
    events: session.events.map(toWireEvent),
    lastUpdateTime: session.lastUpdateTime,
    pending: pendingOf(session.events),
  };
}

/** An event's JSON form as the API sends it (core's `EventData`; `actions` typed loosely for the browser). */
export function toWireEvent(event: Event): WireEvent {
  return event.toJSON() as unknown as WireEvent;
}

/** A run under way: what stops it, and when it has ended (its last event stored or refused). */
interface ActiveRun {
  stop: AbortController;
  ended: Promise<void>;
}

/** What a session's events leave it waiting for, in the API's shape. */
export function pendingOf(events: readonly Event[]): WirePending {
  const pending = findPendingCalls(events);
  return {
    confirmations: [...pending.confirmations.values()].map((request) => ({
      requestId: request.requestId,
      originalFunctionCall: request.originalFunctionCall,
      ...(request.prompt.hint !== undefined ? { hint: request.prompt.hint } : {}),
      ...(request.prompt.payload !== undefined ? { payload: request.prompt.payload } : {}),
      agentName: request.agentName,
      ...(request.relay ? { relayed: { agent: request.relay.agent, call: request.relay.call } } : {}),
      ...(request.askedBy ? { askedBy: request.askedBy } : {}),
      ...(request.prompt.editable === false ? { editable: false as const } : {}),
      ...(request.prompt.payloadSchema !== undefined ? { payloadSchema: request.prompt.payloadSchema as Record<string, unknown> } : {}),
      ...(request.update ? { update: { response: request.update.response, willContinue: request.update.willContinue } } : {}),
    })),
    longRunning: [...pending.longRunning.values()].map(({ id, name, agentName }) => ({ id, name, agentName })),
  };
}
