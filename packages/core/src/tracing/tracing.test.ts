import { context as otelContext, trace, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AgentTool } from '../agent-tool/agent-tool';
import { LlmAgent } from '../agents/llm-agent';
import { confirmationResponse } from '../confirmation/confirmation-response';
import { ProviderError } from '../errors/provider-errors';
import { ToolsmithError } from '../errors/toolsmith-error';
import { withBilledUsage } from '../model/billed-usage';
import type { OnModelErrorCallback } from '../agents/callbacks';
import type { Event } from '../events/event';
import type { Content } from '../model/content';
import type { LlmRequest } from '../model/llm-request';
import type { LlmResponse } from '../model/llm-response';
import type { Model } from '../model/model';
import { onlyRequest } from '../runner/__fixtures__/confirmation-fixtures';
import { FnTool, user, weatherTool } from '../runner/__fixtures__/test-tools';
import { Runner, type RunnerOptions } from '../runner/runner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel, type Script } from '../testing/scripted-model';
import { PAUSED_TRACEPARENT_KEY } from './gen-ai-conventions';
import { Tracing } from './tracing';

function inMemoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider };
}

/** A promise and its resolver, for barriers between tools. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function send(runner: Runner, newMessage: Content, sessionId = 's1'): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId, newMessage })) events.push(event);
  return events;
}

function setup(script: Script, tools: FnTool[], options: Partial<RunnerOptions> = {}) {
  const { exporter, provider } = inMemoryTracing();
  const model = new ScriptedModel(script, { provider: 'scripted', modelName: 'scripted-model' });
  const runner = new Runner({
    appName: 'shop',
    agent: new LlmAgent({ name: 'clerk', description: 'Answers shop questions.', model, tools }),
    tracing: { tracerProvider: provider },
    ...options,
  });
  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => spans().filter((s) => s.name === name);
  const one = (name: string) => {
    const found = named(name);
    if (found.length !== 1) throw new Error(`expected one span "${name}", got ${found.length}: ${spans().map((s) => s.name).join(', ')}`);
    return found[0];
  };
  return { exporter, provider, model, runner, spans, named, one };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

/** Two calls that each wait until both have started (so they provably overlap), and one that throws. */
function parallelTools() {
  const started = [deferred(), deferred()];
  const both = Promise.all(started.map((d) => d.promise));
  const lookup = (index: number) =>
    new FnTool(`lookup${index}`, async (args) => {
      started[index].resolve();
      await both;
      return { city: args.city, sunny: true };
    });
  const broken = new FnTool('broken', () => {
    throw new Error('disk full');
  });
  return [lookup(0), lookup(1), broken];
}

const parallelScript: Script = [
  {
    content: {
      role: 'model',
      parts: [
        { functionCall: { id: 'call-a', name: 'lookup0', args: { city: 'Paris' } } },
        { functionCall: { id: 'call-b', name: 'lookup1', args: { city: 'Rome' } } },
        { functionCall: { id: 'call-c', name: 'broken', args: {} } },
      ],
    },
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 100 },
    responseId: 'resp-1',
  },
  'Sunny in both; the broken tool failed.',
];

describe('tracing: the span tree of a turn', () => {
  it('nests invoke_agent under the runner span, and chat and parallel execute_tool spans (siblings) under invoke_agent', async () => {
    const { runner, spans, named, one } = setup(parallelScript, parallelTools());
    await send(runner, user('Weather in Paris and Rome?'));

    const invocation = one('toolsmith.invocation');
    const agent = one('invoke_agent clerk');
    const chats = named('chat scripted-model');
    const tools = ['execute_tool lookup0', 'execute_tool lookup1', 'execute_tool broken'].map(one);

    expect(parentOf(invocation)).toBeUndefined();
    expect(parentOf(agent)).toBe(idOf(invocation));
    expect(chats).toHaveLength(2);
    for (const span of [...chats, ...tools]) expect(parentOf(span)).toBe(idOf(agent));
    expect(new Set(spans().map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(spans()).toHaveLength(1 + 1 + 2 + 3);

    expect(invocation.attributes).toMatchObject({ 'toolsmith.app.name': 'shop', 'gen_ai.conversation.id': 's1', 'gen_ai.agent.name': 'clerk' });
    expect(invocation.attributes['toolsmith.invocation.id']).toMatch(/^inv/);
    expect(agent.kind).toBe(SpanKind.INTERNAL);
    expect(agent.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'clerk',
      'gen_ai.agent.description': 'Answers shop questions.',
      'gen_ai.conversation.id': 's1',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted-model',
      // The turn's two model calls, summed (the second reports zeros).
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
      'gen_ai.usage.cache_read.input_tokens': 100,
    });
  });

  it("the invoke_agent and runner spans carry the run's total usage over its model calls, reasoning tokens included", async () => {
    const script: Script = [
      { ...(parallelScript[0] as LlmResponse), usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 100, reasoningTokens: 20 } },
      {
        content: { role: 'model', parts: [{ text: 'Sunny in both.' }] },
        turnComplete: true,
        finishReason: { unified: 'stop' },
        usage: { inputTokens: 200, outputTokens: 15, cachedInputTokens: 150, reasoningTokens: 5 },
      },
    ];
    const { runner, one } = setup(script, parallelTools());
    const events = await send(runner, user('Weather?'));
    const total = { 'gen_ai.usage.input_tokens': 320, 'gen_ai.usage.output_tokens': 45, 'gen_ai.usage.cache_read.input_tokens': 250, 'gen_ai.usage.reasoning.output_tokens': 25 };
    expect(one('invoke_agent clerk').attributes).toMatchObject(total);
    expect(one('toolsmith.invocation').attributes).toMatchObject(total);
    expect(events[events.length - 1].runUsage).toEqual({ inputTokens: 320, outputTokens: 45, cachedInputTokens: 250, reasoningTokens: 25 });
  });

  it('records the model call: operation, provider, model, response id, finish reasons and token counts', async () => {
    const { runner, named } = setup(parallelScript, parallelTools());
    await send(runner, user('Weather?'));
    const [first, second] = named('chat scripted-model');
    expect(first.kind).toBe(SpanKind.CLIENT);
    expect(first.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted-model',
      'gen_ai.conversation.id': 's1',
      'gen_ai.response.id': 'resp-1',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
      'gen_ai.usage.cache_read.input_tokens': 100,
    });
    expect(second.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(first.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records each call: tool name, call id, type; a failed tool sets the status and error.type to its code', async () => {
    const { runner, one } = setup(parallelScript, parallelTools());
    await send(runner, user('Weather?'));
    const ok = one('execute_tool lookup0');
    expect(ok.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup0',
      'gen_ai.tool.call.id': 'call-a',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'The lookup0 tool.',
    });
    expect(ok.status.code).toBe(SpanStatusCode.UNSET);

    const failed = one('execute_tool broken');
    expect(failed.attributes['error.type']).toBe('TOOL_EXECUTION_FAILED');
    // Without content recording the status says what failed, never with the conversation's words.
    expect(failed.status).toEqual({ code: SpanStatusCode.ERROR, message: 'The tool threw; the message follows the error exposure policy.' });
    // The model acted on the error response: the turn itself did not fail.
    expect(one('invoke_agent clerk').status.code).toBe(SpanStatusCode.UNSET);
    expect(one('toolsmith.invocation').status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records an unknown tool as a failed execute_tool span (TOOL_NOT_FOUND)', async () => {
    const { runner, one } = setup([{ calls: [{ id: 'x', name: 'nope', args: {} }] }, 'Sorry.'], [weatherTool()]);
    await send(runner, user('Hi'));
    expect(one('execute_tool nope').attributes['error.type']).toBe('TOOL_NOT_FOUND');
  });

  it('a failed model call fails the chat, agent and runner spans with the error code', async () => {
    const { runner, one } = setup([new ProviderError('RATE_LIMITED', 'Too many requests.', { provider: 'scripted' })], []);
    const events = await send(runner, user('Hi'));
    expect(events.at(-1)!.errorCode).toBe('RATE_LIMITED');
    for (const name of ['chat scripted-model', 'invoke_agent clerk', 'toolsmith.invocation']) {
      const span = one(name);
      expect(span.attributes['error.type']).toBe('RATE_LIMITED');
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
    }
  });

  it.each([
    ['a plain Error', () => new Error('callback broke'), 'INTERNAL_ERROR'],
    ['a Toolsmith error', () => new ProviderError('RATE_LIMITED', 'Too many requests.', { provider: 'scripted' }), 'RATE_LIMITED'],
  ])('a model callback that throws %s fails the agent and runner spans with the run error event\'s code', async (_, thrown, code) => {
    const { runner, one } = setup(['never'], [], {
      plugins: [
        {
          name: 'breaks',
          beforeModel: () => {
            throw thrown();
          },
        },
      ],
    });
    const events = await send(runner, user('Hi'));
    expect(events.at(-1)!.errorCode).toBe(code);
    for (const name of ['invoke_agent clerk', 'toolsmith.invocation']) {
      const span = one(name);
      expect(span.attributes['error.type']).toBe(code);
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
    }
  });

  it('no chat span when a beforeModel callback answers instead of the model', async () => {
    const { exporter, provider } = inMemoryTracing();
    const runner = new Runner({
      appName: 'shop',
      agent: new LlmAgent({
        name: 'clerk',
        model: new ScriptedModel([]),
        callbacks: { beforeModel: [() => ({ content: { role: 'model', parts: [{ text: 'cached' }] }, turnComplete: true })] },
      }),
      tracing: { tracerProvider: provider },
    });
    await send(runner, user('Hi'));
    expect(exporter.getFinishedSpans().map((s) => s.name).sort()).toEqual(['invoke_agent clerk', 'toolsmith.invocation']);
  });

  it('an afterModel callback that throws ends the chat span failed, with the other spans', async () => {
    const { exporter, provider } = inMemoryTracing();
    const runner = new Runner({
      appName: 'shop',
      agent: new LlmAgent({
        name: 'clerk',
        model: new ScriptedModel(['Hello'], { provider: 'scripted', modelName: 'scripted-model' }),
        callbacks: {
          afterModel: [
            () => {
              throw new Error('audit store down');
            },
          ],
        },
      }),
      tracing: { tracerProvider: provider },
    });
    const events = await send(runner, user('Hi'));
    expect(events.at(-1)!.errorCode).toBe('INTERNAL_ERROR');
    const chat = exporter.getFinishedSpans().filter((s) => s.name === 'chat scripted-model');
    expect(chat).toHaveLength(1);
    expect(chat[0].status).toEqual({ code: SpanStatusCode.ERROR, message: 'A failure Toolsmith did not expect; the message says what happened.' });
    expect(chat[0].attributes['error.type']).toBe('INTERNAL_ERROR');
  });

  describe('an onModelError callback: the chat span records the error the run reports', () => {
    // Billed before it failed: the error event and the chat span count it, whatever the callbacks do.
    const billed = { inputTokens: 70, outputTokens: 5, totalTokens: 75 };
    const rateLimited = () => withBilledUsage(new ProviderError('RATE_LIMITED', 'Too many requests.', { provider: 'scripted' }), billed);
    const run = async (onModelError: OnModelErrorCallback, streaming: boolean) => {
      const { exporter, provider } = inMemoryTracing();
      const runner = new Runner({
        appName: 'shop',
        agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel([rateLimited()], { provider: 'scripted', modelName: 'scripted-model' }), callbacks: { onModelError } }),
        tracing: { tracerProvider: provider },
      });
      const events: Event[] = [];
      for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('Hi'), streaming })) if (!event.partial) events.push(event);
      const span = (name: string) => exporter.getFinishedSpans().find((s) => s.name === name)!;
      return { events, chat: span('chat scripted-model'), agent: span('invoke_agent clerk'), invocation: span('toolsmith.invocation') };
    };

    const recode =
      (code: string): OnModelErrorCallback =>
      ({ error }) =>
        void Object.assign(error, { code });
    const throwing =
      (thrown: () => Error): OnModelErrorCallback =>
      () => {
        throw thrown();
      };
    it.each([
      ["changes the error's code", recode('QUOTA_EXHAUSTED'), 'QUOTA_EXHAUSTED'],
      ['changes it to no code', recode('not a code!'), 'INTERNAL_ERROR'],
      ['throws another Toolsmith error', throwing(() => new ToolsmithError('FALLBACK_FAILED', 'The fallback model failed too.')), 'FALLBACK_FAILED'],
      ['throws a plain error', throwing(() => new Error('fallback broke')), 'INTERNAL_ERROR'],
    ] as const)('one that %s: the chat span and the error event agree, streaming or not', async (_, onModelError, code) => {
      for (const streaming of [false, true]) {
        const { events, chat, agent, invocation } = await run(onModelError, streaming);
        expect(events.at(-1)!.errorCode).toBe(code);
        expect(events.at(-1)!.usage).toEqual(billed);
        for (const span of [chat, agent, invocation]) {
          expect(span.attributes['error.type']).toBe(code);
          expect(span.status.code).toBe(SpanStatusCode.ERROR);
          expect([span.attributes['gen_ai.usage.input_tokens'], span.attributes['gen_ai.usage.output_tokens']]).toEqual([70, 5]);
        }
      }
    });

    it("with content recording on, the chat span's status message is the error event's, redacted as it is", async () => {
      const secret = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';
      const answer = { content: { role: 'model' as const, parts: [{ text: 'Hi.' }] }, turnComplete: true };
      const cases: [Script, Record<string, unknown>][] = [
        [[rateLimited()], { onModelError: () => { throw `key ${secret} leaked`; } }],
        [[rateLimited()], { onModelError: () => { throw new ToolsmithError('FALLBACK_FAILED', `bad key ${secret}`); } }],
        [[answer], { afterModel: () => { throw new Error(`audit key ${secret}`); } }],
        [[{ ...answer, error: { code: 'CONTENT_FILTERED', message: `filtered ${secret}` } }], {}],
      ];
      for (const [script, callbacks] of cases) {
        for (const streaming of [false, true]) {
          const { exporter, provider } = inMemoryTracing();
          const model = new ScriptedModel(script, { provider: 'scripted', modelName: 'scripted-model' });
          const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model, callbacks }), tracing: { tracerProvider: provider, recordContent: true } });
          const events: Event[] = [];
          for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('Hi'), streaming })) if (!event.partial) events.push(event);
          const failed = events.at(-1)!;
          expect(failed.errorMessage).toContain('[redacted]');
          const chat = exporter.getFinishedSpans().find((span) => span.name === 'chat scripted-model')!;
          expect(chat.status).toEqual({ code: SpanStatusCode.ERROR, message: failed.errorMessage });
          expect(chat.attributes['error.type']).toBe(failed.errorCode);
        }
      }
    });

    it("with content recording on, a recovered call's chat span has the model's error message redacted", async () => {
      const { exporter, provider } = inMemoryTracing();
      const leaking = new ProviderError('RATE_LIMITED', 'Too many requests for key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD.', { provider: 'scripted' });
      const model = new ScriptedModel([leaking], { provider: 'scripted', modelName: 'scripted-model' });
      const onModelError = () => ({ content: { role: 'model' as const, parts: [{ text: 'Busy.' }] }, turnComplete: true });
      const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model, callbacks: { onModelError } }), tracing: { tracerProvider: provider, recordContent: true } });
      await send(runner, user('Hi'));
      const chat = exporter.getFinishedSpans().find((span) => span.name === 'chat scripted-model')!;
      expect(chat.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Too many requests for key [redacted].' });
    });

    it('one that recovers with a response the boundary check refuses: the run and the chat span end on INVALID_MODEL_RESPONSE, streaming or not', async () => {
      const recover: OnModelErrorCallback = () => ({ content: { role: 'model', parts: [{ text: 'Busy.' }] }, turnComplete: 'yes' as unknown as boolean });
      for (const streaming of [false, true]) {
        const { events, chat, agent } = await run(recover, streaming);
        expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_RESPONSE']);
        for (const span of [chat, agent]) {
          expect(span.attributes['error.type']).toBe('INVALID_MODEL_RESPONSE');
          expect(span.status.code).toBe(SpanStatusCode.ERROR);
        }
      }
    });

    it("one that recovers (after changing the error's code): the chat span ends failed with the model's own error, and the run goes on", async () => {
      const recover: OnModelErrorCallback = ({ error }) => {
        Object.assign(error, { code: 'QUOTA_EXHAUSTED' });
        return { content: { role: 'model', parts: [{ text: 'Busy, try later.' }] }, turnComplete: true };
      };
      for (const streaming of [false, true]) {
        const { events, chat, agent } = await run(recover, streaming);
        expect(events.map((e) => e.errorCode ?? e.text())).toEqual(['Busy, try later.']);
        expect(chat.attributes['error.type']).toBe('RATE_LIMITED');
        expect([chat.attributes['gen_ai.usage.input_tokens'], chat.attributes['gen_ai.usage.output_tokens']]).toEqual([70, 5]);
        expect(agent.status.code).not.toBe(SpanStatusCode.ERROR);
      }
    });
  });

  describe("the chat span's token counts are those the event gets, as the boundary check copied them", () => {
    // The model's response, its `usage` made by `usage()` at each read of it; its close throws when `closeFails`.
    const modelAnswering = (usage: () => unknown, closeFails: boolean): Model => ({
      provider: 'scripted',
      modelName: 'scripted-model',
      async *generate() {
        const response = { content: { role: 'model', parts: [{ text: 'Hello.' }] }, turnComplete: true } as LlmResponse;
        Object.defineProperty(response, 'usage', { enumerable: true, get: usage });
        try {
          yield response;
        } finally {
          if (closeFails) throw new Error('close failed');
        }
      },
    });
    const run = async (model: Model, traced: boolean) => {
      const { exporter, provider } = inMemoryTracing();
      const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model }), tracing: traced ? { tracerProvider: provider } : { enabled: false } });
      const events = (await send(runner, user('Hi'))).map((e) => ({ error: e.errorCode, text: e.text(), usage: e.usage }));
      const chat = exporter.getFinishedSpans().filter((s) => s.name === 'chat scripted-model');
      const counts = chat.map((s) => [s.attributes['gen_ai.usage.input_tokens'], s.attributes['gen_ai.usage.output_tokens']]);
      return { events, counts };
    };
    const counts = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
    const usages: [string, () => () => unknown, object | undefined][] = [
      // Each read of a count once: a Proxy that refuses a second read is a usage as good as any.
      [
        'a Proxy that throws at a second read of a count',
        () => {
          let reads = 0;
          const usage = new Proxy(counts, {
            get: (target, key) => {
              if (key === 'inputTokens' && ++reads > 1) throw new Error('read twice');
              return Reflect.get(target, key) as unknown;
            },
          });
          return () => usage;
        },
        counts,
      ],
      [
        'a getter that answers otherwise at each read',
        () => {
          let reads = 0;
          return () => ({ inputTokens: 10 * ++reads, outputTokens: 5 });
        },
        { inputTokens: 10, outputTokens: 5 },
      ],
      ['a count the check refuses (a string)', () => () => ({ inputTokens: '10', outputTokens: 5 }), undefined],
    ];
    for (const [name, usage, expected] of usages) {
      it.each([false, true])(`${name}: a traced and an untraced run make the same events, and the span says the event's counts (the close fails: %s)`, async (closeFails) => {
        const untraced = await run(modelAnswering(usage(), closeFails), false);
        const traced = await run(modelAnswering(usage(), closeFails), true);
        expect(traced.events).toEqual(untraced.events);
        const last = traced.events.at(-1)!;
        // A refused count refuses the response (INVALID_MODEL_RESPONSE), or counts nothing of a response whose close failed.
        expect(last.error).toBe(closeFails ? 'PROVIDER_ERROR' : expected ? undefined : 'INVALID_MODEL_RESPONSE');
        expect(last.usage).toEqual(expected);
        expect(traced.counts).toEqual([expected ? [10, 5] : [undefined, undefined]]);
      });
    }
  });

  describe("the chat span's response id, finish reason, error and content are the event's, each read once, by the boundary check", () => {
    // One member of the model's response made by a getter that answers otherwise at each read (the nth read gives `value(n)`).
    const members: [keyof LlmResponse, (n: number) => unknown][] = [
      ['responseId', (n) => `resp-${n}`],
      ['finishReason', (n) => ({ unified: 'stop', raw: `stop-${n}` })],
      ['error', (n) => ({ code: `BLOCKED_${n}`, message: `Blocked (${n}).` })],
      ['content', (n) => ({ role: 'model', parts: [{ text: `Hello ${n}.` }] })],
    ];
    const modelWith = (member: keyof LlmResponse, value: (n: number) => unknown, reads: { count: number }): Model => ({
      provider: 'scripted',
      modelName: 'scripted-model',
      async *generate() {
        const response = { content: { role: 'model', parts: [{ text: 'Hello.' }] }, turnComplete: true } as LlmResponse;
        Object.defineProperty(response, member, { enumerable: true, get: () => value(++reads.count) });
        yield response;
      },
    });
    const run = async (member: keyof LlmResponse, value: (n: number) => unknown, traced: boolean) => {
      const reads = { count: 0 };
      const { exporter, provider } = inMemoryTracing();
      const agent = new LlmAgent({ name: 'clerk', model: modelWith(member, value, reads) });
      const runner = new Runner({ appName: 'shop', agent, tracing: traced ? { tracerProvider: provider, recordContent: true } : { enabled: false } });
      const events = (await send(runner, user('Hi'))).map((e) => ({ error: e.errorCode, message: e.errorMessage, text: e.text(), finishReason: e.finishReason }));
      const chat = exporter.getFinishedSpans().filter((s) => s.name === 'chat scripted-model');
      return { events, chat, reads: reads.count };
    };
    it.each(members)('%s: a traced and an untraced run make the same events, and the span says what the event says', async (member, value) => {
      const untraced = await run(member, value, false);
      const traced = await run(member, value, true);
      expect(traced.events).toEqual(untraced.events);
      expect([untraced.reads, traced.reads]).toEqual([1, 1]);
      expect(traced.chat).toHaveLength(1);
      const [event] = traced.events;
      const { attributes } = traced.chat[0];
      if (member === 'responseId') expect(attributes['gen_ai.response.id']).toBe('resp-1');
      if (member === 'finishReason') expect([event.finishReason?.raw, attributes['gen_ai.response.finish_reasons']]).toEqual(['stop-1', ['stop-1']]);
      if (member === 'error') expect([event.error, attributes['error.type'], traced.chat[0].status.message]).toEqual(['BLOCKED_1', 'BLOCKED_1', 'Blocked (1).']);
      const output = JSON.parse(attributes['gen_ai.output.messages'] as string) as [{ parts: { content: string }[]; finish_reason?: string }];
      expect(output[0].parts[0].content).toBe(event.text);
      expect(output[0].finish_reason).toBe(event.finishReason?.raw);
    });
  });

  describe('error statuses without content recording', () => {
    const strict = () =>
      new FnTool('pay', () => ({ paid: true }), {
        parameters: { type: 'object', properties: { card: { type: 'string', pattern: '^[0-9]{16}$' }, amount: { type: 'integer' } }, required: ['card', 'amount'], additionalProperties: false },
      });
    const script: Script = [
      { calls: [{ id: 'c1', name: 'pay', args: { card: 'SECRET-CARD-4111', amount: 'SECRET-AMOUNT' } }] },
      { calls: [{ id: 'c2', name: 'pay', args: '{"card": SECRET-MALFORMED-ARGS' }] },
      'SECRET-FINAL-ANSWER is not JSON',
    ];

    it('carry the error code and a message free of arguments and the model answer (INVALID_ARGUMENTS, MALFORMED_ARGUMENTS, OUTPUT_INVALID)', async () => {
      const { exporter, provider } = inMemoryTracing();
      const events: Event[] = [];
      for (const recordContent of [false, true]) {
        exporter.reset();
        const runner = new Runner({
          appName: 'shop',
          agent: new LlmAgent({
            name: 'clerk',
            model: new ScriptedModel(script, { provider: 'scripted', modelName: 'scripted-model' }),
            tools: [strict()],
            outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
            outputRetries: 0,
          }),
          tracing: { tracerProvider: provider, recordContent },
        });
        events.push(...(await send(runner, user('Pay it'), `s-${recordContent}`)));
        const failed = exporter.getFinishedSpans().filter((span) => span.status.code === SpanStatusCode.ERROR);
        const codes = failed.map((span) => span.attributes['error.type']);
        expect(codes).toEqual(expect.arrayContaining(['INVALID_ARGUMENTS', 'MALFORMED_ARGUMENTS', 'OUTPUT_INVALID']));
        const statuses = JSON.stringify(failed.map((span) => span.status.message));
        if (recordContent) {
          expect(statuses).toContain('SECRET'); // with content recording, the full messages
        } else {
          expect(statuses).not.toContain('SECRET');
          expect(JSON.stringify(exporter.getFinishedSpans().map((span) => [span.attributes, span.events, span.status]))).not.toContain('SECRET');
        }
      }
      // The messages themselves did quote the conversation (the model and the events get them whole).
      expect(JSON.stringify(events.flatMap((e) => [e.errorMessage, e.functionResponses()]))).toContain('SECRET-CARD-4111');
    });
  });
});

describe('tracing: compaction', () => {
  function compactingRunner(summarizer: Model) {
    const { exporter, provider } = inMemoryTracing();
    const model = new ScriptedModel(() => 'ok', { modelName: 'agent-model' });
    const runner = new Runner({
      appName: 'shop',
      agent: new LlmAgent({ name: 'clerk', model, compaction: { strategy: 'summarize', everyTurns: 2, keepTurns: 1, model: summarizer } }),
      tracing: { tracerProvider: provider },
    });
    return { runner, spans: () => exporter.getFinishedSpans() };
  }

  it("the summarizing call has its own chat span, marked toolsmith.compaction, under the agent's turn", async () => {
    const summarizer = new ScriptedModel([{ content: { role: 'model', parts: [{ text: 'They said hi.' }] }, usage: { inputTokens: 40, outputTokens: 5 } }], { provider: 'other', modelName: 'summarizer' });
    const { runner, spans } = compactingRunner(summarizer);
    await send(runner, user('Hi'));
    await send(runner, user('Hi again'));
    const compaction = spans().filter((s) => s.name === 'chat summarizer');
    expect(compaction).toHaveLength(1);
    expect(compaction[0].attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'other',
      'gen_ai.request.model': 'summarizer',
      'gen_ai.conversation.id': 's1',
      'gen_ai.usage.input_tokens': 40,
      'gen_ai.usage.output_tokens': 5,
      'toolsmith.compaction': true,
    });
    const turn = spans().filter((s) => s.name === 'invoke_agent clerk')[1];
    expect(parentOf(compaction[0])).toBe(idOf(turn));
    expect(spans().filter((s) => s.name === 'chat agent-model').every((s) => s.attributes['toolsmith.compaction'] === undefined)).toBe(true);
  });

  it("the summarizing call's chat span records the response as the check copied it: each member read once", async () => {
    const reads = { responseId: 0, finishReason: 0 };
    const response = { content: { role: 'model', parts: [{ text: 'They said hi.' }] } } as LlmResponse;
    Object.defineProperty(response, 'responseId', { enumerable: true, get: () => `sum-${++reads.responseId}` });
    Object.defineProperty(response, 'finishReason', { enumerable: true, get: () => ({ unified: 'stop', raw: `end-${++reads.finishReason}` }) });
    const summarizer: Model = {
      provider: 'other',
      modelName: 'summarizer',
      async *generate() {
        yield response;
      },
    };
    const { runner, spans } = compactingRunner(summarizer);
    await send(runner, user('Hi'));
    await send(runner, user('Hi again'));
    const [span] = spans().filter((s) => s.name === 'chat summarizer');
    expect([span.attributes['gen_ai.response.id'], span.attributes['gen_ai.response.finish_reasons']]).toEqual(['sum-1', ['end-1']]);
    expect(reads).toEqual({ responseId: 1, finishReason: 1 });
  });

  it('a failing summarizer ends its chat span failed with the error code', async () => {
    const summarizer = new ScriptedModel([new ProviderError('RATE_LIMITED', 'slow down', { provider: 'other' })], { modelName: 'summarizer' });
    const { runner, spans } = compactingRunner(summarizer);
    await send(runner, user('Hi'));
    await send(runner, user('Hi again'));
    const [span] = spans().filter((s) => s.name === 'chat summarizer');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('RATE_LIMITED');
  });
});

describe('tracing: contents', () => {
  const contentKeys = ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result'];

  it('records no arguments, results or messages by default', async () => {
    const { runner, spans } = setup(parallelScript, parallelTools());
    await send(runner, user('Weather in Paris and Rome?'));
    for (const span of spans()) for (const key of contentKeys) expect(span.attributes).not.toHaveProperty(key);
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain('Paris');
  });

  it('records them when the runner opts in', async () => {
    const { exporter, provider } = inMemoryTracing();
    const model = new ScriptedModel(parallelScript);
    const runner = new Runner({
      appName: 'shop',
      agent: new LlmAgent({ name: 'clerk', model, instruction: 'Be brief.', tools: parallelTools() }),
      tracing: { tracerProvider: provider, recordContent: true },
    });
    await send(runner, user('Weather in Paris and Rome?'));
    const spans = exporter.getFinishedSpans();
    const byName = (name: string) => spans.find((s) => s.name === name)!;

    const tool = byName('execute_tool lookup0');
    expect(JSON.parse(tool.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ city: 'Paris' });
    expect(JSON.parse(tool.attributes['gen_ai.tool.call.result'] as string)).toEqual({ city: 'Paris', sunny: true });
    const failed = byName('execute_tool broken');
    expect(JSON.parse(failed.attributes['gen_ai.tool.call.result'] as string)).toMatchObject({ error: { code: 'TOOL_EXECUTION_FAILED' } });

    const [first, second] = spans.filter((s) => s.name.startsWith('chat '));
    expect(JSON.parse(first.attributes['gen_ai.system_instructions'] as string)).toEqual([{ type: 'text', content: 'Be brief.' }]);
    expect(JSON.parse(first.attributes['gen_ai.input.messages'] as string)).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'Weather in Paris and Rome?' }] }]);
    expect(JSON.parse(first.attributes['gen_ai.output.messages'] as string)).toEqual([
      {
        role: 'assistant',
        finish_reason: 'tool_calls',
        parts: [
          { type: 'tool_call', id: 'call-a', name: 'lookup0', arguments: { city: 'Paris' } },
          { type: 'tool_call', id: 'call-b', name: 'lookup1', arguments: { city: 'Rome' } },
          { type: 'tool_call', id: 'call-c', name: 'broken', arguments: {} },
        ],
      },
    ]);
    const input = JSON.parse(second.attributes['gen_ai.input.messages'] as string) as Array<{ role: string; parts: Array<{ type: string }> }>;
    expect(input.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(input[2].parts.map((p) => p.type)).toEqual(['tool_call_response', 'tool_call_response', 'tool_call_response']);
  });
});

describe('tracing: streaming', () => {
  it('a streaming turn has the same spans, and the chat span records the complete response', async () => {
    const { exporter, provider } = inMemoryTracing();
    const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(['A long streamed answer.']) }), tracing: { tracerProvider: provider } });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: user('Hi'), streaming: true })) events.push(event);
    expect(events.filter((e) => e.partial).length).toBeGreaterThan(1);
    const chat = exporter.getFinishedSpans().find((s) => s.name === 'chat scripted-model')!;
    expect(chat.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(exporter.getFinishedSpans().map((s) => s.name).sort()).toEqual(['chat scripted-model', 'invoke_agent clerk', 'toolsmith.invocation']);
  });
});

describe('tracing: a confirmation pause and its resume', () => {
  const refund = () => new FnTool('refund', (args) => ({ refunded: args.amount }), { requireConfirmation: true });
  // Chooses from the request, so a runner in "another process" (a fresh model) goes on where the pause left off.
  const script: Script = (request) =>
    request.contents.at(-1)!.parts[0].functionResponse ? 'Refunded 250.' : { calls: [{ id: 'call-r', name: 'refund', args: { amount: 250 } }] };

  it('links the resumed invocation to the paused one, through a JSON round trip of the session store', async () => {
    const { exporter, provider } = inMemoryTracing();
    const sessionService = new InMemorySessionService();
    const runnerWith = (sessions: InMemorySessionService) =>
      new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(script), tools: [refund()] }), sessionService: sessions, tracing: { tracerProvider: provider } });

    const paused = await send(runnerWith(sessionService), user('Refund 250'));
    const request = onlyRequest(paused);
    const pausedSpan = exporter.getFinishedSpans().find((s) => s.name === 'toolsmith.invocation')!;
    const pendingTool = exporter.getFinishedSpans().find((s) => s.name === 'execute_tool refund')!;
    expect(pendingTool.attributes['toolsmith.tool.confirmation_requested']).toBe(true);
    expect(pendingTool.status.code).toBe(SpanStatusCode.UNSET);
    const pauseEvent = paused.find((e) => e.longRunningToolIds?.includes(request.id))!;
    const { traceId, spanId } = pausedSpan.spanContext();
    expect(pauseEvent.customMetadata).toEqual({ [PAUSED_TRACEPARENT_KEY]: `00-${traceId}-${spanId}-01` });

    // "Another process": the session comes back from its JSON form, and a new runner resumes it.
    exporter.reset();
    const restored = InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(sessionService.toJSON())));
    const resumed = await send(runnerWith(restored), confirmationResponse(request, { confirmed: true }));
    expect(resumed.at(-1)!.text()).toBe('Refunded 250.');

    const resumedSpan = exporter.getFinishedSpans().find((s) => s.name === 'toolsmith.invocation')!;
    expect(resumedSpan.spanContext().traceId).not.toBe(traceId); // a new trace, linked to the paused one
    expect(resumedSpan.links.map((l) => ({ traceId: l.context.traceId, spanId: l.context.spanId }))).toEqual([{ traceId, spanId }]);
    const ran = exporter.getFinishedSpans().find((s) => s.name === 'execute_tool refund')!;
    expect(ran.attributes['toolsmith.tool.confirmation_requested']).toBeUndefined();
    expect(parentOf(ran)).toBe(idOf(exporter.getFinishedSpans().find((s) => s.name === 'invoke_agent clerk')!));
  });

  it('links the answer to a long-running call to the invocation that started it', async () => {
    const { exporter, provider } = inMemoryTracing();
    const exportTool = new FnTool('startExport', () => ({ status: 'pending' }), { longRunning: true });
    const model = new ScriptedModel((request) => (request.contents.at(-1)!.parts[0].functionResponse?.response.status === 'done' ? 'Exported.' : { calls: [{ id: 'exp-1', name: 'startExport', args: {} }] }));
    const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model, tools: [exportTool] }), tracing: { tracerProvider: provider } });
    await send(runner, user('Export'));
    const started = exporter.getFinishedSpans().find((s) => s.name === 'toolsmith.invocation')!.spanContext();
    exporter.reset();
    await send(runner, { role: 'user', parts: [{ functionResponse: { id: 'exp-1', name: 'startExport', response: { status: 'done' } } }] });
    const links = exporter.getFinishedSpans().find((s) => s.name === 'toolsmith.invocation')!.links;
    expect(links.map((l) => l.context.spanId)).toEqual([started.spanId]);
  });

  it('a message that answers no pause gets no link; a malformed stored traceparent is ignored', async () => {
    const { exporter, provider } = inMemoryTracing();
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(script), tools: [refund()] }), sessionService, tracing: { tracerProvider: provider } });
    const request = onlyRequest(await send(runner, user('Refund 250')));
    const session = (await sessionService.getSession({ appName: 'shop', userId: 'u1', sessionId: 's1' }))!;
    for (const event of session.events) if (event.customMetadata) event.customMetadata[PAUSED_TRACEPARENT_KEY] = 'not-a-traceparent';
    exporter.reset();
    await send(runner, confirmationResponse(request, { confirmed: true }));
    expect(exporter.getFinishedSpans().find((s) => s.name === 'toolsmith.invocation')!.links).toEqual([]);
  });
});

describe("tracing: the runner span's life", () => {
  /** A provider that counts the spans started and ended. */
  function counting() {
    const exporter = new InMemorySpanExporter();
    const counts = { started: 0, ended: 0 };
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new SimpleSpanProcessor(exporter),
        { onStart: () => void counts.started++, onEnd: () => void counts.ended++, forceFlush: () => Promise.resolve(), shutdown: () => Promise.resolve() },
      ],
    });
    const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(() => 'Hello.') }), tracing: { tracerProvider: provider } });
    return { runner, counts, exporter };
  }
  const input = { userId: 'u1', sessionId: 's1', newMessage: user('Hi') };

  it('a run whose iterator is never touched, returned or thrown into before its first next() starts no span; a run that starts ends its span', async () => {
    const { runner, counts } = counting();
    runner.run(input);
    await runner.run(input).return();
    await expect(runner.run(input).throw(new Error('not started'))).rejects.toThrow('not started');
    expect(counts).toEqual({ started: 0, ended: 0 });

    const events = runner.run(input);
    await events.next();
    await events.return();
    expect(counts.started).toBeGreaterThan(0);
    expect(counts.ended).toBe(counts.started);
  });

  it("a consumer's throw() mid-run ends the runner span with ERROR status and the INTERNAL_ERROR code", async () => {
    const { runner, exporter } = counting();
    const events = runner.run({ ...input, streaming: true });
    await events.next();
    await events.throw(new Error('the caller gave up'));
    expect(await events.next()).toEqual({ value: undefined, done: true });
    const span = exporter.getFinishedSpans().find((s) => s.name === 'toolsmith.invocation')!;
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('INTERNAL_ERROR');
  });

  it('the span starts at the first next(), under the context active when run() was called', async () => {
    otelContext.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    try {
      const { runner, exporter } = counting();
      const outer = inMemoryTracing().provider.getTracer('app').startSpan('POST /chat');
      // The iterator is made inside the caller's span and iterated outside it.
      const events = otelContext.with(trace.setSpan(otelContext.active(), outer), () => runner.run(input));
      for await (const _event of events);
      outer.end();
      const span = exporter.getFinishedSpans().find((s) => s.name === 'toolsmith.invocation')!;
      expect(parentOf(span)).toBe(outer.spanContext().spanId);
    } finally {
      otelContext.disable();
    }
  });
});

describe('tracing: where the tracer comes from', () => {
  afterEach(() => {
    trace.disable();
    otelContext.disable();
  });

  it('with no tracer provider registered, an invocation is not traced and pause events carry no trace context', async () => {
    expect(new Tracing().invocationParent()).toBeUndefined();
    const runner = new Runner({
      appName: 'shop',
      agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel([{ calls: [{ id: 'c', name: 'refund', args: {} }] }]), tools: [new FnTool('refund', () => ({}), { requireConfirmation: true })] }),
    });
    const events = await send(runner, user('Refund'));
    expect(events.some((e) => e.longRunningToolIds?.length)).toBe(true);
    for (const event of events) expect(event.customMetadata).toBeUndefined();
  });

  it('uses the global tracer provider by default, and none when tracing is disabled', async () => {
    const { exporter, provider } = inMemoryTracing();
    trace.setGlobalTracerProvider(provider);
    const runnerWith = (enabled?: boolean) =>
      new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(['Hi.', 'Hi.']) }), tracing: enabled === undefined ? undefined : { enabled } });
    await send(runnerWith(), user('Hi'));
    expect(exporter.getFinishedSpans().map((s) => s.name).sort()).toEqual(['chat scripted-model', 'invoke_agent clerk', 'toolsmith.invocation']);
    exporter.reset();
    await send(runnerWith(false), user('Hi'));
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('a sampled-out invocation records nothing below its span', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
      sampler: { shouldSample: () => ({ decision: 0 }), toString: () => 'never' },
    });
    const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', model: new ScriptedModel(['Hi.']) }), tracing: { tracerProvider: provider } });
    await send(runner, user('Hi'));
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('nests under the caller\'s active span; spans a tool or a model makes nest under execute_tool and chat', async () => {
    otelContext.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const { exporter, provider } = inMemoryTracing();
    const tracer: Tracer = provider.getTracer('app');
    // A model whose SDK makes a span per HTTP request, as an HTTP instrumentation would.
    const scripted = new ScriptedModel([{ calls: [{ id: 'f', name: 'fetchPage', args: {} }] }, 'Done.']);
    const model: Model = {
      provider: scripted.provider,
      modelName: scripted.modelName,
      async *generate(request: LlmRequest) {
        const span = tracer.startSpan('POST /v1/responses');
        await Promise.resolve();
        span.end();
        yield* scripted.generate(request);
      },
    };
    const fetchTool = new FnTool('fetchPage', async () => tracer.startActiveSpan('GET /page', async (span) => {
      await Promise.resolve();
      span.end();
      return { ok: true };
    }));
    const runner = new Runner({
      appName: 'shop',
      agent: new LlmAgent({ name: 'clerk', model, tools: [fetchTool] }),
      tracing: { tracer: provider.getTracer('toolsmith') },
    });
    await tracer.startActiveSpan('POST /chat', async (request) => {
      await send(runner, user('Fetch'));
      request.end();
    });
    const spans = exporter.getFinishedSpans();
    const byName = (name: string) => spans.find((s) => s.name === name)!;
    expect(parentOf(byName('toolsmith.invocation'))).toBe(idOf(byName('POST /chat')));
    expect(parentOf(byName('GET /page'))).toBe(idOf(byName('execute_tool fetchPage')));
    const chats = spans.filter((s) => s.name.startsWith('chat '));
    const requests = spans.filter((s) => s.name === 'POST /v1/responses');
    expect(requests.map(parentOf)).toEqual(chats.map(idOf));
  });

  it('an AgentTool\'s invocation nests under the execute_tool span of its call', async () => {
    otelContext.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const { exporter, provider } = inMemoryTracing();
    const helper = new LlmAgent({
      name: 'helper',
      description: 'Helps.',
      model: new ScriptedModel([{ content: { role: 'model', parts: [{ text: 'Helped.' }] }, usage: { inputTokens: 1000, outputTokens: 100 } }]),
    });
    const runner = new Runner({
      appName: 'shop',
      agent: new LlmAgent({
        name: 'clerk',
        model: new ScriptedModel([
          { content: { role: 'model', parts: [{ functionCall: { id: 'h', name: 'helper', args: { request: 'help' } } }] }, usage: { inputTokens: 10, outputTokens: 1 } },
          { content: { role: 'model', parts: [{ text: 'Done.' }] }, usage: { inputTokens: 20, outputTokens: 2 } },
        ]),
        tools: [new AgentTool({ agent: helper })],
      }),
      tracing: { tracerProvider: provider },
    });
    const events = await send(runner, user('Help me'));
    // The calling run's total leaves the inner agent's calls out (docs/runner.md); its own invocation span has them.
    expect(events.at(-1)!.runUsage).toMatchObject({ inputTokens: 30, outputTokens: 3 });
    const spans = exporter.getFinishedSpans();
    const invocations = spans.filter((s) => s.name === 'toolsmith.invocation');
    expect(invocations).toHaveLength(2);
    const inner = invocations.find((s) => parentOf(s) !== undefined)!;
    expect(parentOf(inner)).toBe(idOf(spans.find((s) => s.name === 'execute_tool helper')!));
    expect(parentOf(spans.find((s) => s.name === 'invoke_agent helper')!)).toBe(idOf(inner));
    expect(inner.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 1000, 'gen_ai.usage.output_tokens': 100 });
  });
});
