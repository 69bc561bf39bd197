import { createHash } from 'node:crypto';
import { serviceNotConfiguredMessage } from '../errors/messages';
import type { ArtifactService } from '../artifacts/artifact-service';
import type { AuthConfig } from '../auth/auth-config';
import type { AuthCredential } from '../auth/auth-credential';
import type { CredentialManager } from '../auth/credential-manager';
import { CredentialServiceMissingError } from '../errors/auth-errors';
import { noteInjectedCredential } from './injected-credentials';
import { ToolsmithError } from '../errors/toolsmith-error';
import type { MemoryService, SearchMemoryResponse } from '../memory/memory-service';
import type { Part } from '../model/content';
import type { JsonSchema } from '../model/json-schema';
import type { EventActions, ToolConfirmation } from '../state/event-actions';
import type { State } from '../state/state';
import type { ReadonlyContext } from './readonly-context';

/** Everything a {@link ToolContext} is built from. Created by the runner (or `invokeTool`) per call. */
export interface ToolContextInit {
  /** See {@link ToolContext.functionCallId}; `''` for a `processRequest` hook's context. */
  functionCallId: string;
  /** The invocation this call belongs to. */
  invocationId: string;
  /** The agent whose model made the call. */
  agentName: string;
  /** The runner's `appName`. */
  appName: string;
  /** The user whose session this is. */
  userId: string;
  /** The session the call runs in. */
  sessionId: string;
  /** Agent path, e.g. `root.researcher`, for multi-agent runs. */
  branch?: string;
  /** Reads see the stored state; writes go to its `delta`, which should be `actions.stateDelta`. */
  state: State;
  /** Collects the call's side effects; the runner merges them into the actions of the function response event. */
  actions: EventActions;
  /** The invocation's abort signal, which each call's own signal follows; absent when nothing can abort the invocation. */
  signal?: AbortSignal;
  /** The user's answer, when this call runs after a confirmation. */
  toolConfirmation?: ToolConfirmation;
  /** Backs {@link ToolContext.searchMemory}; without it, that method throws `SERVICE_NOT_CONFIGURED`. */
  memoryService?: MemoryService;
  /** Backs the artifact methods of {@link ToolContext}; without it, they throw `SERVICE_NOT_CONFIGURED`. */
  artifactService?: ArtifactService;
  /** @internal The runner's credentials (over its `credentialService`). */
  credentials?: CredentialManager;
}

/**
 * Per-call context injected into tool methods: by type (a parameter typed `ToolContext`) or with `@Ctx()`.
 * It is never part of a tool's schema.
 *
 * @example
 * ```ts
 * @Tool() async addToCart(@Param('sku') sku: string, ctx: ToolContext) {
 *   const cart = ctx.state.get<string[]>('cart') ?? [];
 *   ctx.state.set('cart', [...cart, sku]);
 * }
 * ```
 */
export class ToolContext implements ReadonlyContext {
  /** The id of the model's function call this context serves; its function response carries the same id. */
  declare readonly functionCallId: string;
  /** Identifies the invocation (one user message, handled until an answer or a pause) in events, logs and traces. */
  declare readonly invocationId: string;
  /** The name of the agent whose model made the call. */
  declare readonly agentName: string;
  /** The runner's `appName`: the application whose sessions, memory and artifacts this call reads. */
  declare readonly appName: string;
  /** The user whose session this is. */
  declare readonly userId: string;
  /** The id of the session the call runs in. */
  declare readonly sessionId: string;
  /** The invocation's agent path (e.g. `root.researcher`), which scopes the events an agent sees; absent when it has none. */
  declare readonly branch?: string;
  /** Session state with scopes by key prefix (`app:`, `user:`, `temp:`, none); writes land in `actions.stateDelta`. */
  declare readonly state: State;
  /** Side effects for the runner: state/artifact deltas, transfer, escalate, skipSummarization. */
  declare readonly actions: EventActions;
  /** Set when this call runs after the user answered a confirmation request. */
  declare readonly toolConfirmation?: ToolConfirmation;
  /**
   * The credential for the tool's `auth` config (`@Tool({ auth })`), set by the runner before the tool
   * runs; absent for tools without `auth`.
   */
  declare credential?: AuthCredential;
  declare private readonly credentials?: CredentialManager;
  declare private readonly memoryService?: MemoryService;
  declare private readonly artifactService?: ArtifactService;
  declare private readonly invocationSignal?: AbortSignal;
  // This call's own signal, made on first read: most tools never read it, so most calls never pay for it.
  declare private callController?: AbortController;
  declare private unlinkCall?: () => void;
  /** Set once the call is cancelled (timed out, or its run aborted); its effects are then discarded. */
  declare private cancellation?: { reason: ToolsmithError; discarded: Promise<void> };
  /** The artifact versions this call saved, deleted again if it is cancelled. */
  declare private savedVersions?: Array<{ filename: string; version: number }>;

  constructor(init: ToolContextInit) {
    // Every field is assigned here, once, in the order they are declared (`declare`: class fields would first
    // define each as undefined, a second store for each of the nineteen on every call).
    this.functionCallId = init.functionCallId;
    this.invocationId = init.invocationId;
    this.agentName = init.agentName;
    this.appName = init.appName;
    this.userId = init.userId;
    this.sessionId = init.sessionId;
    this.branch = init.branch;
    this.state = init.state;
    this.actions = init.actions;
    this.toolConfirmation = init.toolConfirmation;
    this.credential = undefined;
    this.credentials = init.credentials;
    this.memoryService = init.memoryService;
    this.artifactService = init.artifactService;
    this.invocationSignal = init.signal;
    this.callController = undefined;
    this.unlinkCall = undefined;
    this.cancellation = undefined;
    this.savedVersions = undefined;
  }

  /**
   * A key for this function call, the same every time the call is run (after a crash, in another
   * process): pass it to the system a tool changes (a payment API's `Idempotency-Key`, a unique column),
   * so running the call twice has the effect of running it once. Derived from the app, user, session and
   * call id (a SHA-256, 64 hex characters); see `@Tool({ idempotent })`.
   */
  get idempotencyKey(): string {
    return createHash('sha256').update(JSON.stringify([this.appName, this.userId, this.sessionId, this.functionCallId])).digest('hex');
  }

  /**
   * Aborted when this call times out (`@Tool({ timeoutMs })`) or the run is cancelled; pass it to `fetch`
   * and other cancellable work. Each call has its own signal.
   */
  get signal(): AbortSignal {
    return this.callSignal().signal;
  }

  /** @internal Aborts this call's signal (a timeout); called by the executor. */
  abortCall(reason: unknown): void {
    this.callSignal().abort(reason);
  }

  /** @internal The invocation's signal (the run being cancelled), when something can abort it. Read by the executor. */
  get runSignal(): AbortSignal | undefined {
    return this.invocationSignal;
  }

  /** @internal The reason the call was cancelled, once it was. */
  get cancelledBy(): ToolsmithError | undefined {
    return this.cancellation?.reason;
  }

  /**
   * @internal Cancels the call (it timed out, or its run was aborted) so that it leaves nothing behind:
   * aborts its signal, empties its actions (state writes, artifact delta, transfer, …), refuses its later
   * state writes and artifact saves with `reason`, and deletes the artifact versions it saved. Resolves
   * once they are deleted; calling it again returns the same promise. Called by the executor.
   */
  cancel(reason: ToolsmithError): Promise<void> {
    if (this.cancellation) return this.cancellation.discarded;
    if (!this.callSignal().signal.aborted) this.abortCall(reason);
    this.state.seal(reason);
    const { actions } = this;
    for (const key of Object.keys(actions.stateDelta)) delete actions.stateDelta[key];
    delete actions.stateOps;
    for (const key of Object.keys(actions.artifactDelta)) delete actions.artifactDelta[key];
    delete actions.transferToAgent;
    delete actions.escalate;
    delete actions.skipSummarization;
    delete actions.requestedToolConfirmations;
    const saved = this.savedVersions ?? [];
    this.savedVersions = undefined;
    const discarded = Promise.all(saved.map(({ filename, version }) => this.deleteSavedVersion(filename, version))).then(() => undefined);
    this.cancellation = { reason, discarded };
    return discarded;
  }

  private deleteSavedVersion(filename: string, version: number): Promise<void> {
    return this.artifactService!.deleteArtifactVersion({ ...this.location(), filename, version });
  }

  /** @internal The call is over: its signal stops following the invocation's. Called by the executor. */
  endCall(): void {
    this.unlinkCall?.();
    this.unlinkCall = undefined;
  }

  private callSignal(): AbortController {
    if (this.callController) return this.callController;
    const controller = (this.callController = new AbortController());
    const parent = this.invocationSignal;
    if (parent?.aborted) controller.abort(parent.reason);
    else if (parent) {
      const onAbort = () => controller.abort(parent.reason);
      parent.addEventListener('abort', onAbort, { once: true });
      this.unlinkCall = () => parent.removeEventListener('abort', onAbort);
    }
    return controller;
  }

  /**
   * Asks the user to confirm this call before its effect happens. The runner pauses the invocation
   * and emits a confirmation request; the tool is called again with `toolConfirmation` set once answered.
   * `editable: false` says the question is about the call as it was made, so an answer with `edit` is
   * refused (`INVALID_CONFIRMATION_ANSWER`) and the request stays open.
   */
  requestConfirmation(request: { hint?: string; payload?: unknown; payloadSchema?: JsonSchema; editable?: boolean } = {}): void {
    const requested = (this.actions.requestedToolConfirmations ??= {});
    requested[this.functionCallId] = { hint: request.hint, payload: request.payload, confirmed: false, askedBy: 'tool' };
    if (request.payloadSchema !== undefined) requested[this.functionCallId].payloadSchema = request.payloadSchema;
    if (request.editable === false) requested[this.functionCallId].editable = false;
  }

  /**
   * Asks the user for a credential for `authConfig` and ends this call: the runner pauses the
   * invocation with a `toolsmith_request_credential` request (for OAuth2 carrying the authorization URL;
   * its state and PKCE verifier stay on the server) and calls the tool again once the user answered.
   * Await it; what the tool returns after it is dropped.
   *
   * @example
   * ```ts
   * const credential = await ctx.getAuthResponse(calendarAuth);
   * if (!credential) return ctx.requestCredential(calendarAuth);
   * ```
   */
  async requestCredential(authConfig: AuthConfig): Promise<void> {
    const record = await this.credentialManager('ctx.requestCredential').begin(this, authConfig);
    const previous = (this.toolConfirmation?.payload as { authError?: { code: string; message: string } } | undefined)?.authError;
    if (previous) record.error = previous; // asking again after a refused code: the client learns why
    const requested = (this.actions.requestedToolConfirmations ??= {});
    requested[this.functionCallId] = { confirmed: false, auth: record };
  }

  /**
   * The user's credential for `authConfig`: the one the user just supplied when this call runs again
   * after {@link ToolContext.requestCredential}, or one stored earlier (refreshed first when expired).
   * `undefined` when there is none (or its refresh was refused): ask with `requestCredential`.
   */
  async getAuthResponse(authConfig: AuthConfig): Promise<AuthCredential | undefined> {
    const credential = await this.credentialManager('ctx.getAuthResponse').current(this, authConfig);
    // Its values are redacted from this call's error (the model must never see them).
    if (credential) noteInjectedCredential(this, credential);
    return credential;
  }

  /** @internal Sets {@link ToolContext.credential} for the tool's `auth`, or asks for it; false when the call must pause. Called by the executor. */
  async prepareCredential(authConfig: AuthConfig): Promise<boolean> {
    const credential = await this.getAuthResponse(authConfig);
    if (credential) {
      this.credential = credential;
      return true;
    }
    await this.requestCredential(authConfig);
    return false;
  }

  private credentialManager(method: string): CredentialManager {
    if (!this.credentials) throw new CredentialServiceMissingError(method);
    return this.credentials;
  }

  /** Searches the user's long-term memory. */
  async searchMemory(query: string): Promise<SearchMemoryResponse> {
    if (!this.memoryService) throw serviceNotConfigured('memoryService', 'searchMemory');
    return this.memoryService.searchMemory({ appName: this.appName, userId: this.userId, query });
  }

  /**
   * Saves a new version of an artifact and records it in `actions.artifactDelta`. Returns the version.
   * If the call is then cancelled (timeout, aborted run), the version is deleted again.
   */
  async saveArtifact(filename: string, artifact: Part): Promise<number> {
    if (this.cancellation) throw this.cancellation.reason;
    const version = await this.artifacts('saveArtifact').saveArtifact({ ...this.location(), filename, artifact });
    const cancelledBy = this.cancelledBy; // it may have been cancelled while the save ran
    if (cancelledBy) {
      await this.deleteSavedVersion(filename, version);
      throw cancelledBy;
    }
    (this.savedVersions ??= []).push({ filename, version });
    this.actions.artifactDelta[filename] = version;
    return version;
  }

  /** Loads an artifact (the latest version unless `version` is given). */
  async loadArtifact(filename: string, version?: number): Promise<Part | undefined> {
    return this.artifacts('loadArtifact').loadArtifact({ ...this.location(), filename, version });
  }

  /** Filenames of the artifacts visible to this session. */
  async listArtifacts(): Promise<string[]> {
    return this.artifacts('listArtifacts').listArtifactKeys(this.location());
  }

  private location() {
    return { appName: this.appName, userId: this.userId, sessionId: this.sessionId };
  }

  private artifacts(method: string): ArtifactService {
    if (!this.artifactService) throw serviceNotConfigured('artifactService', method);
    return this.artifactService;
  }
}

/**
 * The error for a `ctx` method whose service was never given. It names both places a service can come from,
 * since the same tool may run under a Runner or be served over MCP.
 */
function serviceNotConfigured(service: 'memoryService' | 'artifactService', method: string): ToolsmithError {
  return new ToolsmithError(
    'SERVICE_NOT_CONFIGURED',
    serviceNotConfiguredMessage(service, method),
  );
}
