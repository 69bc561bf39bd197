import { RunAbortedError } from '../errors/run-aborted-error';
import type { LlmRequest } from '../model/llm-request';
import type { LlmResponse } from '../model/llm-response';
import type { GenerateOptions, Model } from '../model/model';
import { expectCancelsOnAbort } from './expect-cancels-on-abort';
import { type WireReply, type WireServer, startWireServer } from './wire-server';

/** A minimal HTTP model: one partial response per received chunk; `abortError` is what it throws on abort. */
class FetchModel implements Model {
  readonly provider = 'test';
  readonly modelName = 'fetch';
  constructor(
    private readonly url: string,
    private readonly abortError: (reason: unknown) => Error,
  ) {}

  async *generate(_request: LlmRequest, options: GenerateOptions = {}): AsyncIterable<LlmResponse> {
    try {
      const response = await fetch(this.url, { method: 'POST', body: '{}', signal: options.signal });
      if (!options.stream) {
        yield { content: { role: 'model', parts: [{ text: await response.text() }] }, turnComplete: true };
        return;
      }
      const reader = response.body!.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        yield { content: { role: 'model', parts: [{ text: new TextDecoder().decode(chunk.value) }] }, partial: true };
      }
      yield { turnComplete: true };
    } catch (error) {
      throw options.signal?.aborted ? this.abortError(error) : error;
    }
  }
}

describe('expectCancelsOnAbort', () => {
  let server: WireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const check = (abortError: (reason: unknown) => Error) =>
    expectCancelsOnAbort({
      start: async (reply: WireReply) => {
        server = await startWireServer(() => reply);
        return new FetchModel(server.url, abortError);
      },
      server: () => server!,
      request: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [] },
      stream: { sse: [{ data: 'one' }, { data: 'two' }, { data: 'three' }], delayMs: 20 },
    });

  it('passes for a model that stops with RunAbortedError', async () => {
    await check((reason) => new RunAbortedError(reason));
  });

  it('fails for a model that rejects with another error on abort', async () => {
    await expect(check((reason) => new Error(`aborted: ${String(reason)}`))).rejects.toThrow(/RunAbortedError/);
  });
});
