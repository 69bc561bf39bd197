import type { Span, Tracer } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events/event';
import { FnTool, user } from '../runner/__fixtures__/test-tools';
import { Runner, type RunnerOptions } from '../runner/runner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { ContainedSpan } from './contained-tracer';

const SPAN_METHODS = ['spanContext', 'isRecording', 'setAttribute', 'setAttributes', 'addEvent', 'addLink', 'addLinks', 'setStatus', 'updateName', 'end', 'recordException'] as const;

/** What a run's events say, without ids and times: what the caller and the session see. */
function said(events: readonly Event[]): unknown[] {
  return events.map((event) => ({ author: event.author, content: event.content, errorCode: event.errorCode, errorMessage: event.errorMessage, usage: event.usage }));
}

/**
 * Two runs of one session (a tool call that fails, one that succeeds, then an answer; a second message), and
 * what their events said; `tracing` as the runner is given it (none: untraced).
 */
async function twoRuns(tracing?: RunnerOptions['tracing']): Promise<{ first: unknown[]; second: unknown[]; stored: unknown[] }> {
  const model = new ScriptedModel(
    [{ calls: [{ id: 'c1', name: 'fails' }, { id: 'c2', name: 'works' }], usage: { inputTokens: 5, outputTokens: 2 } }, 'Done.', 'Again.'],
    { provider: 'scripted', modelName: 'scripted-model' },
  );
  const tools = [new FnTool('fails', () => { throw new Error('no stock'); }), new FnTool('works', () => ({ ok: true }))];
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'clerk', description: 'Sells.', model, tools }), sessionService, ...(tracing ? { tracing } : {}) });
  const run = async (text: string) => {
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: user(text) })) events.push(event);
    return said(events);
  };
  const first = await run('buy');
  const second = await run('again');
  const session = await sessionService.getSession({ appName: 'shop', userId: 'u1', sessionId: 's1' });
  return { first, second, stored: said(session!.events) };
}

/** A tracer of an in-memory SDK whose spans named `prefix…` throw from `method`. */
function throwingTracer(method: string, prefix: string): { tracer: Tracer; exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  const real = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('t');
  const tracer = {
    startSpan(name: string, ...rest: unknown[]): Span {
      if (method === 'startSpan' && name.startsWith(prefix)) throw new Error('tracer exploded');
      const span = (real.startSpan as (...args: unknown[]) => Span)(name, ...rest);
      if (!name.startsWith(prefix)) return span;
      return new Proxy(span, {
        get(target, key) {
          if (key === method) return () => { throw new Error('span exploded'); };
          const value = (target as unknown as Record<PropertyKey, unknown>)[key];
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
    startActiveSpan: real.startActiveSpan.bind(real),
  } as Tracer;
  return { tracer, exporter };
}

describe('tracing that throws loses spans, never events', () => {
  let untraced: Awaited<ReturnType<typeof twoRuns>>;
  beforeAll(async () => {
    untraced = await twoRuns();
  });

  const cases = [...SPAN_METHODS, 'startSpan'].flatMap((method) => ['toolsmith.invocation', 'invoke_agent', 'chat', 'execute_tool'].map((prefix) => [method, prefix] as const));
  it.each(cases)('%s throwing on the %s span: the same events, stored, and the session runs again', async (method, prefix) => {
    const { tracer } = throwingTracer(method, prefix);
    expect(await twoRuns({ tracer, recordContent: true })).toEqual(untraced);
  });

  it("a tracer provider whose getTracer throws: the runs are untraced", async () => {
    const tracerProvider = { getTracer: () => { throw new Error('provider exploded'); } };
    expect(await twoRuns({ tracerProvider })).toEqual(untraced);
  });

  it.each(['onStart', 'onEnd'] as const)('a span processor throwing in %s: the same events, and the spans the SDK could export', async (where) => {
    const exporter = new InMemorySpanExporter();
    const bad: SpanProcessor = {
      onStart: () => { if (where === 'onStart') throw new Error('processor exploded'); },
      onEnd: () => { if (where === 'onEnd') throw new Error('processor exploded'); },
      forceFlush: async () => {},
      shutdown: async () => {},
    };
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [bad, new SimpleSpanProcessor(exporter)] });
    expect(await twoRuns({ tracerProvider, recordContent: true })).toEqual(untraced);
  });
});

describe('ContainedSpan', () => {
  it('passes each call on, and drops what the span throws', () => {
    const calls: string[] = [];
    const inner = Object.fromEntries(SPAN_METHODS.map((method) => [method, () => { calls.push(method); throw new Error(method); }])) as unknown as Span;
    const span = new ContainedSpan(inner);
    const context = { traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 };
    expect(span.spanContext()).toEqual(context);
    expect(span.isRecording()).toBe(false);
    expect(span.setAttribute('a', 1)).toBe(span);
    expect(span.setAttributes({ a: 1 })).toBe(span);
    expect(span.addEvent('e')).toBe(span);
    expect(span.addLink({ context })).toBe(span);
    expect(span.addLinks([{ context }])).toBe(span);
    expect(span.setStatus({ code: 2 })).toBe(span);
    expect(span.updateName('n')).toBe(span);
    span.end();
    span.recordException(new Error('x'));
    expect(calls).toEqual([...SPAN_METHODS]);
  });
});
