import { DBOS, type WorkflowHandle } from '@dbos-inc/dbos-sdk';
import type { BaseAgent, Content, CredentialService, Event, RunnerOptions, Session, SessionService } from '@toolsmith/core';
import { FunctionResponseNotPendingError, InvalidMessageError, Runner, checkFunctionResponses, confirmationRequests, findPendingCalls } from '@toolsmith/core';
import { type WithheldCredentials, checkMessageId, checkedPlugins, copyNewMessage, redactedCredentialAnswer, runInputProblem, runWithInvocationId, saveTypedCredentials, unreadableRunInput, withholdCredentials } from '@toolsmith/core/internal';
import { createHash, randomUUID } from 'node:crypto';
import { CallerSavedCredentials } from './caller-saved-credentials';
import { DurableSessionService } from './durable-session-service';
import { type DurableAnswer, DURABLE_WAIT_NAMES, answeredIds, pausedWorkflowId } from './durable-waits';
import { DurableSteps } from './durable-steps';
import { redactCredentialAnswers } from './redact-credential-answers';
import { StepPayloads } from './step-payloads';

/** Options of {@link DurableRunner}: the runner's, with the store every worker shares. */
export interface DurableRunnerOptions<TAgent extends BaseAgent = BaseAgent> extends Omit<RunnerOptions<TAgent>, 'maxConcurrentToolCalls' | 'sessionService'> {
  /** The session store all workers share (e.g. `PostgresSessionService` on the database DBOS uses). */
  sessionService: SessionService;
  /**
   * How long a paused run started with {@link DurableRunner.start} (a confirmation request, a
   * long-running tool call) waits in its workflow for the answer, in seconds; 7 days by default (a run
   * on a queue never waits: it ends at the pause). After it, the run ends paused and an answer starts a
   * new run. `0`: a paused run ends at once.
   */
  answerTimeoutSec?: number;
  /**
   * A step output (a model response, a tool response) whose JSON is longer than this is saved with
   * the runner's `artifactService` and the step records its reference instead; 64 000 by default.
   * Without an `artifactService`, step outputs are recorded whole.
   */
  largeOutputChars?: number;
}

/** Input of {@link DurableRunner.start}: the runner's input, minus what cannot cross a process (signals, streaming). */
export interface DurableRunInput {
  /** The user the run is for. */
  userId: string;
  /** The session to continue (created empty when it does not exist). */
  sessionId: string;
  /** The user's message (text, or function responses answering a pause). */
  newMessage: Content;
  /**
   * The client's id for this message, unique in the session. It names the run's workflow, so the same
   * message started twice (on any worker) is one run; see {@link durableWorkflowId}.
   */
  messageId?: string;
}

/** What a durable run came to: small on purpose (it is stored with the workflow). The run's events are in the session. */
export interface DurableRunResult {
  /**
   * The invocation id of the run's events in the session: the same in every execution of its workflow (a run
   * recovered after a crash goes on under it). A run that waited for an answer: its last invocation's (the answer's).
   */
  invocationId: string;
  /** The answer's text: the last event's text when it is a final response and no error; else `''`. */
  text: string;
  /** The error the run ended on, if it ended on one. */
  error?: { code: string; message: string };
  /** Ids of the confirmation requests the run paused on (answer them in a later run). */
  confirmationIds: string[];
}

/**
 * Runs agents as DBOS workflows: one invocation is one workflow, each model call and each tool call a
 * checkpointed step, and every event the run stores is recorded as a step too. After a crash, DBOS
 * recovers the workflow (on the restarted worker with the same `executorID`) and the run goes on from
 * its last recorded step: a completed model call is not made again, a tool call that was cut off is
 * answered `TOOL_INTERRUPTED` (or, for a tool declared `idempotent`, run again with the same
 * `ctx.idempotencyKey`). See docs/durable.md.
 *
 * Build it (every worker builds the same agents and toolsets) before `DBOS.launch()`: its workflow is
 * registered in the constructor.
 *
 * @example
 * ```ts
 * const durable = new DurableRunner({ appName: 'shop', agent, sessionService: new PostgresSessionService({ connectionString }) });
 * DBOS.setConfig({ name: 'shop', systemDatabaseUrl: connectionString });
 * await DBOS.launch();
 * const { text } = await durable.ask({ userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'Hi' }] } });
 * ```
 */
export class DurableRunner<TAgent extends BaseAgent = BaseAgent> {
  /** The runner each workflow runs (its session store and plugins wrapped for recording). */
  readonly runner: Runner<TAgent>;
  /** The workflow's registered name, `toolsmith.run.<appName>`: stable across releases (recovery finds workflows by it). */
  readonly workflowName: string;
  private readonly steps: DurableSteps;
  private readonly sessionService: SessionService;
  private readonly credentialService: CredentialService | undefined;
  private readonly answerTimeoutSec: number;
  private readonly workflow: (input: DurableRunInput, mode?: RunMode) => Promise<DurableRunResult>;
  private readonly claim: (claim: AnswerClaim) => Promise<string>;
  private readonly callClaim: (claim: CallClaim) => Promise<boolean>;
  /** The calls each run executing in this process waits for, by workflow id (see {@link execute}). */
  private readonly waits = new Map<string, Set<string>>();

  constructor(options: DurableRunnerOptions<TAgent>) {
    // Checked here, before the steps' own plugin is put first: errors (and an unnamed plugin's name) give the user's index.
    const plugins = checkedPlugins(options.plugins, "The DurableRunner's");
    this.steps = new DurableSteps(options.agent, new StepPayloads(options.artifactService, options.largeOutputChars ?? 64_000));
    this.sessionService = options.sessionService;
    this.credentialService = options.credentialService;
    this.answerTimeoutSec = options.answerTimeoutSec ?? 7 * 24 * 60 * 60;
    this.runner = new Runner<TAgent>({
      ...options,
      sessionService: new DurableSessionService(options.sessionService, (event, session) => this.stored(event, session)),
      // A credential the user types in is saved by start/enqueue, in the caller's process: the workflow gets it [redacted].
      credentialService: options.credentialService && new CallerSavedCredentials(options.credentialService),
      plugins: [this.steps, ...plugins],
      maxConcurrentToolCalls: 1,
    });
    this.workflowName = `toolsmith.run.${options.appName}`;
    this.workflow = DBOS.registerWorkflow((input: DurableRunInput, mode?: RunMode) => this.execute(input, mode ?? {}), { name: this.workflowName });
    this.claim = DBOS.registerWorkflow(
      async ({ workflowId, answer, token, saves, run }: AnswerClaim) => {
        // The answer took every call it answers, and a typed credential was saved before this started. (An
        // answer recorded by an earlier release, with `saves`, waits for its sender to say it saved it.)
        if (saves) await DBOS.recv<boolean>(DURABLE_WAIT_NAMES.savedTopic, { timeoutSeconds: SAVE_WAIT_SEC });
        if (run) {
          await DBOS.startWorkflow(this.workflow, {
            workflowID: workflowId,
            ...(run.queueName === undefined ? {} : { queueName: run.queueName, enqueueOptions: { queuePartitionKey: partitionKey(this.runner.appName, run.input) } }),
          })(run.input, run.mode);
        } else {
          await DBOS.send(workflowId, answer, DURABLE_WAIT_NAMES.answerTopic);
        }
        return token;
      },
      { name: `toolsmith.answer.${options.appName}` },
    );
    this.callClaim = DBOS.registerWorkflow(
      async ({ token, answerId }: CallClaim) => {
        // Who took the call; then whether that answer kept it (it took every call it answers) or gave it up.
        await DBOS.setEvent(DURABLE_WAIT_NAMES.claimEvent, token);
        const kept = await DBOS.recv<boolean>(DURABLE_WAIT_NAMES.keptTopic, { timeoutSeconds: SAVE_WAIT_SEC });
        // Its sender never said (it died): kept when the answer went on.
        return kept ?? (await DBOS.getWorkflowStatus(answerId)) !== null;
      },
      { name: `toolsmith.claim.${options.appName}` },
    );
  }

  /**
   * Starts the run as a workflow and returns its handle (`getResult()` waits for it, from any process
   * with `DBOS.retrieveWorkflow(id)`). With a `messageId`, starting the same message again returns the
   * same run. A message that answers a run waiting for it (confirmation responses, long-running tool
   * updates) is sent to that run, and the handle is that run's.
   */
  async start(input: DurableRunInput): Promise<WorkflowHandle<DurableRunResult>> {
    const checked = this.checked(input);
    const answered = await this.answer(checked, {});
    if ('workflowID' in answered) return answered;
    return DBOS.startWorkflow(this.workflow, { workflowID: answered.messageId === undefined ? undefined : durableWorkflowId(this.runner.appName, answered) })(answered);
  }

  /**
   * Puts the run on DBOS queue `queueName` (registered with {@link registerRunQueue}) instead of
   * starting it here: a worker that listens to the queue runs it, one run per session at a time across
   * all workers (the queue is partitioned by session), within the queue's limits. With a `messageId`,
   * enqueuing the same message again returns the same run. A queued run does not wait in its workflow
   * when it pauses: it ends there (its result lists the `confirmationIds`), so that it keeps neither its
   * queue slot nor its session, and the answer, enqueued like any message, is a new run of the session,
   * judged there. An answer to a run started with {@link DurableRunner.start} that waits is sent to it,
   * as with `start`.
   */
  async enqueue(input: DurableRunInput, queueName: string): Promise<WorkflowHandle<DurableRunResult>> {
    const checked = this.checked(input);
    const answered = await this.answer(checked, { queueName });
    if ('workflowID' in answered) return answered;
    return DBOS.startWorkflow(this.workflow, {
      workflowID: answered.messageId === undefined ? undefined : durableWorkflowId(this.runner.appName, answered),
      queueName,
      enqueueOptions: { queuePartitionKey: partitionKey(this.runner.appName, answered) },
    })(answered, { endAtPause: true });
  }

  /** Starts the run (see {@link DurableRunner.start}) and waits for what it came to. */
  async ask(input: DurableRunInput): Promise<DurableRunResult> {
    return (await this.start(input)).getResult();
  }

  /** Releases the toolsets of every agent (DBOS itself is shut down with `DBOS.shutdown()`). */
  close(): Promise<void> {
    return this.runner.close();
  }

  /**
   * `input` read once, into the plain copy everything after reads (which run it answers, what is claimed,
   * what is sent or started), checked as `Runner` checks its input: string ids, a `messageId` it would keep,
   * the message as a new message is checked (its shape, the runner's `argumentLimits`, its files). Throws
   * `InvalidMessageError` for what `Runner` would refuse: nothing starts.
   */
  private checked(input: DurableRunInput): DurableRunInput {
    let userId: unknown, sessionId: unknown, messageId: unknown, given: unknown;
    try {
      // Each member read once, as Runner reads its input.
      ({ userId, sessionId, messageId, newMessage: given } = input);
    } catch (thrown) {
      throw unreadableRunInput(thrown);
    }
    // As Runner refuses them: ids that are not strings, a messageId it would not keep (it names the workflow and the claim).
    const refused = runInputProblem(userId, sessionId, undefined, undefined) ?? (messageId === undefined ? undefined : checkMessageId(messageId));
    if (refused) throw refused;
    const newMessage = copyNewMessage(given, this.runner.argumentLimits);
    if (newMessage instanceof InvalidMessageError) throw newMessage;
    const ids = { userId: userId as string, sessionId: sessionId as string };
    return messageId === undefined ? { ...ids, newMessage } : { ...ids, newMessage, messageId: messageId as string };
  }

  /**
   * Sends `input` (checked: see {@link checked}) to the run waiting for it, if it answers one that still runs; resolves to that run's
   * handle, else to the input of the new run to start. The answer is checked against the session first (a refused one throws its typed error and
   * is not sent), then claimed: every call it answers, one by one in id order, all or nothing (a claim
   * per call and pause, named by the session, the call id and the event that paused on it), so that of
   * the answers to one call, alone or with other calls, exactly one is sent and every other gets
   * `FUNCTION_RESPONSE_NOT_PENDING` (reason `answered`). The same `messageId` again is the same answer:
   * it gets the run's handle.
   *
   * Every answer is handled so whether a run waits for it or not, with a credential the user typed in
   * (`{ credential: … }`) or without: checked, claimed, the winner's typed credential saved in this process
   * (see {@link save}), and only then sent on (when no run waits, the answer's workflow starts the new run);
   * DBOS only ever gets the answer with its values `[redacted]`. A save that fails gives the claims up: the
   * request stays pending, as with `Runner`. When no run waits, one
   * that is refused (or given again after its run) is started as a new run like any message, `[redacted]`,
   * and judged there: it saves nothing.
   */
  private async answer(input: DurableRunInput, queue: { queueName?: string }): Promise<WorkflowHandle<DurableRunResult> | DurableRunInput> {
    const ids = answeredIds(input.newMessage);
    const withheld = ids.length === 0 ? undefined : withholdCredentials(input.newMessage);
    // What DBOS gets: typed credentials, and anything a refused credential answer holds, [redacted].
    const redacted = redactCredentialAnswers(withheld ? withheld.stored : input.newMessage);
    const given: DurableRunInput = redacted === input.newMessage ? input : { ...input, newMessage: redacted };
    if (ids.length === 0) return given;
    const { appName } = this.runner;
    const session = await this.sessionService.getSession({ appName, userId: input.userId, sessionId: input.sessionId });
    const waitingRun = session && this.answerTimeoutSec > 0 ? await waitingRunOf(session, ids) : undefined;
    const answered = JSON.stringify([...ids].sort());
    const sessionKey = `toolsmith:${JSON.stringify([appName, input.userId, input.sessionId])}`;
    const token = input.messageId === undefined ? `random:${randomUUID()}` : `message:${input.messageId}`;
    // The answer's own workflow (one per answer: the same message again is the same one): it sends the answer on.
    const answerId = `${waitingRun ?? sessionKey}::answer::${answered}::${token}`;
    // The run the answer goes to: the one waiting, else the one the answer's workflow starts.
    const runId = waitingRun ?? (input.messageId === undefined ? `${answerId}::run` : durableWorkflowId(appName, input));
    if (input.messageId !== undefined && (await DBOS.getWorkflowStatus(answerId))) {
      // This very message again: its answer went on (its credential was saved before it did).
      return DBOS.retrieveWorkflow<DurableRunResult>(runId);
    }
    // Judged against the session: a refused answer is sent nowhere (nothing saved), and the run goes on waiting.
    const refusal = checkFunctionResponses(session?.events ?? [], input.newMessage);
    // A typed value that is `[redacted]` (an answer read back from the session) is refused here, run waiting or not: the
    // workflow's runner, handed every typed answer [redacted], could not tell it from one saved here.
    const marked = withheld && this.credentialService ? redactedCredentialAnswer(withheld.answers) : undefined;
    if (marked && !refusal) throw marked;
    if (refusal && waitingRun === undefined) return given;
    if (refusal) throw refusal;
    const answer: DurableAnswer = { newMessage: given.newMessage, ...(input.messageId === undefined ? {} : { messageId: input.messageId }) };
    const claim: AnswerClaim = { workflowId: runId, answer, token };
    if (waitingRun === undefined) claim.run = queue.queueName === undefined ? { input: given, mode: {} } : { input: given, mode: { endAtPause: true }, queueName: queue.queueName };
    // Every request the answer answers (a confirmation, a credential, an update's question) is claimed, one by
    // one in id order, all or nothing: of the answers to one request (alone or with others), exactly one takes
    // it. A long-running call's update is not: the call takes every update until its final one, as with Runner.
    const requests = findPendingCalls(session?.events ?? []).confirmations;
    const claimed = [...new Set(ids)].filter((id) => requests.has(id)).sort();
    if (claimed.length === 0 && waitingRun === undefined) return given; // updates only: a new run, judged there
    const held: string[] = [];
    for (const id of claimed) {
      const claimId = await this.claimCall(`${sessionKey}::claim::${JSON.stringify([id, pauseOf(session, id)])}`, token, answerId);
      if (claimId === undefined) {
        await Promise.all(held.map((taken) => DBOS.send(taken, false, DURABLE_WAIT_NAMES.keptTopic)));
        throw new FunctionResponseNotPendingError(id, 'answered');
      }
      held.push(claimId);
    }
    if (withheld) {
      try {
        await this.save(input.userId, session, withheld);
      } catch (error) {
        // Not saved: the answer gives up every call it took (each goes to the next claim), and its request stays pending.
        await Promise.all(held.map((taken) => DBOS.send(taken, false, DURABLE_WAIT_NAMES.keptTopic)));
        throw error;
      }
    }
    const handle = await DBOS.startWorkflow(this.claim, { workflowID: answerId })(claim);
    await Promise.all(held.map((taken) => DBOS.send(taken, true, DURABLE_WAIT_NAMES.keptTopic)));
    await handle.getResult();
    return DBOS.retrieveWorkflow<DurableRunResult>(runId);
  }

  /**
   * Claims one call for the answer `token` (whose workflow is `answerId`): the claim is a workflow
   * `<base>#<n>`, taken by the first answer to start it; an answer that took it and gave it up (it lost
   * another of its calls) leaves the call to the next claim, `<base>#<n+1>`. Resolves to the claim's id,
   * or `undefined` when another answer kept the call.
   */
  private async claimCall(base: string, token: string, answerId: string): Promise<string | undefined> {
    for (let n = 0; ; n++) {
      const claimId = `${base}#${n}`;
      await DBOS.startWorkflow(this.callClaim, { workflowID: claimId })({ token, answerId });
      const holder = await DBOS.getEvent<string>(claimId, DURABLE_WAIT_NAMES.claimEvent, SAVE_WAIT_SEC);
      if (holder === token && (await DBOS.getWorkflowStatus(claimId))?.status !== 'SUCCESS') return claimId;
      // Another answer's (or this message's own, given up before): wait for whether it kept the call.
      if (await DBOS.retrieveWorkflow<boolean>(claimId).getResult()) return holder === token ? claimId : undefined;
    }
  }

  /**
   * Saves the credentials `withheld` took out of an answer whose calls this process claimed, with the app's
   * credential service, before the answer goes on. Throws `CredentialSaveFailedError` (its message never
   * quotes the credential) when the service fails. Each credential is saved under the auth config of the
   * request it answers, read from the session as it was before that request was answered.
   */
  private async save(userId: string, session: Session | undefined, withheld: WithheldCredentials): Promise<void> {
    // Without a credential service nothing is saved: the call fails with CREDENTIAL_SERVICE_MISSING, as with Runner.
    if (this.credentialService && session) await saveTypedCredentials(this.credentialService, { appName: this.runner.appName, userId }, beforeAnswered(session, withheld), withheld);
  }

  /**
   * The workflow: one invocation, then, while it paused on calls not yet answered, a durable wait for
   * the answer (`DBOS.recv`) and one more invocation with it.
   */
  private async execute(input: DurableRunInput, mode: RunMode): Promise<DurableRunResult> {
    const end = this.steps.beginExecution(DBOS.workflowID!);
    try {
      const waiting = new Set<string>();
      // A call leaves `waiting` when an answer to it is stored (see stored), never when it is only handed to the runner, which may refuse it.
      this.waits.set(DBOS.workflowID!, waiting);
      let message: DurableAnswer = { newMessage: input.newMessage, ...(input.messageId === undefined ? {} : { messageId: input.messageId }) };
      for (let invocation = 0; ; invocation++) {
        // The same id in every execution of the workflow: a recovered run stores its events under the id it began with.
        const invocationId = durableInvocationId(DBOS.workflowID!, invocation);
        const result = await this.invoke({ userId: input.userId, sessionId: input.sessionId, ...message }, invocationId, waiting);
        if (waiting.size === 0 || this.answerTimeoutSec <= 0 || mode.endAtPause) return result;
        await DBOS.setEvent(DURABLE_WAIT_NAMES.waitingEvent, [...waiting]);
        const answer = await DBOS.recv<DurableAnswer>(DURABLE_WAIT_NAMES.answerTopic, { timeoutSeconds: this.answerTimeoutSec });
        await DBOS.setEvent(DURABLE_WAIT_NAMES.waitingEvent, []);
        if (answer === null) return result;
        message = answer;
      }
    } finally {
      this.waits.delete(DBOS.workflowID!);
      end();
    }
  }

  /**
   * Called with each event a run stores: the calls it answers no longer wait, nor does any request it
   * closed (an update's question a final update or a newer question closed; see {@link execute}).
   */
  private stored(event: Event, session: Session): void {
    const waiting = this.waits.get(DBOS.workflowID!);
    if (!waiting) return;
    for (const response of event.functionResponses()) waiting.delete(response.id);
    if (waiting.size === 0) return;
    const pending = findPendingCalls(session.events);
    for (const id of waiting) if (!pending.confirmations.has(id) && !pending.longRunning.has(id)) waiting.delete(id);
  }

  /**
   * One invocation of the runner, under `invocationId`: what it came to. `waiting` keeps the calls still waiting for an
   * answer: each long-running call (confirmation requests included) is added, each answered one taken out.
   */
  private async invoke(input: DurableRunInput, invocationId: string, waiting: Set<string>): Promise<DurableRunResult> {
    let last: Event | undefined;
    const confirmationIds: string[] = [];
    for await (const event of runWithInvocationId(this.runner, { ...input, streaming: false }, invocationId)) {
      last = event;
      for (const request of confirmationRequests(event)) confirmationIds.push(request.call.id);
      for (const response of event.functionResponses()) waiting.delete(response.id);
      for (const id of event.longRunningToolIds ?? []) waiting.add(id);
    }
    const error = last?.errorCode !== undefined ? { code: last.errorCode, message: last.errorMessage ?? '' } : undefined;
    const text = last && !error && last.isFinalResponse() ? last.text() : '';
    return { invocationId, text, ...(error ? { error } : {}), confirmationIds };
  }
}

/**
 * The invocation id of the `index`-th invocation of workflow `workflowId` (0: the run of its message; 1, 2, …: each
 * answer it waited for): derived from the workflow's identity, so every execution of the workflow (the first, and each
 * recovery after a crash, on any worker) stores its events under the same id. `inv-` and 32 hex digits of a SHA-256.
 */
function durableInvocationId(workflowId: string, index: number): string {
  return `inv-${createHash('sha256').update(JSON.stringify([workflowId, index])).digest('hex').slice(0, 32)}`;
}

/** How long a claim waits for its winner to save a typed credential before the answer goes on without it (seconds). */
const SAVE_WAIT_SEC = 60;

/** The run that paused on one of `ids` and still waits for its answer, if one does. */
async function waitingRunOf(session: Session, ids: readonly string[]): Promise<string | undefined> {
  const paused = session.events.findLast((event) => pausedWorkflowId(event, ids) !== undefined);
  if (!paused) return undefined;
  const workflowId = pausedWorkflowId(paused, ids)!;
  const status = await DBOS.getWorkflowStatus(workflowId);
  return status?.status === 'PENDING' || status?.status === 'ENQUEUED' ? workflowId : undefined;
}

/** The session's events before the first one that answers a request `withheld` answers: those requests pending. */
function beforeAnswered(session: Session, withheld: WithheldCredentials): Session['events'] {
  const answered = session.events.findIndex((event) => event.functionResponses().some((response) => withheld.answers.has(response.id)));
  return answered < 0 ? session.events : session.events.slice(0, answered);
}

/** The pause `id` is answered on: the id of the last event of `session` that waits for it (`''` when none does). */
function pauseOf(session: Session | undefined, id: string): string {
  return session?.events.findLast((event) => event.longRunningToolIds?.includes(id))?.id ?? '';
}

/** What claims one call for an answer (the input of a call's claim workflow). */
interface CallClaim {
  /** The answer's token (see {@link AnswerClaim}). */
  token: string;
  /** The answer's workflow: a claim whose sender never says whether it kept the call is kept when it exists. */
  answerId: string;
}

/** The queue partition of a session's runs: one run per session at a time. */
function partitionKey(appName: string, input: Pick<DurableRunInput, 'userId' | 'sessionId'>): string {
  return JSON.stringify([appName, input.userId, input.sessionId]);
}

/** How a run's workflow runs (its second argument, recorded with it). */
interface RunMode {
  /** Ends the run at a pause instead of waiting in the workflow (a queued run: a wait would keep its queue slot and its session). */
  endAtPause?: boolean;
}

/** What claims an answer (the input of the claim workflow): the run, the answer, who sent it. */
interface AnswerClaim {
  /** The run the answer goes to: the one waiting for it, or, with `run`, the one the claim starts. */
  workflowId: string;
  /** The answer, its typed credentials `[redacted]`. */
  answer: DurableAnswer;
  /** `message:<messageId>`, or a random token for an answer without one. */
  token: string;
  /** Set by earlier releases, which sent a typed credential's answer on before saving it: its workflow waits for its sender to say it saved it. */
  saves?: true;
  /** No run waits: the claim starts this one (the session's new run, with the answer). */
  run?: { input: DurableRunInput; mode: RunMode; queueName?: string };
}

/** The workflow id of a run with a `messageId`: one per app, user, session and message. */
export function durableWorkflowId(appName: string, input: Pick<DurableRunInput, 'userId' | 'sessionId' | 'messageId'>): string {
  return `toolsmith:${JSON.stringify([appName, input.userId, input.sessionId, input.messageId])}`;
}

/** Limits of a run queue (see {@link registerRunQueue}). */
export interface RunQueueOptions {
  /** Runs of this queue one worker process runs at a time. */
  workerConcurrency?: number;
  /** Runs of this queue all workers run at a time. */
  globalConcurrency?: number;
  /** At most `limitPerPeriod` runs started per `periodSec` seconds (e.g. one queue per provider and its rate limit). */
  rateLimit?: { limitPerPeriod: number; periodSec: number };
}

/**
 * Registers (or updates) the DBOS queue `name` for {@link DurableRunner.enqueue}: partitioned by
 * session with one run per session at a time, and the given limits. Call it in every worker, after
 * `DBOS.launch()`.
 */
export async function registerRunQueue(name: string, options: RunQueueOptions = {}): Promise<void> {
  await DBOS.registerQueue(name, { ...options, partitionConcurrency: 1 });
}
