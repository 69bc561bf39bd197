import type { BaseAgent } from '../agents/base-agent';
import { InvocationContext, type InvocationServices } from '../agents/invocation-context';
import { checkFunctionResponses } from '../confirmation/check-function-responses';
import { checkEditedArguments } from '../confirmation/edited-arguments';
import { checkRememberHasStore } from '../confirmation/remembered-grants';
import { RunAbortedError } from '../errors/run-aborted-error';
import { InvalidMessageError } from '../errors/invalid-message-error';
import { linkCallerSignal } from './caller-signal';
import { StateConflictError } from '../errors/state-conflict-error';
import { answerConflictingCalls } from '../flow/function-call-handler';
import { type EventSteps, generatorSteps } from '../flow/event-steps';
import { LlmFlow } from '../flow/llm-flow';
import { LlmAgent } from '../agents/llm-agent';
import { ToolsmithError } from '../errors/toolsmith-error';
import { Event } from '../events/event';
import { idSequence } from '../events/event-id';
import type { Content } from '../model/content';
import type { Usage } from '../model/llm-response';
import { addUsage } from '../model/usage-total';
import type { Session } from '../sessions/session';
import type { LoadedSession } from '../sessions/session-claim';
import type { SessionKey, SessionService } from '../sessions/session-service';
import { type SynchronousSessionWrites, synchronousWrites } from '../sessions/synchronous-session-writes';
import { StatePrefix } from '../state/state';
import { type CopiedMessage, checkMessageId, copyNewMessage, refusedEditsOf } from './check-new-message';
import { withholdCredentials } from '../confirmation/withhold-credentials';
import { saveTypedCredentials } from '../confirmation/save-typed-credentials';
import { redactedCredentialAnswer, savedByCaller } from '../confirmation/redacted-credential-answer';
import { errorEvent, errorFields } from '../flow/error-event';
import { interruptedCallEvents } from './interrupted-calls';
import type { SessionTurn, SessionTurns } from './session-turns';
import { HeldClaim } from './held-claim';
import type { ResolvedSessionClaimPolicy } from './session-claim-policy';
import type { InvocationTrace } from '../tracing/invocation-trace';
import type { Context } from '@opentelemetry/api';
import { runFailure } from '../errors/run-failure';
import { reportableError } from '../errors/reportable-error';

const newInvocationId = idSequence('inv');

/** Input of {@link runInvocation}. */
/** What every run of one caller shares (a runner's: made once, with the runner, not per run). */
export interface RunTerms {
  /** The agent, or what chooses it from the loaded session and the new message's checked copy (never the caller's object). */
  agent: BaseAgent | ((session: Session, newMessage: Content | undefined) => BaseAgent);
  /** Author of error events raised before the agent is known (e.g. the session could not be loaded). */
  fallbackAuthor?: string;
  /** With a session key: runs on one session take turns through this queue (see {@link SessionTurns}). */
  turns?: SessionTurns;
  /** With a session key: the run claims the session in the store (one writer across processes) on these terms. */
  claim?: ResolvedSessionClaimPolicy;
  /**
   * The run is for a user's message (`Runner.run`): without `newMessage` it yields one `INVALID_MESSAGE`
   * event and takes, stores and runs nothing. Without this, no message runs the agent on the session as it is.
   */
  requireMessage?: boolean;
}

export interface RunInvocationInput {
  /** The terms this run shares with its caller's other runs. */
  terms: RunTerms;
  /** The session, or the key of the session to continue (created empty when it does not exist). */
  session: Session | SessionKey;
  newMessage?: Content;
  signal?: AbortSignal;
  streaming?: boolean;
  /** The client's id of `newMessage`: a message whose id the session already holds is answered with what it produced, not run again. */
  messageId?: string;
  /** The caller's input was refused (`Runner.run`): the run yields this error alone and takes, stores and runs nothing. */
  refused?: ToolsmithError;
  /** The invocation's id, when its caller names it (a durable run: the same in every execution of its workflow); else a new one. */
  invocationId?: string;
}

/**
 * Runs one invocation: waits for the session's turn, loads (or creates) the session, stores the user's
 * message, runs the agent, stores every complete event before the agent continues (so the agent sees it
 * in the session) and yields it. Never throws: anything that fails — loading the session, choosing the
 * agent, a store refusing a stale append (`STALE_SESSION`), the agent itself — becomes an error event;
 * an abort ends the run with a `RUN_ABORTED` event and stores nothing half-made.
 *
 * Each invocation has its own abort signal (linked to the caller's while the invocation runs), so
 * listeners that tools and SDKs add to `ctx.signal` go away with the invocation.
 *
 * Traced (a span around it, see docs/observability.md) when the runner's tracing would record a span.
 */
export function runInvocation(services: InvocationServices, input: RunInvocationInput): AsyncGenerator<Event, void, undefined> {
  // Decided here, not per event: an invocation nothing could trace does no span work. A traced one starts
  // its span when the run starts (its first next()), in the context active now.
  return new InvocationRun(services, input, services.tracing?.invocationParent());
}

/** Where an {@link InvocationRun} goes on from, once the events in hand are out. */
const enum Phase {
  /** Not started: nothing is taken or read yet. */
  Start,
  /** The session is loaded and the message checked (or being so): the message is stored next, then the agent runs. */
  Message,
  /** The message is stored: the agent's run starts next. */
  Stored,
  /** The agent runs: the next batch of its events. */
  Agent,
  /** The run is over: the turn and the claim are released, once the events in hand are out. */
  Finish,
  Done,
}

type Result = IteratorResult<Event, void>;

/** The `{ done: true }` result of an iterator; a new object each time, as a generator's. */
function finished(): IteratorReturnResult<void> {
  return { value: undefined, done: true };
}

/** What `return(value)` resolves to, as a generator's: `{ value, done: true }`, `value` awaited. */
async function returned(value: void | PromiseLike<void>): Promise<IteratorReturnResult<void>> {
  return { value: await value, done: true };
}

/**
 * One invocation as an async iterator, written out by hand rather than as an async generator: the
 * agent's events come a batch at a time (see {@link EventSteps}), and each is stored, then handed out,
 * without a generator's machinery per event. It behaves as an async generator does: `next()`,
 * `return()` and `throw()` calls that overlap wait for the ones before them, in order; `return()`
 * mid-run closes the agent's run and releases the turn and the claim, as a generator's `finally` would;
 * `throw()` mid-run ends the run on an error event for it (as a generator's `catch` around its body
 * would), and `return()` or `throw()` before the first `next()` ends it without starting it.
 *
 * `next()` is no async function: it runs the run on synchronously as far as it can ({@link drive}), and
 * what must wait (the agent's next batch, an async store, a contended turn) goes on in a `then` of that
 * promise, which drives on from where the run stands. An event in hand costs no async frame.
 */
class InvocationRun implements AsyncGenerator<Event, void, undefined> {
  // `declare`: the constructor assigns every field itself, in this order (one run per message: class-field
  // definitions and parameter properties would define each field, then assign it again).
  declare private readonly services: InvocationServices;
  declare private readonly input: RunInvocationInput;
  /** The context the run's span starts in, when the runner's tracing could record one. */
  declare private readonly traceParent: Context | undefined;
  declare private phase: Phase;
  /** An operation is under way; further calls wait in {@link waiting}. */
  declare private busy: boolean;
  /** Operations waiting for the one under way (made when the first one waits). */
  declare private waiting: Array<() => void> | undefined;
  /** The promise handed out for the operation under way when it did not settle at once (see {@link later}). */
  declare private current: Promise<Result> | undefined;
  /** The answer of the last operation that waited, until it is answered: what comes after is answered after it. */
  declare private answer: Promise<Result> | undefined;
  /** Events to hand out before going on; with {@link storing}, each is stored first. */
  declare private batch: readonly Event[] | undefined;
  declare private index: number;
  declare private storing: boolean;
  /** The event at {@link index} is stored (by a store that made the run wait): it is handed out next. */
  declare private recorded: boolean;
  /** The error event of a failure was handed out: a `throw()` now ends the run with the error itself. */
  declare private failed: boolean;
  declare private steps: EventSteps | undefined;
  declare private invocationId: string;
  declare private author: string;
  declare private context: InvocationContext | undefined;
  declare private agent: BaseAgent | undefined;
  declare private turn: SessionTurn | undefined;
  declare private held: HeldClaim | undefined;
  declare private unlink: () => void;
  declare private runUsage: Usage | undefined;
  declare private endedOnError: boolean;
  /** When this run created its session in the step that then stores its message (see {@link load}), the time it did. */
  declare private createdAt: number | undefined;
  /** The spans of a traced run, from its start (its first `next()`) to its end. */
  declare private trace: InvocationTrace | undefined;
  // An in-memory store writes synchronously: each stored event then costs no await.
  declare private readonly writes: SynchronousSessionWrites | undefined;
  /** The `then` callbacks of what the run waits for, made when it first waits (see {@link wait}). */
  declare private proceed: (() => Result | Promise<Result>) | undefined;
  declare private arrived: ((batch: Event[] | undefined) => Result | Promise<Result>) | undefined;
  declare private failure: ((thrown: unknown) => Promise<Result>) | undefined;

  constructor(services: InvocationServices, input: RunInvocationInput, traceParent: Context | undefined) {
    this.services = services;
    this.input = input;
    this.traceParent = traceParent;
    this.phase = Phase.Start;
    this.busy = false;
    this.waiting = undefined;
    this.current = undefined;
    this.answer = undefined;
    this.batch = undefined;
    this.index = 0;
    this.storing = false;
    this.recorded = false;
    this.failed = false;
    this.steps = undefined;
    this.invocationId = '';
    const { terms } = input;
    this.author = typeof terms.agent === 'function' ? (terms.fallbackAuthor ?? 'runner') : terms.agent.name;
    this.context = undefined;
    this.agent = undefined;
    this.turn = undefined;
    this.held = undefined;
    this.unlink = noop;
    this.runUsage = undefined;
    this.endedOnError = false;
    this.createdAt = undefined;
    this.trace = undefined;
    this.writes = synchronousWrites(services.sessionService);
    this.proceed = undefined;
    this.arrived = undefined;
    this.failure = undefined;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** `await using`: ends the run as `return()` does. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }

  next(): Promise<Result> {
    if (this.busy || this.answer !== undefined) return this.nextLater();
    // nextNow's body, here: every event of a run is asked for through this call.
    this.busy = true;
    const result = this.drive();
    return result instanceof Promise ? (this.current = result) : Promise.resolve(result);
  }

  return(value?: void | PromiseLike<void>): Promise<Result> {
    return this.busy || this.answer !== undefined ? this.later(() => this.stop(value)) : this.awaited(this.stop(value));
  }

  throw(error: unknown): Promise<Result> {
    return this.busy || this.answer !== undefined ? this.later(() => this.raise(error)) : this.awaited(this.raise(error));
  }

  /** `next()`'s operation, started now (by a `next()` that waited). */
  private nextNow(): Promise<Result> {
    this.busy = true;
    const result = this.drive();
    return result instanceof Promise ? (this.current = result) : Promise.resolve(result);
  }

  /** `next()` once every operation before it has settled (a method of its own: `next()` makes no closure). */
  private nextLater(): Promise<Result> {
    return this.later(() => this.nextNow());
  }

  /**
   * `operation` once every operation before it has settled, answered once the operation before it is: each
   * answer is chained behind the one before, as a native async generator answers overlapping calls in order
   * (an operation that settles at once would otherwise be answered before an earlier one still resolving).
   */
  private later(operation: () => Promise<Result>): Promise<Result> {
    const before = this.answer ?? this.current;
    const answer = new Promise<Result>((resolve, reject) =>
      (this.waiting ??= []).push(() => {
        const settled = operation();
        (before === undefined ? settled : before.then(() => settled, () => settled)).then(resolve, reject);
      }),
    );
    this.awaited(answer);
    // Nothing under way (only earlier answers still on their way): it starts now, its answer after theirs.
    if (!this.busy) this.settle();
    return answer;
  }

  /**
   * `answer` is handed out and may resolve some steps after its operation settled (`return()` and `throw()` run in
   * async functions): until it resolves, later operations wait for it (see {@link later}).
   */
  private awaited(answer: Promise<Result>): Promise<Result> {
    this.answer = answer;
    const answered = () => {
      if (this.answer === answer) this.answer = undefined;
    };
    answer.then(answered, answered);
    return answer;
  }

  /** The operation under way has settled: the waiting operations start in order, each once the one before it is no longer under way. */
  private settle(): void {
    this.busy = false;
    const { waiting } = this;
    if (waiting) while (!this.busy && waiting.length > 0) waiting.shift()!();
  }

  /**
   * `next()`'s work from where the run stands: the result, once the operation has settled, or the promise
   * of it when something must be waited for (whose `then` drives on, see {@link wait}, and settles).
   * Anything that throws ends the run on its error event ({@link failWith}).
   */
  private drive(): Result | Promise<Result> {
    let result: Result | Promise<Result>;
    try {
      result = this.pull();
    } catch (thrown) {
      return this.failWith(thrown);
    }
    if (result instanceof Promise) return result;
    this.settle();
    return result;
  }

  /** The run waits for `promise`, then drives on (a rejection ends it on its error event). */
  private wait(promise: Promise<unknown>): Promise<Result> {
    return promise.then((this.proceed ??= () => this.drive()), (this.failure ??= (thrown) => this.failWith(thrown)));
  }

  /** The next event: the next one in hand (stored first), else from the next step of the run. Throws what fails. */
  private pull(): Result | Promise<Result> {
    for (;;) {
      const batch = this.batch;
      if (batch) {
        if (this.index < batch.length) {
          const event = batch[this.index];
          if (this.storing && !this.recorded) {
            const stored = this.record(event);
            if (stored) {
              this.recorded = true;
              return this.wait(stored);
            }
          }
          this.recorded = false;
          this.index++;
          this.trace?.relay(event);
          return { value: event, done: false };
        }
        this.batch = undefined;
      }
      switch (this.phase) {
        case Phase.Start: {
          // Started once: what the start waits for drives on from the message (or from the run's end).
          this.phase = Phase.Message;
          const started = this.start();
          if (started) return this.wait(started);
          continue;
        }
        case Phase.Message: {
          // A synchronous store hands back the stored event itself: only a promise is waited for.
          this.phase = Phase.Stored;
          const stored = this.storeMessage();
          if (stored instanceof Promise) return this.wait(stored);
          continue;
        }
        case Phase.Stored:
          this.steps = agentSteps(this.agent!, this.context!);
          this.phase = Phase.Agent;
          continue;
        case Phase.Agent: {
          // A loop that handed out its last batch ends without another step (and its wait).
          const steps = this.steps;
          if (steps && !steps.finished) {
            // A batch at hand (the usual tool step's) is handed out now, with no promise and no wait.
            let next: Event[] | undefined;
            if (steps.nextTo) {
              // A step that waits hands its batch to `arrived` (a model call, in its own async function: no then of ours).
              const taken = steps.nextTo((this.arrived ??= (batch) => this.arrive(batch)), (this.failure ??= (thrown) => this.failWith(thrown)));
              if (taken instanceof Promise) return taken;
              next = taken;
            } else {
              const taken = steps.nextNow ? steps.nextNow() : steps.next();
              if (taken instanceof Promise) return this.nextBatch(taken);
              next = taken;
            }
            if (next) this.hold(next, true);
            else this.steps = undefined;
            continue;
          }
          this.steps = undefined;
          this.phase = Phase.Finish;
          // A budget's costOf that failed on the run's last model call still ends the run on its error.
          const context = this.context!;
          if (context.costError && !this.endedOnError) this.hold([errorEvent(context, context.agent.name, context.costError)], true);
          continue;
        }
        case Phase.Finish: {
          // Done once: what the finish waits for drives on to the end.
          const finishing = this.finish();
          if (finishing) return this.wait(finishing);
          return finished();
        }
        case Phase.Done:
          return finished();
      }
    }
  }

  /** The run waits for the agent's next batch. */
  private nextBatch(batch: Promise<Event[] | undefined>): Promise<Result> {
    return batch.then((this.arrived ??= (next) => this.arrive(next)), (this.failure ??= (thrown) => this.failWith(thrown)));
  }

  /** The agent's next batch (`undefined`: its run is over) is in: handed out next. */
  private arrive(next: Event[] | undefined): Result | Promise<Result> {
    if (next) this.hold(next, true);
    else this.steps = undefined;
    return this.drive();
  }

  /** `next()` failed (or `throw()` ended the run mid-run: `finishing`, the turn and the claim released too): the run ends on the error event, and the operation settles. */
  private async failWith(thrown: unknown, finishing = false): Promise<Result> {
    try {
      const failed = await this.fail(thrown);
      if (finishing) await this.finish();
      return failed;
    } finally {
      this.settle();
    }
  }

  /** `return()`: closes the agent's run and releases what the run holds; before the first `next()`, nothing was taken. */
  private async stop(value?: void | PromiseLike<void>): Promise<Result> {
    if (this.phase === Phase.Start) this.phase = Phase.Done;
    if (this.phase === Phase.Done) return returned(value);
    this.busy = true;
    try {
      await this.finish();
      return await returned(value);
    } finally {
      this.settle();
    }
  }

  /** `throw()`: mid-run, the run ends on an error event for `error`; else the run ends (if it had started) and `error` is thrown back. */
  private async raise(error: unknown): Promise<Result> {
    if (this.phase !== Phase.Start && this.phase !== Phase.Done && !this.failed) {
      this.busy = true;
      // The caller ended the run: the turn and the claim pass on now, not at a next() it may never make.
      return await this.failWith(error, true);
    }
    await this.stop();
    throw error;
  }

  /** The run failed (or was thrown into): the agent's run is closed, and the run ends on an error event for it. */
  private async fail(thrown: unknown): Promise<Result> {
    // Closed before the error event, as leaving a `for await` over the agent's run would.
    const steps = this.steps;
    this.steps = undefined;
    if (steps) await closeSteps(steps);
    const error = runFailure(thrown);
    const { context } = this;
    const failed = context ? errorEvent(context, context.agent.name, error) : standaloneErrorEvent(this.invocationId, this.author, error);
    if (this.runUsage) failed.runUsage = { ...this.runUsage };
    // Once the message is stored, the run's error is stored too, so the session (and a resend of the
    // message) holds how the run ended. A store that just failed may fail again: the event is handed out all
    // the same, and the run never throws.
    const accepted = this.phase === Phase.Agent;
    this.batch = undefined;
    this.recorded = false;
    this.phase = Phase.Finish;
    this.failed = true;
    if (accepted) {
      try {
        const stored = this.record(failed);
        if (stored) await stored;
      } catch {
        // (see above: the event says what went wrong)
      }
    }
    this.trace?.relay(failed);
    return { value: failed, done: false };
  }

  /** Hands out `events` next (each stored first when `storing`). */
  private hold(events: readonly Event[], storing: boolean): void {
    this.batch = events;
    this.index = 0;
    this.storing = storing;
  }

  /** The run ends after `event`, which is not stored. */
  private endWith(event: Event): void {
    this.hold([event], false);
    this.phase = Phase.Finish;
  }

  /**
   * Everything before the agent runs: waits for the session's turn, claims it, loads (or creates) it and
   * checks the message; ends the run on an error event when any of it fails. Events to hand out first
   * (calls a process that died left interrupted) are held. No async function: each step that must wait
   * (a contended turn, an async store) goes on in a `then`; the usual start waits for nothing and returns nothing.
   */
  private start(): void | Promise<void> {
    const { services, input } = this;
    const invocationId = (this.invocationId = input.invocationId ?? newInvocationId());
    if (this.traceParent) this.trace = services.tracing!.startInvocation(services.appName, this.traceParent);
    if (input.refused) return this.endWith(standaloneErrorEvent(invocationId, this.author, input.refused));
    // The invocation's own signal follows the caller's while it runs; without a caller's signal nothing
    // can abort it, and the context makes one only if something asks for it.
    const controller = input.signal ? new AbortController() : undefined;
    if (controller) {
      const unlink = linkCallerSignal(input.signal!, controller);
      if (!unlink) return this.endWith(standaloneErrorEvent(invocationId, this.author, new InvalidMessageError("the run's signal refused the run's abort listener")));
      this.unlink = unlink;
    }
    const signal = controller?.signal;
    if (signal?.aborted) return this.endWith(standaloneErrorEvent(invocationId, this.author, new RunAbortedError(signal.reason)));
    // The message's shape and size first, before anything reads it (choosing the agent, withholding
    // credentials) or anything is claimed, loaded or created: a message that is not data creates nothing.
    // A run for a user's message (`requireMessage`) without one is refused the same way.
    // From here on the run reads only the message's plain-data copy (stored, run, answered), never the caller's object.
    const copied = input.newMessage !== undefined || input.terms.requireMessage ? copyNewMessage(input.newMessage, services.argumentLimits) : undefined;
    if (copied instanceof InvalidMessageError) return this.endWith(standaloneErrorEvent(invocationId, this.author, copied));
    const { turns } = input.terms;
    if (turns && isSessionKey(input.session)) {
      const { appName, userId, sessionId } = input.session;
      // Uncontended (the usual case): the turn is taken at once, with no promise and no wait.
      const turn = turns.tryAcquire(appName, userId, sessionId);
      if (!turn) return this.awaitTurn(turns.acquire(appName, userId, sessionId, signal), signal, copied);
      this.turn = turn;
    }
    return this.claim(signal, copied);
  }

  /** {@link start} waits for a contended turn. */
  private awaitTurn(acquiring: Promise<SessionTurn | undefined>, signal: AbortSignal | undefined, copied: CopiedMessage | undefined): Promise<void> {
    return acquiring.then((turn) => this.turnTaken(turn, signal, copied));
  }

  /** {@link start} once a contended turn is taken (`undefined`: aborted while waiting). */
  private turnTaken(turn: SessionTurn | undefined, signal: AbortSignal | undefined, copied: CopiedMessage | undefined): void | Promise<void> {
    this.turn = turn;
    if (!turn) return this.endWith(standaloneErrorEvent(this.invocationId, this.author, new RunAbortedError(signal?.reason)));
    return this.claim(signal, copied);
  }

  /** {@link start} in the session's turn: the session's claim in the store, when the run claims it. */
  private claim(signal: AbortSignal | undefined, copied: CopiedMessage | undefined): void | Promise<void> {
    const { input } = this;
    const { claim } = input.terms;
    if (claim && isSessionKey(input.session)) {
      // One writer per session across processes: claimed before anything is read or stored, so a run
      // that gets no claim (SESSION_BUSY) or is aborted while waiting leaves the session untouched.
      const claiming = HeldClaim.claim(this.services.sessionService, input.session, this.invocationId, claim, signal, this.writes);
      if (claiming instanceof Promise) return this.awaitClaim(claiming, signal, copied);
      this.held = claiming;
    }
    return this.load(signal, copied);
  }

  /** {@link start} waits for the session's claim. */
  private awaitClaim(claiming: Promise<HeldClaim>, signal: AbortSignal | undefined, copied: CopiedMessage | undefined): Promise<void> {
    return claiming.then((held) => {
      this.held = held;
      return this.load(signal, copied);
    });
  }

  /**
   * {@link start} with the claim: the session loaded (or created). The usual cases (the session read with
   * the claim, or created by a synchronous store in the same step) go on at once, with no object for them.
   */
  private load(signal: AbortSignal | undefined, copied: CopiedMessage | undefined): void | Promise<void> {
    const { input, held, writes } = this;
    const key = input.session;
    if (!isSessionKey(key)) return this.begin(key, false, signal, copied);
    const claimed = held?.takeLoaded();
    if (claimed?.session) return this.begin(claimed.session, false, signal, copied);
    if (claimed && writes) {
      // Read with the claim, in this run's turn: a synchronous store creates it in the same step, at the
      // time the message's event then carries (one clock read for both: nothing waits in between).
      const now = Date.now();
      let created: Session | undefined;
      try {
        created = writes.createSession(key, now);
      } catch (error) {
        // Created meanwhile without a claim: the general path below reads it.
        if (!ToolsmithError.isInstance(error) || error.code !== 'SESSION_EXISTS') throw error;
      }
      if (created) {
        this.createdAt = now;
        return this.begin(created, true, signal, copied);
      }
    }
    return this.awaitSession(loadOrCreate(this.services.sessionService, key, claimed), signal, copied);
  }

  /** {@link start} waits for the session from an async store. */
  private awaitSession(loading: Promise<{ session: Session; created: boolean }>, signal: AbortSignal | undefined, copied: CopiedMessage | undefined): Promise<void> {
    return loading.then((loaded) => this.begin(loaded.session, loaded.created, signal, copied));
  }

  /** {@link start} with the session (`created` for this run): the agent chosen, the context made, the message checked. */
  private begin(session: Session, created: boolean, signal: AbortSignal | undefined, copied: CopiedMessage | undefined): void | Promise<void> {
    const { services, input, held, invocationId } = this;
    const newMessage = copied;
    if (held) session.fence = held.fence;
    const chosen = input.terms.agent;
    const agent = (this.agent = typeof chosen === 'function' ? chosen(session, newMessage) : chosen);
    this.author = agent.name;
    // A credential the user typed in goes to the credential service only: what is stored, traced and
    // handed to agents and callbacks has its values redacted; the secret stays in memory for this invocation.
    const withheld = newMessage === undefined ? undefined : withholdCredentials(newMessage);
    const userContent = withheld ? withheld.stored : newMessage;
    const context = (this.context = new InvocationContext(invocationId, agent, session, services, userContent, withheld?.answers, input.signal !== undefined, signal, input.streaming ?? false, undefined, this.trace));
    this.trace?.started({ invocationId, sessionId: session.id, agentName: agent.name, events: session.events, newMessage: userContent });
    if (signal?.aborted) return this.endWith(errorEvent(context, agent.name, new RunAbortedError(signal.reason)));
    if (input.messageId !== undefined) {
      const invalidId = checkMessageId(input.messageId);
      if (invalidId) return this.refuse(created, invalidId);
      // A message sent again (a retry after a lost connection): answered with what it produced, nothing stored or run.
      const produced = eventsOfMessage(session.events, input.messageId);
      if (produced) {
        this.hold(produced, false);
        this.phase = Phase.Finish;
        return;
      }
    }
    if (newMessage !== undefined) {
      // Answers to confirmations and long-running calls must match what the session waits for; else nothing runs.
      // Runs on one session take turns (in the process, and across processes through the session's
      // claim), so this check sees every earlier answer.
      // A refused message changes nothing in the session: its error goes to its caller only, so it can
      // never move the session on under a run that is still working on it.
      const refusal = checkFunctionResponses(session.events, newMessage) ?? checkRememberHasStore(services, newMessage);
      if (refusal) return this.refuse(created, refusal);
      // Only an answer (a function response) can carry an edit: a plain message skips that check and its wait.
      if (hasFunctionResponse(newMessage)) return this.checkEdits(created, checkEditedArguments(context, newMessage, refusedEditsOf(newMessage)));
    }
    this.interrupted();
  }

  /** {@link start} for an answer: refused when an edit of a call's arguments is. */
  private checkEdits(created: boolean, checking: Promise<ToolsmithError | undefined>): Promise<void> {
    return checking.then((refusal) => (refusal ? this.refuse(created, refusal) : this.saveCredentials(created)));
  }

  /**
   * {@link start} for an accepted answer: the credentials the user typed in go to the credential service
   * before the message is stored, so a save that fails refuses the message (CREDENTIAL_SAVE_FAILED) and
   * leaves its request pending, to be answered again.
   */
  private saveCredentials(created: boolean): void | Promise<void> {
    const context = this.context!;
    const answers = context.withheldAnswers;
    const credentials = this.services.credentials;
    // Without a credential service the call fails with CREDENTIAL_SERVICE_MISSING, which says what to do.
    if (answers === undefined || answers.size === 0 || credentials === undefined) return this.interrupted();
    // An answer with a `[redacted]` value was read back from a session, not typed in: saved, the tool would
    // run with the marker. Refused, unless the caller saved the credential and hands the runner its stored copy (DurableRunner).
    const marked = savedByCaller(credentials.service) ? undefined : redactedCredentialAnswer(answers);
    if (marked) return this.refuse(created, marked);
    const owner = { appName: this.services.appName, userId: context.session.userId };
    return saveTypedCredentials(credentials.service, owner, context.session.events, { answers }).then(
      () => this.interrupted(),
      (error: unknown) => {
        // A failed save is CREDENTIAL_SAVE_FAILED (CredentialManager); anything else fails the run.
        const failure = reportableError(error);
        if (!failure) throw error;
        return this.refuse(created, failure);
      },
    );
  }

  /**
   * {@link start} for a message that is accepted: a process that died inside a tool call left the
   * model's call without a response: it is reported (TOOL_INTERRUPTED) before the new message, and never
   * run again behind the user's back. After the checks, so a refused message (e.g. a second answer to a
   * confirmation another process is running) never declares that process's call interrupted.
   */
  private interrupted(): void {
    const interrupted = interruptedCallEvents(this.context!.session.events, this.invocationId);
    if (interrupted.length > 0) this.hold(interrupted, true);
  }

  /**
   * {@link start} for a refused message: it stores nothing, so a session created for it alone is removed
   * again (this run holds the session's turn and claim, so nobody else has used it in between); the run
   * ends on the refusal's error event.
   */
  private refuse(created: boolean, refusal: ToolsmithError): void | Promise<void> {
    const { input } = this;
    const end = (): void => this.endWith(errorEvent(this.context!, this.agent!.name, refusal));
    // (`Promise.resolve`: a store's promise may be another thenable, as an `await` would take it.)
    if (created && isSessionKey(input.session)) return Promise.resolve(this.services.sessionService.deleteSession(input.session)).then(end);
    end();
  }

  /** Stores the user's message (its event id from the client's `messageId`, when given). */
  private storeMessage(): Event | Promise<Event> | undefined {
    const { input } = this;
    const context = this.context!;
    const userContent = context.userContent;
    if (userContent === undefined) return undefined;
    const id = input.messageId === undefined ? undefined : messageEventId(input.messageId);
    // Stored in the step that created the session: the event has the session's creation time (no second clock read).
    const createdAt = this.createdAt;
    const event = createdAt === undefined ? Event.of(this.invocationId, 'user', undefined, userContent) : Event.of(this.invocationId, 'user', undefined, userContent, undefined, createdAt);
    if (id !== undefined) event.id = id;
    return store(context, event, this.writes);
  }

  /**
   * Before a complete event is handed out: counts its usage (each complete event carries the run's usage
   * so far: the last one carries the run's total), then stores it (an abort's error event is not stored).
   */
  private record(event: Event): Promise<Event> | undefined {
    if (event.partial) return undefined;
    const context = this.context!;
    this.endedOnError = event.errorCode !== undefined;
    if (event.usage) context.countUsage(event, (this.runUsage = addUsage(this.runUsage, event.usage)));
    if (this.runUsage) event.runUsage = { ...this.runUsage };
    if (event.errorCode === 'RUN_ABORTED') return undefined;
    const stored = store(context, event, this.writes);
    return stored instanceof Promise ? stored : undefined;
  }

  /**
   * The run is over: the agent's run closed (when left early), the signal unlinked, the claim and the turn
   * released. No async function: with nothing to close and a synchronous store it waits for nothing.
   */
  private finish(): void | Promise<void> {
    this.phase = Phase.Done;
    this.batch = undefined;
    const steps = this.steps;
    this.steps = undefined;
    // Left early by the caller's return(): the agent's run is closed, as leaving a `for await` over it would.
    if (steps) return this.closeThenRelease(steps);
    return this.released();
  }

  /** {@link finish} for a run left early: the agent's run is closed first. */
  private closeThenRelease(steps: EventSteps): Promise<void> {
    return closeSteps(steps).then(() => this.released());
  }

  /** {@link finish} once the agent's run is closed. */
  private released(): void | Promise<void> {
    this.unlink();
    // A release that fails leaves a claim that lapses at its expiry; the next run waits until then.
    const { held } = this;
    if (held) {
      let releasing: Promise<void> | undefined;
      try {
        releasing = held.release();
      } catch {
        // (nothing to do: see above)
      }
      if (releasing) return this.awaitRelease(releasing);
    }
    this.ended();
  }

  /** {@link finish} waits for the claim's release (which may fail). */
  private awaitRelease(releasing: Promise<void>): Promise<void> {
    const ended = (): void => this.ended();
    return Promise.resolve(releasing).then(ended, ended);
  }

  /** {@link finish} once the claim is released: the turn passes on, the run's span ends. */
  private ended(): void {
    this.turn?.release();
    this.trace?.end();
  }
}

/**
 * The agent's events: a plain `LlmAgent` (its `runAsync` not overridden) in an untraced invocation is
 * driven through its step machine directly, a batch per step, without a generator layer per event; any
 * other agent (and every traced one, whose spans its `runAsync` makes) through its `runAsync`.
 */
function agentSteps(agent: BaseAgent, context: InvocationContext): EventSteps {
  if (agent instanceof LlmAgent && agent.runAsync === LlmAgent.prototype.runAsync && !context.trace) return new LlmFlow(agent, context, agentSteps);
  return generatorSteps(agent.runAsync(context));
}

/**
 * The session (the one the claim read, when the store read it with the claim), created when it does not
 * exist yet (`created`); two first messages racing both get the one session.
 */
async function loadOrCreate(sessions: SessionService, key: SessionKey, claimed: LoadedSession | undefined): Promise<{ session: Session; created: boolean }> {
  const found = claimed ? claimed.session : await sessions.getSession(key);
  if (found) return { session: found, created: false };
  try {
    return { session: await sessions.createSession(key), created: true };
  } catch (error) {
    if (!ToolsmithError.isInstance(error) || error.code !== 'SESSION_EXISTS') throw error;
    const created = await sessions.getSession(key); // another run created it between our read and our create
    if (!created) throw error;
    return { session: created, created: false };
  }
}

/** The id of the stored user event of the client's message `messageId`. */
function messageEventId(messageId: string): string {
  return `msg:${messageId}`;
}

/**
 * The stored events the message with `messageId` produced: every event of its run but the message itself
 * (what the run yielded, as stored), or `undefined` when the message was never stored.
 */
function eventsOfMessage(events: readonly Event[], messageId: string): Event[] | undefined {
  const id = messageEventId(messageId);
  const message = events.find((event) => event.author === 'user' && event.id === id);
  return message ? events.filter((event) => event.invocationId === message.invocationId && event !== message) : undefined;
}

function noop(): void {}

/**
 * Closes the agent's run the invocation leaves early. Its failure to close has nowhere to go: the run
 * already ends on the reason it was left (a caller's `return()`, or the error event), and never throws.
 */
async function closeSteps(steps: EventSteps): Promise<void> {
  try {
    await steps.close();
  } catch {
    // (see above)
  }
}

function hasFunctionResponse(message: Content): boolean {
  for (const part of message.parts) if (part.functionResponse) return true;
  return false;
}

/** An error event raised before there is an invocation context (no session or agent yet). */
function standaloneErrorEvent(invocationId: string, author: string, error: ToolsmithError): Event {
  return Event.create({ invocationId, author, ...errorFields(error) });
}

/** A key names `sessionId`; a session has `id` instead. */
function isSessionKey(session: Session | SessionKey): session is SessionKey {
  return typeof (session as Partial<SessionKey>).sessionId === 'string';
}

/**
 * Moves `temp:` writes into the invocation (they are never stored), keeps the trace context on a pause
 * event when traced, then appends the event. Not an
 * async function: it hands back the service's promise, so each stored event costs one await, not two;
 * with a synchronous store (`writes`), the stored event itself, and no await at all.
 */
function store(context: InvocationContext, event: Event, writes: SynchronousSessionWrites | undefined): Event | Promise<Event> {
  context.trace?.stamp(event);
  const delta = event.actions.stateDelta;
  // `for in` over the own keys: no array of keys made for the usual event, which writes no state.
  for (const key in delta) {
    if (!Object.prototype.hasOwnProperty.call(delta, key) || !key.startsWith(StatePrefix.TEMP)) continue;
    if (delta[key] === null) delete context.tempState[key];
    else context.tempState[key] = delta[key];
  }
  if (writes) {
    // A synchronous store: the event is stored (or refused) by the time this returns.
    if (!event.actions.stateOps) return writes.appendEvent(context.session, event);
    try {
      return writes.appendEvent(context.session, event);
    } catch (error) {
      return storeAfterConflict(context, event, error, writes);
    }
  }
  const stored = context.services.sessionService.appendEvent(context.session, event);
  return event.actions.stateOps ? stored.catch((error: unknown) => storeAfterConflict(context, event, error, writes)) : stored;
}

/**
 * A step whose call's compare-and-set (or increment) found another stored value was refused, nothing of
 * it stored: that call is answered with `STATE_CONFLICT` instead, and the step is stored without its writes.
 */
function storeAfterConflict(context: InvocationContext, event: Event, error: unknown, writes: SynchronousSessionWrites | undefined): Event | Promise<Event> {
  if (!(error instanceof StateConflictError) || !answerConflictingCalls(event, error)) throw error;
  return store(context, event, writes);
}
