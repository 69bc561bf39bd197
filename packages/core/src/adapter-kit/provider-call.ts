import { ProviderError } from '../errors/provider-errors';
import { providerObserverFailedMessage } from '../errors/messages';
import { RunAbortedError } from '../errors/run-aborted-error';
import { reportableError } from '../errors/reportable-error';
import { thrownMessage } from '../errors/thrown-message';
import type { LlmResponse } from '../model/llm-response';
import type { ProviderExchangeObserver } from '../model/provider-exchange';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelayMs, waitBeforeRetry } from './retry-policy';
import { scopeAbortSignal } from './scoped-abort-signal';

/** One model call through a provider SDK, as {@link callProvider} runs it. */
export interface ProviderCall {
  /** The provider id, e.g. `anthropic`, put on the errors it raises. */
  provider: string;
  /** The provider's name as users know it, for messages, e.g. `Anthropic`. */
  providerName: string;
  /** The caller's abort signal; the SDK gets a per-call signal derived from it. */
  signal?: AbortSignal;
  /** Whether to stream (`openStream`) or make one request (`request`). */
  stream: boolean;
  /** Sends the request and maps the provider's whole answer. */
  request(signal: AbortSignal): Promise<LlmResponse>;
  /** Sends the request and returns its stream, already mapped to partial responses and one `turnComplete`. */
  openStream(signal: AbortSignal): Promise<AsyncIterable<LlmResponse>>;
  /** Maps what the SDK threw to a Toolsmith error (usually a `ProviderError`); `streamStarted` says whether responses were flowing. */
  mapError(error: unknown, where: { streamStarted: boolean }): unknown;
  /** When a failed attempt is tried again (before any response arrived). Default: {@link DEFAULT_RETRY_POLICY}. */
  retry?: RetryPolicy;
  /** The caller's observer (`GenerateOptions.onProviderExchange`): told of each attempt, with `body()`. */
  observe?: ProviderExchangeObserver;
  /**
   * The request body exactly as `request` (or `openStream`, when streaming) hands it to the SDK, without
   * the abort signal. Called only when `observe` is set, once per call: nothing is built for it otherwise.
   */
  body(): unknown;
}

/**
 * Runs one model call the way every adapter must: nothing is sent once the caller's signal is aborted;
 * the SDK gets a signal scoped to this call (SDKs never remove the listener they add); an abort is
 * reported as `RunAbortedError` whatever the SDK threw, and also when the SDK ends an aborted stream
 * quietly (no complete response is delivered after an abort); other failures go through `mapError`; and
 * a connection failure after the stream started is a truncated answer (`PROVIDER_RESPONSE_INVALID`), not
 * an unreachable server. A retryable failure before any response is tried again per `retry`; streamed,
 * that includes an error the stream reports before its first response (an adapter yields nothing for
 * events that carry no output), never one after. With `observe`, each attempt is reported with the body,
 * its number, latency (streamed: until the first response) and mapped error (an abort is not reported:
 * the caller asked for it).
 *
 * @example
 * ```ts
 * yield* callProvider({
 *   provider: 'anthropic', providerName: 'Anthropic', signal: options.signal, stream: !!options.stream,
 *   request: async (signal) => mapAnthropicMessage(await client.messages.create(params, { signal })),
 *   openStream: async (signal) => assembleAnthropicStream(await client.messages.create({ ...params, stream: true }, { signal })),
 *   mapError: mapAnthropicError, observe: options.onProviderExchange, body: () => params,
 * });
 * ```
 */
export async function* callProvider(call: ProviderCall): AsyncGenerator<LlmResponse> {
  const policy = call.retry ?? DEFAULT_RETRY_POLICY;
  const reporter = call.observe ? new AttemptReporter(call, call.observe) : undefined;
  for (let retry = 0; ; retry++) {
    const attempt = await attemptCall(call, reporter);
    if (attempt.ok) {
      yield* attempt.responses;
      return;
    }
    // Only a failure before any response arrived (streamed: before the first) is tried again; a stream that broke is not re-sent.
    const delay = retryDelayMs(policy, retry, attempt.error);
    if (delay === undefined) throw attempt.error;
    await waitBeforeRetry(delay, call.signal);
  }
}

/**
 * Reports each attempt of one call to its observer; the body is built once, on the first attempt. An
 * observer that throws never breaks the call: its error is emitted once as a process warning
 * (`TOOLSMITH_PROVIDER_OBSERVER_FAILED`) and the call's later attempts are not reported to it.
 */
class AttemptReporter {
  private attempt = 0;
  private body: unknown;
  private started = 0;
  private observe: ProviderExchangeObserver | undefined;

  constructor(
    private readonly call: ProviderCall,
    observe: ProviderExchangeObserver,
  ) {
    this.observe = observe;
  }

  /** Called just before an attempt is sent. */
  start(): void {
    if (this.attempt++ === 0) this.body = this.call.body();
    this.started = performance.now();
  }

  /** Called once the attempt's answer (streamed: its first response) arrived, or with the mapped error it failed with. */
  end(outcome: Attempt): void {
    const { call, attempt, body } = this;
    const latencyMs = performance.now() - this.started;
    if (!this.observe) return;
    try {
      this.observe({ provider: call.provider, attempt, body, latencyMs, ...(outcome.ok ? {} : { error: errorSummary(outcome.error) }) });
    } catch (thrown) {
      this.observe = undefined;
      process.emitWarning(providerObserverFailedMessage(call.providerName, thrown), { code: 'TOOLSMITH_PROVIDER_OBSERVER_FAILED' });
    }
  }
}

function errorSummary(mapped: unknown): { code: string; message: string } {
  // Read as the run reports it (see reportableError): a code that cannot be is the provider's failure, by its text.
  const reported = reportableError(mapped);
  return reported ? { code: reported.code, message: reported.message } : { code: 'PROVIDER_ERROR', message: thrownMessage(mapped) };
}

type Attempt = { ok: true; responses: AsyncGenerator<LlmResponse> } | { ok: false; error: unknown };

/**
 * One attempt: the request sent and its answer (streamed: its first response) received, or the mapped error. The
 * attempt is reported outside the `try`, so that an observer that throws is never taken for the
 * provider's failure (and the request never sent again for it).
 */
async function attemptCall(call: ProviderCall, reporter: AttemptReporter | undefined): Promise<Attempt> {
  const { signal } = call;
  if (signal?.aborted) throw new RunAbortedError(signal.reason);
  const scoped = scopeAbortSignal(signal);
  reporter?.start();
  let attempt: Attempt;
  try {
    if (!call.stream) {
      const response = await call.request(scoped.signal);
      scoped.dispose();
      attempt = { ok: true, responses: single(response, signal) };
    } else {
      attempt = await firstResponse(call, (await call.openStream(scoped.signal))[Symbol.asyncIterator](), scoped);
    }
  } catch (error) {
    scoped.dispose();
    // SDKs report an abort in their own ways (a quiet end, a connection error); the caller asked for it.
    if (signal?.aborted) throw new RunAbortedError(signal.reason);
    attempt = { ok: false, error: call.mapError(error, { streamStarted: false }) };
  }
  reporter?.end(attempt);
  return attempt;
}

/**
 * Waits for an open stream's first response. Events that carry no output (`message_start`,
 * `response.created`, `ping`) yield none, so an error the stream reports before it is a failure before
 * any response: the caller saw nothing, and the request may be sent again.
 */
async function firstResponse(call: ProviderCall, stream: AsyncIterator<LlmResponse>, scoped: { dispose(): void }): Promise<Attempt> {
  let first: IteratorResult<LlmResponse>;
  try {
    first = await stream.next();
  } catch (error) {
    scoped.dispose();
    if (call.signal?.aborted) throw new RunAbortedError(call.signal.reason);
    return { ok: false, error: streamError(call, error) };
  }
  return { ok: true, responses: relay(call, first, stream, scoped) };
}

async function* single(response: LlmResponse, signal: AbortSignal | undefined): AsyncGenerator<LlmResponse> {
  yield response;
  if (signal?.aborted) throw new RunAbortedError(signal.reason);
}

/**
 * Relays an open stream from its first response. A failure once it flows is not retried: the caller
 * has seen responses.
 */
async function* relay(
  call: ProviderCall,
  first: IteratorResult<LlmResponse>,
  stream: AsyncIterator<LlmResponse>,
  scoped: { dispose(): void },
): AsyncGenerator<LlmResponse> {
  const { signal } = call;
  let next = first;
  try {
    for (; !next.done; next = await stream.next()) {
      const response = next.value;
      if (response.turnComplete && signal?.aborted) break;
      yield response;
    }
  } catch (error) {
    next = { done: true, value: undefined };
    if (signal?.aborted) throw new RunAbortedError(signal.reason);
    throw streamError(call, error);
  } finally {
    scoped.dispose();
    // Left early (an abort, the caller stopped reading): the SDK's stream is closed, as `for await` would.
    if (!next.done) await stream.return?.();
  }
  // A stream the SDK ended quietly on abort may look complete; the caller must still learn it was cut short.
  if (signal?.aborted) throw new RunAbortedError(signal.reason);
}

/** A failure once the stream is open, mapped: a lost connection is a truncated answer, not an unreachable server. */
function streamError(call: ProviderCall, error: unknown): unknown {
  const mapped = call.mapError(error, { streamStarted: true });
  if (ProviderError.isInstance(mapped) && mapped.code === 'PROVIDER_CONNECTION_FAILED') {
    return new ProviderError('PROVIDER_RESPONSE_INVALID', `${call.providerName} stream was cut off mid-way: ${mapped.message}`, {
      provider: call.provider,
      cause: error,
    });
  }
  return mapped;
}
