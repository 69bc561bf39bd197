import type { Context } from '@opentelemetry/api';
import type { ContainedTracer } from './contained-tracer';
import { INVOCATION_SPAN_NAME, TraceAttribute } from './gen-ai-conventions';
import type { InvocationTrace } from './invocation-trace';
import { globalTracerProviderRegistered, loadOtelApi } from './otel-api';
import type { TracingOptions } from './tracing-options';

// The span code, like the API, is required once something could record a span: it adds nothing to
// core's import.
let invocationTraceModule: typeof import('./invocation-trace') | undefined;
let containedTracerModule: typeof import('./contained-tracer') | undefined;

/** Instrumentation scope of Toolsmith's spans. */
export const TRACER_NAME = '@toolsmith/core';

/**
 * One runner's tracing: where its tracer comes from and whether contents are recorded. Decides per
 * invocation whether anything is traced at all, so a run with no tracer provider (or a sampled-out one)
 * costs one check (or one no-op span) and no extra work per event.
 */
export class Tracing {
  private ownTracer?: ContainedTracer;

  constructor(private readonly options: TracingOptions = {}) {}

  /**
   * The context a traced invocation's span will start in (the active one, when `runner.run()` is
   * called), or `undefined` when nothing could record a span: tracing is off, or there is no tracer
   * provider. Cheap: the span itself is started by {@link Tracing.startInvocation} when the run starts.
   */
  invocationParent(): Context | undefined {
    const { options } = this;
    if (options.enabled === false) return undefined;
    // Nothing can record: skip even loading the API.
    if (options.tracer === undefined && options.tracerProvider === undefined && !globalTracerProviderRegistered()) return undefined;
    return loadOtelApi().context.active();
  }

  /**
   * Starts the runner's span of one invocation, as a child of `parent` (see {@link Tracing.invocationParent}),
   * and returns the trace its agents, model calls and tool calls report to; undefined when the span would not record.
   */
  startInvocation(appName: string, parent: Context): InvocationTrace | undefined {
    const api = loadOtelApi();
    const tracer = this.tracer();
    if (tracer === undefined) return undefined;
    const span = tracer.startSpan(INVOCATION_SPAN_NAME, { kind: api.SpanKind.INTERNAL, attributes: { [TraceAttribute.APP_NAME]: appName } }, parent);
    if (!span.isRecording()) {
      span.end();
      return undefined;
    }
    const { InvocationTrace } = (invocationTraceModule ??= require('./invocation-trace') as typeof import('./invocation-trace'));
    return new InvocationTrace({ api, tracer, span, parent, recordContent: this.options.recordContent === true });
  }

  /**
   * The tracer, every call into it contained (see `ContainedTracer`: one that throws loses spans, never
   * events); `undefined` when the provider throws giving one (asked again at the next invocation).
   */
  private tracer(): ContainedTracer | undefined {
    const { options } = this;
    const { ContainedTracer } = (containedTracerModule ??= require('./contained-tracer') as typeof import('./contained-tracer'));
    try {
      // The global tracer is asked for each time: a provider registered (or replaced) later is then used.
      if (options.tracer === undefined && options.tracerProvider === undefined) return new ContainedTracer(loadOtelApi().trace.getTracer(TRACER_NAME));
      return (this.ownTracer ??= new ContainedTracer(options.tracer ?? options.tracerProvider!.getTracer(TRACER_NAME)));
    } catch {
      return undefined;
    }
  }
}
