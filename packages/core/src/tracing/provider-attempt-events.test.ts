import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { callProvider } from '../adapter-kit/provider-call';
import { LlmAgent } from '../agents/llm-agent';
import { RateLimitError } from '../errors/provider-errors';
import type { LlmRequest } from '../model/llm-request';
import type { LlmResponse } from '../model/llm-response';
import type { GenerateOptions, Model } from '../model/model';
import { Runner } from '../runner/runner';
import { collect } from '../testing/collect';

/** A model built like an adapter, on callProvider: its "provider" refuses the first request with a 429. */
class RateLimitedOnceModel implements Model {
  readonly provider = 'acme';
  readonly modelName = 'acme-1';
  readonly sent: unknown[] = [];

  async *generate(request: LlmRequest, options: GenerateOptions = {}): AsyncGenerator<LlmResponse> {
    const body = { model: this.modelName, prompt: request.contents.flatMap((content) => content.parts.map((part) => part.text)).join(' ') };
    yield* callProvider({
      provider: this.provider,
      providerName: 'Acme',
      stream: false,
      signal: options.signal,
      request: async () => {
        this.sent.push(body);
        if (this.sent.length === 1) throw new RateLimitError('Acme: too many requests for key sk-proj-AbCdEfGhIjKlMnOp0123', { provider: 'acme', retryAfterMs: 0 });
        return { content: { role: 'model', parts: [{ text: 'Hello.' }] }, turnComplete: true };
      },
      openStream: () => Promise.reject(new Error('not streaming')),
      mapError: (error) => error,
      retry: { maxRetries: 2, initialDelayMs: 0, maxDelayMs: 0 },
      observe: options.onProviderExchange,
      body: () => body,
    });
  }
}

async function run(recordContent: boolean) {
  const exporter = new InMemorySpanExporter();
  const model = new RateLimitedOnceModel();
  const runner = new Runner({
    appName: 'shop',
    agent: new LlmAgent({ name: 'clerk', model }),
    tracing: { tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }), recordContent },
  });
  await collect(runner.run({ userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'Hi there' }] } }));
  const chat = exporter.getFinishedSpans().find((span) => span.name === 'chat acme-1')!;
  return { model, events: chat.events.map((event) => ({ name: event.name, attributes: event.attributes })) };
}

describe('a chat span: one toolsmith.provider.attempt event per attempt the adapter made', () => {
  it('records each attempt number, latency and error code, and no body without content recording', async () => {
    const { events } = await run(false);
    expect(events).toEqual([
      { name: 'toolsmith.provider.attempt', attributes: { 'toolsmith.provider.attempt': 1, 'toolsmith.provider.latency_ms': expect.any(Number), 'error.type': 'RATE_LIMITED' } },
      { name: 'toolsmith.provider.attempt', attributes: { 'toolsmith.provider.attempt': 2, 'toolsmith.provider.latency_ms': expect.any(Number) } },
    ]);
  });

  it('with content recording, adds the body as sent (JSON) and the failed attempt\'s message, secret-looking text redacted', async () => {
    const { model, events } = await run(true);
    expect(model.sent).toHaveLength(2);
    expect(events.map((event) => event.attributes)).toEqual([
      expect.objectContaining({ 'toolsmith.provider.request.body': JSON.stringify(model.sent[0]), 'toolsmith.provider.error.message': 'Acme: too many requests for key [redacted]' }),
      expect.objectContaining({ 'toolsmith.provider.request.body': JSON.stringify(model.sent[1]) }),
    ]);
    expect(JSON.parse(events[0].attributes!['toolsmith.provider.request.body'] as string)).toEqual({ model: 'acme-1', prompt: 'Hi there' });
  });
});
