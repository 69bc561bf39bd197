import type { Context, Exception, Link, Span, SpanAttributeValue, SpanAttributes, SpanContext, SpanOptions, SpanStatus, TimeInput, Tracer } from '@opentelemetry/api';

// Every call Toolsmith makes into the tracing API goes through these two wrappers. A tracer, a span or a
// span processor (called from inside `startSpan` and `end`) that throws loses spans, never events: what
// it threw is dropped here, so it never reaches the run (observability.md: a traced run makes the same
// events as an untraced one). No runtime import: required only once something could record a span.

/** The span context of a span that could not be started or read: all-zero ids, never recorded, never a parent. */
const INVALID_SPAN_CONTEXT: SpanContext = { traceId: '00000000000000000000000000000000', spanId: '0000000000000000', traceFlags: 0 };

/** A tracer whose `startSpan` never throws: a span it cannot start is one that records nothing. */
export class ContainedTracer {
  constructor(private readonly tracer: Tracer) {}

  /** `tracer.startSpan(name, options, context)`, contained (see {@link ContainedSpan}). */
  startSpan(name: string, options: SpanOptions, context: Context): Span {
    try {
      return new ContainedSpan(this.tracer.startSpan(name, options, context));
    } catch {
      return new ContainedSpan(undefined);
    }
  }
}

/**
 * A span whose every method is total: each call is passed on to `inner` (none when it could not be
 * started), and what it throws is dropped; `spanContext()` then answers an invalid context and
 * `isRecording()` false.
 */
export class ContainedSpan implements Span {
  constructor(private readonly inner: Span | undefined) {}

  spanContext(): SpanContext {
    try {
      return this.inner?.spanContext() ?? INVALID_SPAN_CONTEXT;
    } catch {
      return INVALID_SPAN_CONTEXT;
    }
  }

  isRecording(): boolean {
    try {
      return this.inner?.isRecording() === true;
    } catch {
      return false;
    }
  }

  setAttribute(key: string, value: SpanAttributeValue): this {
    try {
      this.inner?.setAttribute(key, value);
    } catch {
      // Lost with the span's attribute; the run goes on.
    }
    return this;
  }

  setAttributes(attributes: SpanAttributes): this {
    try {
      this.inner?.setAttributes(attributes);
    } catch {
      // As setAttribute.
    }
    return this;
  }

  addEvent(name: string, attributesOrStartTime?: SpanAttributes | TimeInput, startTime?: TimeInput): this {
    try {
      this.inner?.addEvent(name, attributesOrStartTime, startTime);
    } catch {
      // As setAttribute.
    }
    return this;
  }

  addLink(link: Link): this {
    try {
      this.inner?.addLink(link);
    } catch {
      // As setAttribute.
    }
    return this;
  }

  addLinks(links: Link[]): this {
    try {
      this.inner?.addLinks(links);
    } catch {
      // As setAttribute.
    }
    return this;
  }

  setStatus(status: SpanStatus): this {
    try {
      this.inner?.setStatus(status);
    } catch {
      // As setAttribute.
    }
    return this;
  }

  updateName(name: string): this {
    try {
      this.inner?.updateName(name);
    } catch {
      // As setAttribute.
    }
    return this;
  }

  end(endTime?: TimeInput): void {
    try {
      this.inner?.end(endTime);
    } catch {
      // A span processor's onEnd (or the exporter it calls) threw: the span may be lost, the run is not.
    }
  }

  recordException(exception: Exception, time?: TimeInput): void {
    try {
      this.inner?.recordException(exception, time);
    } catch {
      // As setAttribute.
    }
  }
}
