import { withBilledUsage } from '../adapter-kit';
import { LlmAgent } from '../agents/llm-agent';
import type { AgentCallbacks } from '../agents/callbacks';
import type { LlmResponse } from '../model/llm-response';
import type { Model } from '../model/model';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { collect } from '../runner/__fixtures__/test-tools';
import { Runner } from '../runner/runner';
import { SequentialAgent } from '../agents/sequential-agent';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MAX_CLOSING_PARTS } from './close-model-parts';

const text = (value: string): LlmResponse['content'] => ({ role: 'model', parts: [{ text: value }] });

/** A model that sends two partial responses whatever `stream` says, logging when it produces each part. */
function chattyModel(log: string[], complete = true): Model {
  return {
    provider: 'test',
    modelName: 'chatty',
    async *generate() {
      log.push('model: part 1');
      yield { content: text('Hel'), partial: true };
      log.push('model: part 2');
      yield { content: text('lo'), partial: true };
      if (!complete) return;
      log.push('model: complete');
      yield { content: text('Hello'), turnComplete: true };
    },
  };
}

async function run(model: Model, streaming: boolean, callbacks?: AgentCallbacks) {
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, callbacks }), sessionService });
  const events = await collect(runner, 'hi', { streaming });
  const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
  return { events, stored: session!.events };
}

describe('model calls', () => {
  it.each([false, true])('emits the partial responses a model sends, then the complete one, and stores only that (streaming: %s)', async (streaming) => {
    const { events, stored } = await run(chattyModel([]), streaming);

    expect(events.map((e) => [e.partial ?? false, e.text()])).toEqual([[true, 'Hel'], [true, 'lo'], [false, 'Hello']]);
    expect(stored.map((e) => e.text())).toEqual(['hi', 'Hello']);
  });

  it('hands each partial event to the caller before the model produces the next part when streaming', async () => {
    const log: string[] = [];
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model: chattyModel(log) }) });
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'hi' }] }, streaming: true })) {
      log.push(`caller: ${event.text()}`);
    }

    expect(log).toEqual(['model: part 1', 'caller: Hel', 'model: part 2', 'caller: lo', 'model: complete', 'caller: Hello']);
  });

  it.each([false, true])('reports a model that ends without a complete response; onModelError may recover, then afterModel runs (streaming: %s)', async (streaming) => {
    const failed = await run(chattyModel([], false), streaming);
    expect(failed.events.at(-1)).toMatchObject({ errorCode: 'PROVIDER_RESPONSE_INVALID' });
    expect(failed.events.at(-1)!.errorMessage).toContain('"chatty" ended its answer without a complete response');

    const recovered = await run(chattyModel([], false), streaming, {
      onModelError: ({ error }) => ({ content: text(`fallback after ${error.code}`) }),
      afterModel: ({ response }) => ({ ...response, content: text(`${response.content!.parts[0].text}, checked`) }),
    });
    expect(recovered.events.map((e) => e.text())).toEqual(['Hel', 'lo', 'fallback after PROVIDER_RESPONSE_INVALID, checked']);
    expect(recovered.stored.at(-1)!.text()).toBe('fallback after PROVIDER_RESPONSE_INVALID, checked');
  });

  describe('the model\'s parts are read up to the complete response, then the model is closed', () => {
    /** A model whose generator logs what it runs: a partial, the complete response, and a part it would send after it. */
    function closingModel(log: string[], close: () => Promise<void> = async () => {}): Model {
      return {
        provider: 'test',
        modelName: 'closing',
        async *generate() {
          try {
            log.push('model: partial');
            yield { content: text('Hel'), partial: true };
            log.push('model: complete');
            yield { content: text('Hello'), turnComplete: true };
            log.push('model: after its complete response');
            yield { content: text('never read'), turnComplete: true };
          } finally {
            await close();
            log.push('model: closed');
          }
        },
      };
    }

    it.each([false, true])('a generator that would yield after its complete response is closed there: nothing after it runs (streaming: %s)', async (streaming) => {
      const log: string[] = [];
      const { events, stored } = await run(closingModel(log), streaming);

      expect(log).toEqual(['model: partial', 'model: complete', 'model: closed']);
      expect(events.map((e) => [e.partial ?? false, e.text()])).toEqual([[true, 'Hel'], [false, 'Hello']]);
      expect(stored.map((e) => e.text())).toEqual(['hi', 'Hello']);
    });

    it.each([false, true])('the generator\'s finally has run, even one that waits, before the model\'s event is handed out (streaming: %s)', async (streaming) => {
      const log: string[] = [];
      // The finally waits for a later turn of the event loop: an event handed out without waiting for the close would come first.
      const model = closingModel(log, () => new Promise((resolve) => setImmediate(resolve)));
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model }) });
      for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'hi' }] }, streaming })) {
        log.push(`caller: ${event.text()}`);
      }

      // (Not streaming, the partial is handed out with the model's event.)
      const caller = streaming ? ['model: partial', 'caller: Hel', 'model: complete'] : ['model: partial', 'model: complete'];
      expect(log).toEqual([...caller, 'model: closed', ...(streaming ? [] : ['caller: Hel']), 'caller: Hello']);
    });

    /** A model whose generator yields from its finally (twice), then cleans up: `for await ... break` leaves it suspended at the first of them. */
    function yieldingCleanupModel(log: string[], cleanupParts = 2): Model {
      return {
        provider: 'test',
        modelName: 'yielding-cleanup',
        async *generate() {
          try {
            yield { content: text('Hello'), turnComplete: true };
            log.push('model: after its complete response');
          } finally {
            for (let i = 1; i <= cleanupParts; i++) {
              log.push(`model: cleanup ${i}`);
              yield { content: text(`cleanup ${i}`), turnComplete: true };
            }
            log.push('model: closed');
          }
        },
      };
    }

    it.each([
      ['not streaming', false, false],
      ['streaming', true, false],
      ['traced', false, true],
    ])('a generator whose finally yields is closed to its end, what it yields there dropped (%s)', async (_, streaming, traced) => {
      const log: string[] = [];
      const tracerProvider = traced ? new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] }) : undefined;
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model: yieldingCleanupModel(log) }), ...(tracerProvider ? { tracing: { tracerProvider } } : {}) });
      const events = await collect(runner, 'hi', { streaming });

      expect(log).toEqual(['model: cleanup 1', 'model: cleanup 2', 'model: closed']);
      expect(events.map((e) => [e.partial ?? false, e.text()])).toEqual([[false, 'Hello']]);
    });

    it.each([false, true])('a generator whose finally throws after it yielded fails the call, as one whose finally throws at once does (streaming: %s)', async (streaming) => {
      const model: Model = {
        provider: 'test',
        modelName: 'failing-cleanup',
        async *generate() {
          try {
            yield { content: text('Hello'), turnComplete: true };
          } finally {
            yield { content: text('cleanup'), turnComplete: true };
            throw new Error('cleanup failed');
          }
        },
      };
      const { events } = await run(model, streaming);

      expect(events.at(-1)).toMatchObject({ errorCode: 'PROVIDER_ERROR', errorMessage: expect.stringContaining('cleanup failed') });
    });

    it.each([false, true])(`a generator whose finally yields ${MAX_CLOSING_PARTS} more parts after the one answering return() is closed; one that keeps yielding is left where it is, the run going on (streaming: %s)`, async (streaming) => {
      const closes: string[] = [];
      await run(yieldingCleanupModel(closes, MAX_CLOSING_PARTS + 1), streaming);
      expect(closes.at(-1)).toBe('model: closed');

      const log: string[] = [];
      const { events } = await run(yieldingCleanupModel(log, MAX_CLOSING_PARTS + 5), streaming);
      // One next() more than the parts it may yield, to find the generator done: here it yields one more instead.
      expect(log.at(-1)).toBe(`model: cleanup ${MAX_CLOSING_PARTS + 2}`);
      expect(events.map((e) => e.text())).toEqual(['Hello']);
    });

    it.each([false, true])("an iterator of the model's own whose return() answers { done: false } is closed as for await closes it: its next() is not called again (streaming: %s)", async (streaming) => {
      const calls: string[] = [];
      const model: Model = {
        provider: 'test',
        modelName: 'own-iterator',
        generate: () => ({
          [Symbol.asyncIterator]: () => ({
            next: async () => {
              calls.push('next');
              return calls.length === 1 ? { done: false, value: { content: text('Hello'), turnComplete: true } } : new Promise<never>(() => {});
            },
            return: async () => {
              calls.push('return');
              return { done: false, value: undefined } as unknown as IteratorResult<LlmResponse>;
            },
          }),
        }),
      };
      const { events } = await run(model, streaming);
      expect(calls).toEqual(['next', 'return']);
      expect(events.map((e) => e.text())).toEqual(['Hello']);
    });

    it.each([false, true])('an abort while return() runs leaves the cleanup where it stops; the complete response stands (streaming: %s)', async (streaming) => {
      const log: string[] = [];
      const controller = new AbortController();
      const model: Model = {
        provider: 'test',
        modelName: 'abort-in-return',
        async *generate() {
          try {
            yield { content: text('Hello'), turnComplete: true };
          } finally {
            log.push('finally');
            await Promise.resolve().then(() => controller.abort());
            yield { content: text('cleanup'), turnComplete: true };
            log.push('closed');
          }
        },
      };
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model }) });
      const events = [];
      for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] }, signal: controller.signal, streaming })) events.push(event);
      expect(log).toEqual(['finally']);
      expect(events.map((e) => e.errorCode ?? e.text())).toEqual(['Hello']);
    });

    it.each([false, true])("an iterator of the model's own is read only where for await reads it: a strict Proxy that throws on any other read works, traced too (traced: %s)", async (traced) => {
      const strict = <T extends object>(target: T): T =>
        new Proxy(target, {
          get: (object, key) => {
            if (!(key in object)) throw new Error(`strict: no ${String(key)}`);
            return Reflect.get(object, key);
          },
        });
      let sent = false;
      const iterator = strict({
        next: async () => (sent ? { done: true as const, value: undefined } : ((sent = true), { done: false as const, value: { content: text('Hello'), turnComplete: true } as LlmResponse })),
        return: async () => ({ done: false, value: undefined }) as unknown as IteratorResult<LlmResponse>,
      });
      const model: Model = { provider: 'test', modelName: 'strict', generate: () => strict({ [Symbol.asyncIterator]: () => iterator }) };
      const tracerProvider = traced ? new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] }) : undefined;
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model }), ...(tracerProvider ? { tracing: { tracerProvider } } : {}) });
      const events = await collect(runner, 'hi');
      expect(events.map((e) => e.errorMessage ?? e.text())).toEqual(['Hello']);
    });

    it.each([false, true])('a generator whose return() was replaced is closed as for await closes it, traced or not: its body runs no further (traced: %s)', async (traced) => {
      const log: string[] = [];
      const model: Model = {
        provider: 'test',
        modelName: 'replaced-return',
        generate() {
          const parts = (async function* () {
            yield { content: text('Hello'), turnComplete: true } as LlmResponse;
            for (let i = 0; ; i++) {
              log.push(`body-after-${i}`);
              yield { content: text('more'), turnComplete: true } as LlmResponse;
            }
          })();
          (parts as { return: unknown }).return = async () => ({ done: false, value: undefined });
          return parts;
        },
      };
      const tracerProvider = traced ? new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] }) : undefined;
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model }), ...(tracerProvider ? { tracing: { tracerProvider } } : {}) });
      const events = await collect(runner, 'hi');
      expect(log).toEqual([]);
      expect(events.map((e) => e.text())).toEqual(['Hello']);
    });

    it.each([false, true])("a complete response's token counts still count when the model's close then throws (streaming: %s)", async (streaming) => {
      const model: Model = {
        provider: 'test',
        modelName: 'throwing-close',
        async *generate() {
          try {
            yield { content: text('Hello'), turnComplete: true, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } };
          } finally {
             
            throw new Error('cleanup failed');
          }
        },
      };
      const { events } = await run(model, streaming);
      const failed = events.at(-1)!;
      expect(failed.errorCode).toBe('PROVIDER_ERROR');
      expect(failed.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
      expect(failed.runUsage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    });

    it("a failed close whose error carries billed usage adds it to the complete response's counts", async () => {
      const model: Model = {
        provider: 'test',
        modelName: 'billed-close',
        async *generate() {
          try {
            yield { content: text('Hello'), turnComplete: true, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } };
          } finally {
             
            throw withBilledUsage(new Error('continuation failed'), { inputTokens: 3, outputTokens: 1, totalTokens: 4 });
          }
        },
      };
      const { events } = await run(model, false);
      expect(events.at(-1)!.usage).toEqual({ inputTokens: 13, outputTokens: 6, totalTokens: 19 });
    });

    it('traced, an iterator of the model\'s own has its next read once and its return once, as for await reads them', async () => {
      const reads = { next: 0, return: 0 };
      let sent = false;
      const iterator = {
        get next() {
          reads.next++;
          return async () => (sent ? { done: true as const, value: undefined } : ((sent = true), { done: false as const, value: { content: text('Hello'), turnComplete: true } as LlmResponse }));
        },
        get return() {
          reads.return++;
          return async () => ({ done: true as const, value: undefined });
        },
      };
      const model: Model = { provider: 'test', modelName: 'getters', generate: () => ({ [Symbol.asyncIterator]: () => iterator }) as AsyncIterable<LlmResponse> };
      const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] });
      const events = await collect(new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model }), tracing: { tracerProvider } }), 'hi');
      expect(events.map((e) => e.text())).toEqual(['Hello']);
      expect(reads).toEqual({ next: 1, return: 1 });
    });

    it('an aborted run drives a closing generator no further', async () => {
      const log: string[] = [];
      const controller = new AbortController();
      const model: Model = {
        provider: 'test',
        modelName: 'abort-in-cleanup',
        async *generate() {
          try {
            yield { content: text('Hello'), turnComplete: true };
          } finally {
            for (let i = 1; ; i++) {
              log.push(`model: cleanup ${i}`);
              if (i === 3) controller.abort();
              yield { content: text(`cleanup ${i}`), turnComplete: true };
            }
          }
        },
      };
      const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model }) });
      for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] }, signal: controller.signal })) void event;
      expect(log.at(-1)).toBe('model: cleanup 3');
    });

    it('a part that cannot be read (a getter that throws) closes the generator, then ends the call with the error', async () => {
      const log: string[] = [];
      const model: Model = {
        provider: 'test',
        modelName: 'broken',
        async *generate() {
          try {
            yield {
              partial: true,
              content: {
                role: 'model',
                get parts(): never {
                  throw new Error('unreadable part');
                },
              },
            };
            log.push('model: read on');
          } finally {
            log.push('model: closed');
          }
        },
      };
      const { events } = await run(model, false);

      expect(log).toEqual(['model: closed']);
      expect(events.at(-1)).toMatchObject({ errorCode: 'PROVIDER_ERROR', errorMessage: expect.stringContaining('unreadable part') });
    });

    it('parts that are not a generator of the language\'s own (a model\'s own iterator, a generator whose return() was replaced) are closed by their own return(), called with no value, as for await calls it', async () => {
      const log: string[] = [];
      const responses: LlmResponse[] = [{ content: text('Hello'), turnComplete: true }, { content: text('never read') }];
      const ownIterator: Model = {
        provider: 'test',
        modelName: 'own',
        generate: () => ({
          [Symbol.asyncIterator]: () => ({
            next: async () => (responses.length > 1 ? { value: responses.shift()!, done: false } : { value: undefined, done: true }),
            return: async (...args: unknown[]) => {
              log.push(`own: return with ${args.length} arguments`);
              return { value: undefined, done: true };
            },
          }),
        }),
      };
      const replaced: Model = {
        provider: 'test',
        modelName: 'replaced',
        generate() {
          const parts = (async function* () {
            yield { content: text('Hello'), turnComplete: true };
          })();
          const close = parts.return.bind(parts);
          parts.return = (...args) => {
            log.push(`replaced: return with ${args.length} arguments`);
            return close(...args);
          };
          return parts;
        },
      };

      expect((await run(ownIterator, false)).events.map((e) => e.text())).toEqual(['Hello']);
      expect((await run(replaced, false)).events.map((e) => e.text())).toEqual(['Hello']);
      expect(log).toEqual(['own: return with 0 arguments', 'replaced: return with 0 arguments']);
    });
  });
});

describe('a model callback that throws', () => {
  it.each(['beforeModel', 'onModelError', 'afterModel'] as const)("%s: the run ends on the call's error event, authored by its agent, with the callbacks' state writes, streaming or not", async (which) => {
    for (const streaming of [false, true]) {
      const model: Model = {
        provider: 'test',
        modelName: 'm',
        async *generate() {
          if (which === 'onModelError') throw new Error('model down');
          yield { content: text('Hello'), turnComplete: true };
        },
      };
      const callback = ({ context }: { context: { state: { set(key: string, value: unknown): void } } }) => {
        context.state.set('seen', which);
        throw new Error(`${which} broke`);
      };
      const inner = new LlmAgent({ name: 'inner', model, callbacks: { [which]: callback } });
      const sessionService = new InMemorySessionService();
      const runner = new Runner({ appName: 'app', agent: new SequentialAgent({ name: 'outer', subAgents: [inner] }), sessionService });
      const events = (await collect(runner, 'hi', { streaming })).filter((event) => !event.partial);
      expect(events.map((event) => [event.author, event.errorCode, event.actions.stateDelta])).toEqual([['inner', 'INTERNAL_ERROR', { seen: which }]]);
      const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
      expect(session!.state).toEqual({ seen: which });
    }
  });
});
