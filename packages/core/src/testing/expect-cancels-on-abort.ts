import { RunAbortedError } from '../errors/run-aborted-error';
import type { LlmRequest } from '../model/llm-request';
import type { LlmResponse } from '../model/llm-response';
import type { Model } from '../model/model';
import { collect } from './collect';
import { waitFor } from './wait-for';
import type { WireReply, WireServer } from './wire-server';

/** What {@link expectCancelsOnAbort} needs from an adapter's wire test. */
export interface CancellationCheck {
  /** Starts a wire server that answers every request with `reply`, and returns a model talking to it. */
  start(reply: WireReply): Promise<Model>;
  /** The server the last `start` started (the check closes the first one; the test's cleanup closes the second). */
  server(): WireServer;
  /** The request sent in both checks (the second time with `stream: true`); its content does not matter. */
  request: LlmRequest;
  /** A streamed answer of two or more partial responses, sent slowly enough (`delayMs`) to abort in between. */
  stream: WireReply;
}

/**
 * Checks, with Jest's `expect`, that a model stops when its signal aborts: while the request waits for an
 * answer (the call rejects with {@link RunAbortedError}) and mid-stream (no response after the abort).
 * Shared by the adapters' wire tests, so every adapter is held to the same cancellation contract.
 *
 * @example
 * it('cancels the HTTP request when the signal aborts', () =>
 *   expectCancelsOnAbort({ start: (reply) => start(() => reply), server: () => server!, request: ask('hi'), stream: { sse, delayMs: 20 } }));
 */
export async function expectCancelsOnAbort(check: CancellationCheck): Promise<void> {
  let model = await check.start({ hang: true });
  const controller = new AbortController();
  const pending = collect(model.generate(check.request, { signal: controller.signal })).catch((e: unknown) => e);
  await waitFor(() => check.server().requests.length === 1);
  controller.abort();
  const error = await pending;
  expect(error).toBeInstanceOf(RunAbortedError);
  expect(error).toMatchObject({ code: 'RUN_ABORTED' });
  await check.server().close();

  model = await check.start(check.stream);
  const streamController = new AbortController();
  const seen: LlmResponse[] = [];
  const streamError = await (async () => {
    for await (const response of model.generate(check.request, { stream: true, signal: streamController.signal })) {
      seen.push(response);
      streamController.abort();
    }
  })().catch((e: unknown) => e);
  expect(seen).toHaveLength(1);
  expect(streamError).toBeInstanceOf(RunAbortedError);
}
