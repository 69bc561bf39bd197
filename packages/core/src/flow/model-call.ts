import type { CallbackContext } from '../agents/callback-context';
import { startValidatorWarmUp } from '../validation/validator-warm-up';
import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import { ProviderError } from '../errors/provider-errors';
import { RunAbortedError } from '../errors/run-aborted-error';
import type { ToolsmithError } from '../errors/toolsmith-error';
import { Event } from '../events/event';
import type { Content } from '../model/content';
import type { LlmRequest } from '../model/llm-request';
import type { GenerateOptions } from '../model/model';
import type { LlmResponse, Usage } from '../model/llm-response';
import { billedUsageOf } from '../model/billed-usage';
import { addUsage } from '../model/usage-total';
import { type EventActions, createEventActions } from '../state/event-actions';
import { mergeActions } from '../state/merge-actions';
import { State } from '../state/state';
import { DEFAULT_ARGUMENT_LIMITS } from '../validation/argument-parser';
import { type ModelCallbackChain, modelCallbackChain } from './callback-chains';
import { type CheckedModelResponse, checkModelResponse, usageOfComplete } from './model-response-check';
import { errorEvent } from './error-event';
import { buildRequest, buildsOwnRequest } from './request-builder';
import { editableRequest } from './editable-request';
import { knownFiles, requestFilesProblem } from './request-files-check';
import { conversationBeforeHooks } from './request-builder';
import { InvalidModelRequestError } from '../errors/invalid-model-request-error';
import type { OfferedTools } from './tool-resolver';
import type { ChatSpan } from '../tracing/chat-span';
import { redactSecretText } from '../redaction/secret-redaction';
import { setStateKey } from '../state/state-keys';
import { thrownMessage } from '../errors/thrown-message';
import { reportableError } from '../errors/reportable-error';
import { runFailure } from '../errors/run-failure';
import { closingFully, finishClosing } from './close-model-parts';
import { GENERATOR_ASYNC_ITERATOR, GENERATOR_NEXT, GENERATOR_RETURN } from '../model/generator-iterator';

/** What one model call produced, for the loop to emit in order: `partials`, then `event`. */
export interface ModelStep {
  /** Partial events a model sent although the call was not streaming (a streaming call has yielded its own already). */
  partials?: Event[];
  /** The model's event, or the error event that ends the loop. */
  event: Event;
  /** False when `event` is an error event: the loop ends after emitting it. */
  ok: boolean;
  /** Calls of `event` refused at the boundary (see {@link checkModelResponse}): answered with these errors, never run. */
  refusedCalls?: ReadonlyMap<string, ToolsmithError>;
}

/** What the loop makes of a model call's step (the loop itself: no callback made per loop). */
export interface ModelStepThen<T> {
  afterModelStep(step: ModelStep): T | Promise<T>;
  /** What a call that throws or rejects before its step is made comes to; without it, the call's promise rejects with it. */
  modelCallFailed?(thrown: unknown): Promise<T>;
}

/**
 * One model call with its callbacks, not streaming, and what the loop makes of its step: `then.afterModelStep(step)`,
 * run by the call's own async function, so the loop's step has no async function (and no promise to
 * wait for) of its own. Not a generator: every event of the loop passes through each generator layer
 * it is yielded from, so the usual (non-streaming) step keeps one layer fewer. The request is built
 * before that function starts: its frame (made when it first waits, and copied at every wait) holds
 * only what spans the model's parts. {@link streamModel} is the same call, streaming.
 */
export function callModel<T>(agent: LlmAgent, context: InvocationContext, offered: OfferedTools, then: ModelStepThen<T>): Promise<T> {
  try {
    const built = buildRequest(agent, context, offered);
    if (built instanceof Promise) {
      const failed = then.modelCallFailed && ((thrown: unknown) => then.modelCallFailed!(thrown));
      return built.then((request) => respond(new ModelCall(agent, context, request, buildsOwnRequest(offered)), then), failed);
    }
    return respond(new ModelCall(agent, context, built, buildsOwnRequest(offered)), then);
  } catch (thrown) {
    // Given to modelCallFailed a tick later, as the rejection would be: never inside the caller's own step.
    const rejection = Promise.reject(thrown);
    return then.modelCallFailed ? rejection.then(undefined, (failure: unknown) => then.modelCallFailed!(failure)) : rejection;
  }
}

/** An async generator's own methods (generator-iterator.ts), under short names for the loop below. */
const NEXT = GENERATOR_NEXT;
const RETURN = GENERATOR_RETURN;
const ASYNC_ITERATOR = GENERATOR_ASYNC_ITERATOR;

/**
 * What the model's generator is closed with at its complete response: `return()` with a promise, already
 * fulfilled with `undefined`, instead of no value. A generator closed while it waits at a `yield` awaits
 * the value it is given before it runs its `finally` blocks and ends: a promise is awaited as it is,
 * where `undefined` is first made a promise. Nothing else differs: the generator's code sees neither
 * (its `finally` runs the same, it ends with `undefined`, and `return()` answers `{ value: undefined, done: true }`).
 */
const CLOSED: Promise<undefined> = Promise.resolve(undefined);

/**
 * True when `parts` answers `for await` with an async generator's own methods (read as `for await`
 * reads them, each once): its parts are then read with them directly (see {@link respond}). Anything
 * else (an iterable of the model's own, a tracing wrapper, a generator whose methods were replaced) is
 * read by `for await` itself, through {@link closingFully} (a close that a `finally` answered with a
 * `yield` is finished there).
 */
function isAsyncGenerator(parts: AsyncIterable<LlmResponse>): parts is AsyncGenerator<LlmResponse, unknown, undefined> {
  return typeof parts === 'object' && parts !== null && parts[Symbol.asyncIterator] === ASYNC_ITERATOR && (parts as AsyncGenerator).next === NEXT && (parts as AsyncGenerator).return === RETURN;
}

function ignore(): void {}

/** The model's parts read by `for await` itself (see {@link isAsyncGenerator}), up to the complete response ({@link ModelCall.took}). */
async function readParts(call: ModelCall): Promise<void> {
  // (The same parts: `generate` starts the model once.)
  for await (const part of closingFully(call.generate(), call)) if (call.took(part)) break;
}

/** {@link callModel} once the request is built: the callbacks, the model's parts, then the step. What throws is given to `then.modelCallFailed` when it has one (in this function: no promise and tick of a `then` for it). */
async function respond<T>(call: ModelCall, then: ModelStepThen<T>): Promise<T> {
  try {
    let response: LlmResponse | undefined;
    if (call.chain.beforeModel.length > 0 || call.hooked) {
      const before = await call.before();
      if (before instanceof EndedBefore) return then.afterModelStep(call.failed(before.event));
      response = before;
    }
    if (!response) {
      try {
        const parts = call.generate();
        if (isAsyncGenerator(parts)) {
          // What `for await ... break` does, written out for an async generator's own methods, which cannot
          // answer anything but a promise of an iterator result: only the close differs (see CLOSED).
          for (let next = await NEXT.call(parts); !next.done; next = await NEXT.call(parts)) {
            let complete: boolean;
            try {
              complete = call.took(next.value);
            } catch (thrown) {
              // Closed (to its end, as below), and the first error is the one thrown (its close's own failure is dropped).
              const closed = await RETURN.call(parts).catch(ignore);
              if (closed && closed.done === false) await finishClosing(parts, NEXT, call).catch(ignore);
              throw thrown;
            }
            if (complete) {
              // A finally that yields answers { done: false }: its generator is finished closing (see finishClosing).
              if ((await RETURN.call(parts, CLOSED)).done === false) await finishClosing(parts, NEXT, call);
              break;
            }
          }
        } else {
          await readParts(call);
        }
        response = call.complete;
        if (!response) throw call.incomplete();
      } catch (thrown) {
        const recovered = await call.recover(thrown);
        if (recovered instanceof Event) return then.afterModelStep(call.failed(recovered));
        response = recovered;
      }
    }
    if (call.chain.afterModel.length > 0) {
      const after = await call.after(response);
      if (after instanceof Event) return then.afterModelStep(call.failed(after));
      response = after;
    }
    return then.afterModelStep(call.step(response));
  } catch (thrown) {
    if (then.modelCallFailed) return then.modelCallFailed(thrown);
    throw thrown;
  }
}

/** {@link callModel} while streaming: yields each partial event as it arrives. */
export async function* streamModel(agent: LlmAgent, context: InvocationContext, offered: OfferedTools): AsyncGenerator<Event, ModelStep, undefined> {
  const built = buildRequest(agent, context, offered);
  const call = new ModelCall(agent, context, built instanceof Promise ? await built : built, buildsOwnRequest(offered));
  let response: LlmResponse | undefined;
  if (call.chain.beforeModel.length > 0 || call.hooked) {
    const before = await call.before();
    if (before instanceof EndedBefore) return call.failed(before.event);
    response = before;
  }
  if (!response) {
    try {
      for await (const part of closingFully(call.generate(), call)) {
        if (call.completes(part)) {
          response = call.complete = part;
          break;
        }
        yield call.partialEvent(part);
      }
      if (!response) throw call.incomplete();
    } catch (thrown) {
      const recovered = await call.recover(thrown);
      if (recovered instanceof Event) return call.failed(recovered);
      response = recovered;
    }
  }
  if (call.chain.afterModel.length > 0) {
    const after = await call.after(response);
    if (after instanceof Event) return call.failed(after);
    response = after;
  }
  return call.step(response);
}

/** The error event the beforeModel callbacks end the call on ({@link ModelCall.before}): a request refused, a callback's throw, an abort. A class of this module's, so no callback's response is taken for one. */
class EndedBefore {
  constructor(readonly event: Event) {}
}

/** The request, callbacks and resulting event of one model call: everything both drivers share. The call is its own step (no object made for it). */
class ModelCall implements ModelStep {
  readonly chain: ModelCallbackChain;
  /** The call's actions: its events get them. A callback's context writes into them only until it settled ({@link ModelCall.settle}). */
  private actions: EventActions = createEventActions();
  // Taken on first use: most turns have no model callbacks, and the state snapshot is not free.
  private callbackStateBase?: Record<string, unknown>;
  /** The model call's `chat` span, when the invocation is traced and the model is really called. */
  private chat?: ChatSpan;
  /** What the model's `generate` returned ({@link ModelCall.generate}). */
  private parts?: AsyncIterable<LlmResponse>;
  /** The model's complete response, once {@link ModelCall.took} took it. */
  complete?: LlmResponse;
  /** The partial events of the partial responses a model sent although the call was not streaming ({@link ModelCall.took}). */
  partials?: Event[];
  /** The step's event, once {@link ModelCall.step} or {@link ModelCall.failed} made it. */
  event!: Event;
  ok = false;
  refusedCalls?: ReadonlyMap<string, ToolsmithError>;
  /**
   * What the failed call was billed, once an onModelError callback answered for it ({@link ModelCall.recover}):
   * added to the counts the check copies of the response. Declared only: a call that is not recovered has no such property.
   */
  declare private recoveredBilled?: Usage;
  /**
   * The model's own counts, copied before the afterModel callbacks were given its complete response (see {@link ModelCall.after}):
   * a callback may edit the response in place. Declared only: a call without afterModel callbacks has no such property.
   */
  declare private modelUsage?: Usage;
  /**
   * The counts of the response the afterModel callbacks were given (the model's, a beforeModel or onModelError
   * callback's answer), copied before they ran: what the event holds when their response carries none, and what their
   * throw's error event holds (with what a recovered call was billed added, either way). Declared only, as modelUsage.
   */
  declare private givenCounts?: Usage;
  /**
   * Whether the run was aborted when the running callback settled ({@link ModelCall.settle}): the cutoff of "aborted while
   * a callback ran", the one its writes are taken at. An abort queued by a callback that returned (a microtask, a reaction)
   * fires after it and is not the callback's. Unset until it settled (a synchronous throw is checked at once). Declared only.
   */
  declare private settledAborted?: boolean;

  constructor(
    private readonly agent: LlmAgent,
    private readonly context: InvocationContext,
    private request: LlmRequest,
    /** The request is this call's own copy, which callbacks may edit (see {@link ModelCall.ownRequest}): the hooks' copy, or the callbacks'. */
    private requestOwned: boolean,
  ) {
    this.chain = modelCallbackChain(context.services.plugins, agent.callbacks);
  }

  /** The step for an error event that ends the loop (with the partial events the model sent first, if any). */
  failed(event: Event): ModelStep {
    this.event = event;
    this.ok = false;
    return this;
  }

  /**
   * The first response a beforeModel callback returns; it replaces the model call. When none does, the
   * request the callbacks (or, with none, the tools' `processRequest` hooks) leave is the model's: refused
   * (`INVALID_MODEL_REQUEST`) when they left a file in it that no provider takes (see
   * {@link requestFilesProblem}), with the error event the loop ends on, and the model is not called. A
   * callback's throw ends the call on its error event (its code, else INTERNAL_ERROR), with the callbacks' state
   * writes, as an onModelError or afterModel callback's does; a run aborted while one ran ends RUN_ABORTED,
   * whatever it returned, and nothing of the callbacks is kept.
   */
  async before(): Promise<LlmResponse | EndedBefore | undefined> {
    // The files the session holds are not read again, wherever the callbacks move them; a file a hook put in is
    // checked (the hooks' copy, before the callbacks edit it in place, tells a hook's file from a callback's).
    const session = conversationBeforeHooks(this.request);
    const known = knownFiles(session ?? this.request.contents);
    // null: the contents the hooks left throw when read, so the hooks are blamed for what throws.
    const hooked = session && (knownFiles(this.request.contents) ?? null);
    this.ownRequest();
    const { agent, context } = this;
    try {
      for (const before of this.chain.beforeModel) {
        const response = (await this.settled(before({ context: this.callbackContext(), request: this.request }))) ?? undefined;
        if (this.abortedInCallback()) return new EndedBefore(errorEvent(context, agent.name, new RunAbortedError(context.signal.reason)));
        if (response) return response;
      }
    } catch (thrown) {
      if (this.abortedInCallback()) return new EndedBefore(errorEvent(context, agent.name, new RunAbortedError(context.signal.reason)));
      const refused = this.settle();
      return new EndedBefore(errorEvent(context, agent.name, runFailure(refused ?? thrown), this.actions));
    }
    const problem = requestFilesProblem(this.request, known, hooked);
    if (problem === undefined) return undefined;
    const error = new InvalidModelRequestError(agent.model.modelName, problem.reason, problem.byHook ? 'processRequest' : 'beforeModel');
    return new EndedBefore(errorEvent(context, agent.name, error, this.actions));
  }

  /**
   * The tools' `processRequest` hooks edited the request: the files they put in are checked ({@link ModelCall.before}),
   * with or without callbacks. Asked before `before` runs (the request is then this call's own only when the hooks made it);
   * a getter, so a call keeps no property more for it.
   */
  get hooked(): boolean {
    return this.requestOwned;
  }

  /**
   * Gives the callbacks a request of their own to edit ({@link editableRequest}), once: only a call with
   * a callback that gets the request pays for the copy, and none when the tools' `processRequest` hooks
   * already edited a copy (the callbacks then get it, with the hooks' edits).
   */
  private ownRequest(): void {
    if (!this.requestOwned) {
      this.request = editableRequest(this.request);
      this.requestOwned = true;
    }
  }

  /** The model's parts: its `generate` is called at the first ask; a later ask gets the same parts. */
  generate(): AsyncIterable<LlmResponse> {
    return (this.parts ??= this.startGenerate());
  }

  private startGenerate(): AsyncIterable<LlmResponse> {
    // No signal when nothing can abort the run: an SDK's listener on a signal that never fires is a leak, not a feature.
    const { context } = this;
    this.chat = context.trace?.startChat(this.agent, this.request);
    if (this.request.tools.length > 0) startValidatorWarmUp();
    const chat = this.chat;
    const options: GenerateOptions = { signal: context.abortable ? context.signal : undefined, stream: context.streaming };
    if (!chat) return this.agent.model.generate(this.request, options);
    options.onProviderExchange = chat.observeExchange;
    return chat.active(() => this.agent.model.generate(this.request, options));
  }

  /**
   * A part the model sent: true for the complete response, then kept ({@link ModelCall.complete}); a
   * partial one becomes a partial event ({@link ModelCall.partials}). Throws once the run is aborted.
   */
  took(part: LlmResponse): boolean {
    if (this.completes(part)) {
      this.complete = part;
      return true;
    }
    (this.partials ??= []).push(this.partialEvent(part));
    return false;
  }

  /** The run is aborted: a generator being closed is not driven further ({@link finishClosing}). */
  get aborted(): boolean {
    return this.context.aborted;
  }

  /** True for the complete, aggregated response that ends the call; throws once the run is aborted. */
  completes(part: LlmResponse): boolean {
    if (this.context.aborted) throw new RunAbortedError(this.context.signal.reason);
    return !part.partial;
  }

  partialEvent(part: LlmResponse): Event {
    const { context } = this;
    const event = Event.of(context.invocationId, this.agent.name, context.branch, modelsContent(part.content));
    event.partial = true;
    return event;
  }

  incomplete(): ProviderError {
    const { model } = this.agent;
    return new ProviderError('PROVIDER_RESPONSE_INVALID', `Model "${model.modelName}" ended its answer without a complete response.`, { provider: model.provider });
  }

  /** After the model failed: the first onModelError callback's response, or the error event that ends the loop. */
  async recover(thrown: unknown): Promise<LlmResponse | Event> {
    const { agent, context } = this;
    const error = context.aborted ? new RunAbortedError(context.signal.reason) : toToolsmithError(thrown, agent);
    // Tokens the provider billed before the call failed (withBilledUsage) still count: on the span and the error
    // event; so do those of a complete response whose close then failed, added to them (copied as the check
    // copies a response's: read once, here, for the span and the event alike).
    const thrownBilled = billedUsageOf(thrown);
    const completed = this.complete ? usageOfComplete(this.complete, agent.model.modelName) : undefined;
    const billed = thrownBilled && completed ? addUsage(completed, thrownBilled) : (thrownBilled ?? completed);
    this.chat?.usage(billed);
    if (context.aborted) return this.abortedCall(error, billed);
    if (this.chain.onModelError.length > 0) {
      // The chat span ends once the callbacks are done, with the error the run reports: a callback may
      // change the error, or throw another one, and the span must not say otherwise than the event.
      const failure = this.chat && { code: error.code, message: redactSecretText(error.message) };
      this.ownRequest();
      try {
        for (const onError of this.chain.onModelError) {
          const response = (await this.settled(onError({ context: this.callbackContext(), request: this.request, error }))) ?? undefined;
          // Aborted while a callback ran: the run ends RUN_ABORTED, whatever it returned (nor does another run).
          if (this.abortedInCallback()) return this.abortedCall(new RunAbortedError(context.signal.reason), billed);
          if (response) {
            // Recovered: the model call itself failed, as it did; its span ends at the step, with that error
            // unless the run ends on another (the response refused at the boundary, an afterModel callback's throw).
            // What was billed is added to the counts of its event, once the boundary check copied them (see step):
            // the callback's object is given on as it is, never copied here.
            if (this.chat && failure) this.chat.recovered(failure);
            if (billed) this.recoveredBilled = billed;
            return response;
          }
        }
      } catch (thrown) {
        if (this.abortedInCallback()) return this.abortedCall(new RunAbortedError(context.signal.reason), billed);
        const refused = this.settle();
        // The run ends on what the callback threw (as after an afterModel callback throws: its code, else
        // INTERNAL_ERROR), on this call's error event: what was billed was billed whatever the callbacks do, and
        // the callbacks' state writes are on it, as when none answers.
        const event = withUsage(errorEvent(context, agent.name, runFailure(refused ?? thrown), this.actions), billed);
        this.chat?.endAs(event);
        return event;
      }
    }
    const event = withUsage(errorEvent(context, agent.name, error, this.actions), billed);
    this.chat?.endAs(event);
    return event;
  }

  /** The error event of a call whose run was aborted (`RUN_ABORTED`), with what the call was billed; nothing the callbacks did is kept. */
  private abortedCall(error: RunAbortedError, billed: Usage | undefined): Event {
    const event = withUsage(errorEvent(this.context, this.agent.name, error), billed);
    this.chat?.endAs(event);
    return event;
  }

  /**
   * The response after the afterModel callbacks: the first one that returns a response replaces it. When one
   * throws, the error event the run ends on (its code, else INTERNAL_ERROR); a run aborted while one ran ends
   * RUN_ABORTED, whatever it did then, and nothing of the callbacks is kept.
   */
  async after(response: LlmResponse): Promise<LlmResponse | Event> {
    const { context } = this;
    // Aborted while the model's generator closed (after its complete response): the response is the model's event,
    // as without callbacks (runner.md Cancellation); only an abort while a callback runs ends the call here.
    const closedAborted = context.aborted;
    // What the model was billed, before a callback can edit its response in place (as step() and the chat span count it).
    // (The counts of any response they are given, for the same reason: see givenCounts.)
    const given = usageOfComplete(response, this.agent.model.modelName);
    this.givenCounts = given;
    if (response === this.complete) this.modelUsage = given;
    try {
      for (const after of this.chain.afterModel) {
        const replaced = (await this.settled(after({ context: this.callbackContext(), response }))) ?? undefined;
        // Aborted while a callback ran: the run ends RUN_ABORTED, whatever it returned (nor does another run).
        if (this.abortedInCallback() && !closedAborted) return this.abortedAfter();
        if (replaced) return replaced;
      }
      return response;
    } catch (thrown) {
      if (this.abortedInCallback() && !closedAborted) return this.abortedAfter();
      const refused = this.settle();
      // The run ends on it, on this call's error event: what was billed was billed whatever the callbacks do. Its
      // counts are those of the response the callbacks were given (see givenUsage); the chat span gets the same
      // (unless a callback recovered the call: it has what was billed), and ends failed here, or it would never be
      // exported. The callbacks' state writes are on the event, as on any event of the call.
      const usage = this.givenUsage();
      const event = withUsage(errorEvent(context, this.agent.name, runFailure(refused ?? thrown), this.actions), usage);
      if (this.chat) {
        this.chat.usage(usage);
        this.chat.endAs(event);
      }
      return event;
    }
  }

  /**
   * The counts of the response the afterModel callbacks were given (the model's, or a callback's answer; a recovery's
   * with what was billed added), copied as the check copies them, once, before they ran (see givenCounts).
   */
  private givenUsage(): Usage | undefined {
    return this.recoveredBilled ? addUsage(this.givenCounts, this.recoveredBilled) : this.givenCounts;
  }

  /** The run was aborted while an afterModel callback ran: RUN_ABORTED with the counts of the response they were given (see {@link ModelCall.abortedCall}). */
  private abortedAfter(): Event {
    const usage = this.givenUsage();
    this.chat?.usage(usage);
    return this.abortedCall(new RunAbortedError(this.context.signal.reason), usage);
  }

  /**
   * The step for the final response (after callbacks): checked at the boundary first, so nothing
   * malformed or unstorable becomes an event; then the model event (with `outputKey`, an answer is
   * also stored in state).
   */
  step(raw: LlmResponse): ModelStep {
    const { agent, context } = this;
    let checked: CheckedModelResponse;
    try {
      checked = checkModelResponse(raw, agent.model.modelName, context.services.argumentLimits ?? DEFAULT_ARGUMENT_LIMITS, context);
    } catch (error) {
      // Refused: nothing of it is stored, and none of its counts; what was billed all the same is the event's (and
      // the span's): what a failed call a callback answered for was billed, or the model's own counts when an
      // afterModel callback's response replaced its complete one (see modelCounts).
      const usage = this.recoveredBilled ?? this.modelCounts(raw, undefined);
      const event = withUsage(errorEvent(context, agent.name, error as ToolsmithError, this.actions), usage);
      if (this.chat) {
        this.chat.usage(usage);
        this.chat.endAs(event);
      }
      return this.failed(event);
    }
    if (this.chat) this.endChat(this.chat, raw, checked);
    // A response the afterModel callbacks gave with no usage (a redaction, or `usage` set undefined in place) keeps the
    // counts of the response they were given (the model's, or a callback's answer), copied before they ran, as their
    // throw's error event does: what was billed was billed. A usage they give is the event's, as checked.
    const usage = checked.usage ?? (this.chain.afterModel.length > 0 ? this.givenCounts : undefined);
    this.event = this.responseEvent(checked, this.recoveredBilled ? addUsage(usage, this.recoveredBilled) : usage);
    this.ok = true;
    this.refusedCalls = checked.refusedCalls;
    return this;
  }

  /**
   * Ends the `chat` span at the step, with what the check copied, read once: the response's id, finish reason,
   * error and content (the event's, an afterModel callback's response when it replaced the model's) and the
   * model's token counts (the event's, unless an afterModel callback replaced the response: the model's own are
   * then copied here). A call a callback recovered has its span's counts from {@link ModelCall.recover} and no
   * response recorded (the model gave none), and ends failed with the model's error. (A response the check
   * refused ends the span in {@link ModelCall.step}, with the counts and the error of the run's event.)
   */
  private endChat(chat: ChatSpan, raw: LlmResponse, checked: CheckedModelResponse): void {
    if (!chat.counted) {
      chat.usage(this.modelCounts(raw, checked.usage));
      chat.response(checked);
    }
    chat.end();
  }

  /**
   * The model's own counts for the step of `raw` (the response after the callbacks), as the check copies them:
   * those taken before the afterModel callbacks ran when there are any (one may have edited the response in
   * place), else `rawCounts` (what the check made of `raw`'s) when `raw` is the model's own response, else the
   * model's complete response's, copied here (a callback's response replaced it; none when no model answered).
   */
  private modelCounts(raw: LlmResponse, rawCounts: Usage | undefined): Usage | undefined {
    if (this.complete && this.chain.afterModel.length > 0) return this.modelUsage;
    return raw === this.complete ? rawCounts : usageOfComplete(this.complete, this.agent.model.modelName);
  }

  private responseEvent(response: CheckedModelResponse, usage: Usage | undefined): Event {
    const { agent, context, actions } = this;
    const event = Event.of(context.invocationId, agent.name, context.branch, response.content, actions);
    event.turnComplete = response.turnComplete;
    event.finishReason = response.finishReason;
    event.usage = usage;
    if (response.error) {
      event.errorCode = response.error.code;
      event.errorMessage = redactSecretText(response.error.message);
    }
    if (agent.outputKey && event.functionCalls().length === 0 && !event.errorCode) {
      setStateKey(actions.stateDelta, agent.outputKey, event.text());
    }
    return event;
  }

  /** The run was aborted while the callback that last ran ran: by the time it settled (see settledAborted). */
  private abortedInCallback(): boolean {
    return this.settledAborted ?? this.context.aborted;
  }

  /**
   * The context of one callback: it writes into the call's actions, and reads the session's state with the
   * callbacks' writes so far, until it settled ({@link ModelCall.settle}). Its settling is not yet recorded (see settledAborted).
   */
  private callbackContext(): CallbackContext {
    this.settledAborted = undefined;
    const { agent, context, actions } = this;
    return {
      appName: context.services.appName,
      userId: context.session.userId,
      sessionId: context.session.id,
      invocationId: context.invocationId,
      agentName: agent.name,
      state: new State((this.callbackStateBase ??= context.stateSnapshot()), actions.stateDelta, actions),
      actions,
    };
  }

  /**
   * What a callback returned, its writes folded ({@link ModelCall.settle}) the moment it settled: at once when it
   * returned a value that is no thenable (awaiting it would leave a microtask for its queued writes); a thenable's
   * `then` (read once, called here) when it resolves or rejects; a promise in the first reaction to it, as an await's.
   * (A synchronous throw is folded by the caller's catch.)
   */
  private settled<T>(ran: T | PromiseLike<T>): T | Promise<T> {
    const then = ran !== null && (typeof ran === 'object' || typeof ran === 'function') ? (ran as { then?: unknown }).then : undefined;
    if (typeof then !== 'function') {
      const refused = this.settle();
      if (refused) throw refused;
      return ran as T;
    }
    return new Promise<T>((resolve, reject) => {
      (then as PromiseLike<T>['then']).call(
        ran,
        (value) => {
          const refused = this.settle();
          if (refused) reject(refused);
          else resolve(value);
        },
        (thrown: unknown) => {
          reject(this.settle() ?? thrown);
        },
      );
    });
  }

  /**
   * A callback settled (returned or threw): what it wrote is folded into fresh actions, the call's from now on, as a
   * tool call's actions are folded into its step's once it settled (mergeActions). Its context keeps the old object,
   * so a write it makes later (a timer, an unawaited promise) lands on nothing an event holds: dropped, as a tool's is.
   * Returns the error the call ends on instead when the actions cannot be taken (a `transferToAgent` that is no agent
   * name, see mergeActions): the call's actions are then left empty, nothing of the callbacks kept.
   */
  private settle(): ToolsmithError | undefined {
    this.settledAborted = this.context.aborted;
    const settled = createEventActions();
    const refused = mergeActions(settled, this.actions);
    this.actions = settled;
    return refused;
  }
}

function toToolsmithError(thrown: unknown, agent: LlmAgent): ToolsmithError {
  const reportable = reportableError(thrown);
  if (reportable) return reportable;
  const reason = thrownMessage(thrown);
  return new ProviderError('PROVIDER_ERROR', `Model "${agent.model.modelName}" failed: ${reason}`, { provider: agent.model.provider, cause: thrown });
}

/**
 * A partial's content as the model's: a partial is not checked as a complete response is (it is never
 * stored), but a role other than "model" would show the model's words as the user's. A content object
 * is copied shallowly, its parts read once, so its role is "model" whatever the model's object answers
 * later (a `role` getter).
 */
function modelsContent(content: Content | undefined): Content | undefined {
  // A function is an object too (a callable Proxy): it gets the new content all the same.
  if ((typeof content !== 'object' && typeof content !== 'function') || content === null) return content;
  const parts: unknown = content.parts;
  // Readers of an event take its parts as an array (functionCalls() among them): anything else holds none.
  return { role: 'model', parts: Array.isArray(parts) ? (parts as Content['parts']) : [] };
}

/** `event` with `usage` (the tokens a failed call was billed), when there is any. */
function withUsage(event: Event, usage: Usage | undefined): Event {
  if (usage) event.usage = usage;
  return event;
}
