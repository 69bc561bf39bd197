import type { Tracer, TracerProvider } from '@opentelemetry/api';

/**
 * Configures the OpenTelemetry spans a {@link Runner} emits (`RunnerOptions.tracing`). Without it the
 * runner uses the global tracer provider, so registering an SDK (e.g. `NodeTracerProvider.register()`)
 * is all it takes; with none registered nothing is recorded. See docs/observability.md.
 */
export interface TracingOptions {
  /** False: emit no spans from this runner. Default true. */
  enabled?: boolean;
  /** Where the tracer comes from. Default: the global tracer provider. */
  tracerProvider?: TracerProvider;
  /** The tracer to use (wins over `tracerProvider`). */
  tracer?: Tracer;
  /**
   * Also record contents on spans: the messages sent to and received from the model, each tool call's
   * arguments and result. They may hold personal or secret data, so the default is false (names, ids,
   * token counts and error codes only).
   */
  recordContent?: boolean;
}
