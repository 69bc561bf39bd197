import type { Attributes, AttributeValue } from '@opentelemetry/api';
import { BasicTracerProvider, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { isSecretName, redactSecretText, redactSecrets } from '@toolsmith/core/internal';
import type { WireInspection, WireModelAttempt, WireModelCall, WireSpan } from './protocol/api-types';

/** Traces kept per host: the oldest are dropped past this, so a long dev session does not grow without end. */
const MAX_TRACES = 500;


/**
 * What the dev UI's inspector shows of the runs of one host: the OpenTelemetry spans the runner emits
 * (`toolsmith.invocation`, `invoke_agent`, `chat`, `execute_tool`, see docs/observability.md), recorded in
 * memory by an OpenTelemetry SDK tracer provider the host gives its runner, with content recording on. Each
 * invocation is one trace; a session's traces are those whose spans name it as `gen_ai.conversation.id`.
 * Attributes (of spans and their events) whose names suggest a secret (authorization, API keys,
 * passwords, cookies, credentials) are dropped when a span ends, before anything is stored.
 */
export class RunInspector {
  /** The tracer provider to give the runner (`tracing: { tracerProvider, recordContent: true }`). */
  readonly tracerProvider: BasicTracerProvider;
  /** Ended spans by trace id, oldest trace first. */
  private readonly traces = new Map<string, WireSpan[]>();
  /** Trace ids by session id. */
  private readonly sessions = new Map<string, Set<string>>();
  /**
   * Each span's place in the order spans started, kept from its start to its end (then on its wire
   * span): a span's start time has the wall clock's milliseconds only, so spans started within one
   * millisecond (an invocation, its agent and its first model call) tie, and the order they ended in
   * (children first) would decide.
   */
  private readonly started = new WeakMap<object, number>();
  private startedCount = 0;

  constructor() {
    const processor: SpanProcessor = {
      onStart: (span) => void this.started.set(span, this.startedCount++),
      onEnd: (span) => this.record(span),
      forceFlush: async () => undefined,
      shutdown: async () => undefined,
    };
    this.tracerProvider = new BasicTracerProvider({ spanProcessors: [processor] });
  }

  /** The session's runs: every span of its invocations (in the order they started) and, from the `chat` spans, each model call. */
  inspect(sessionId: string): WireInspection {
    const spans = [...(this.sessions.get(sessionId) ?? [])].flatMap((traceId) => this.traces.get(traceId) ?? []).sort((a, b) => this.started.get(a)! - this.started.get(b)!);
    return { spans, modelCalls: spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat').map(modelCall) };
  }

  /** Forgets a deleted session's runs: a new session under its id starts with none of them. */
  forget(sessionId: string): void {
    for (const traceId of this.sessions.get(sessionId) ?? []) this.traces.delete(traceId);
    this.sessions.delete(sessionId);
  }

  private record(span: ReadableSpan): void {
    const { traceId, spanId } = span.spanContext();
    const wire: WireSpan = {
      traceId,
      spanId,
      ...(span.parentSpanContext ? { parentSpanId: span.parentSpanContext.spanId } : {}),
      name: span.name,
      startTime: milliseconds(span.startTime),
      durationMs: milliseconds(span.duration),
      status: span.status.code === 2 ? 'error' : span.status.code === 1 ? 'ok' : 'unset',
      ...(span.status.message ? { statusMessage: redactSecretText(span.status.message) } : {}),
      attributes: keptAttributes(span.attributes),
      ...(span.events.length ? { events: span.events.map((event) => ({ name: event.name, time: milliseconds(event.time), attributes: keptAttributes(event.attributes ?? {}) })) } : {}),
    };
    let spans = this.traces.get(traceId);
    if (!spans) {
      this.traces.set(traceId, (spans = []));
      if (this.traces.size > MAX_TRACES) this.drop(this.traces.keys().next().value!);
    }
    spans.push(wire);
    this.started.set(wire, this.started.get(span) ?? this.startedCount++);
    const sessionId = wire.attributes['gen_ai.conversation.id'];
    if (typeof sessionId === 'string') {
      let ids = this.sessions.get(sessionId);
      if (!ids) this.sessions.set(sessionId, (ids = new Set()));
      ids.add(traceId);
    }
  }

  private drop(traceId: string): void {
    this.traces.delete(traceId);
    for (const ids of this.sessions.values()) ids.delete(traceId);
  }
}

/**
 * Span attributes without those whose names suggest a secret, whatever a plugin or an instrumentation put there;
 * in the others, secret-looking text is redacted, and so is every secret-named property inside a JSON value (a
 * tool call's arguments or result, the messages sent and received, an attempt's request body).
 */
function keptAttributes(attributes: Attributes): Record<string, AttributeValue> {
  const kept: Record<string, AttributeValue> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || isSecretName(key)) continue;
    kept[key] = typeof value === 'string' ? redactedText(value) : Array.isArray(value) ? (value.map((item) => (typeof item === 'string' ? redactedText(item) : item)) as AttributeValue) : value;
  }
  return kept;
}

/** Attribute text with its secrets redacted: JSON text is parsed, redacted inside and written again. */
function redactedText(text: string): string {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redactSecrets(JSON.parse(text) as unknown));
    } catch {
      // Not JSON after all: redacted as text below.
    }
  }
  return redactSecretText(text);
}

function milliseconds([seconds, nanos]: [number, number]): number {
  return seconds * 1000 + nanos / 1e6;
}

/** An attribute holding JSON text, parsed (the text itself when it is not JSON). */
function jsonAttribute(attributes: Record<string, unknown>, key: string): unknown {
  const text = attributes[key];
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A `toolsmith.provider.attempt` event of a `chat` span as an attempt. */
function attempt(attributes: Record<string, unknown>): WireModelAttempt {
  const body = jsonAttribute(attributes, 'toolsmith.provider.request.body');
  const error = attributes['error.type'];
  const message = attributes['toolsmith.provider.error.message'];
  return {
    attempt: Number(attributes['toolsmith.provider.attempt']),
    latencyMs: Number(attributes['toolsmith.provider.latency_ms']),
    ...(body !== undefined ? { body } : {}),
    ...(typeof error === 'string' ? { error } : {}),
    ...(typeof message === 'string' ? { errorMessage: message } : {}),
  };
}

/** A `chat` span as a model call: what was sent, what came back, tokens, latency and each attempt. */
function modelCall(span: WireSpan): WireModelCall {
  const a = span.attributes;
  const number = (key: string) => (typeof a[key] === 'number' ? (a[key] as number) : undefined);
  const json = (key: string) => jsonAttribute(a, key);
  const tokens = {
    input: number('gen_ai.usage.input_tokens'),
    cached: number('gen_ai.usage.cache_read.input_tokens'),
    output: number('gen_ai.usage.output_tokens'),
    reasoning: number('gen_ai.usage.reasoning.output_tokens'),
  };
  const finish = a['gen_ai.response.finish_reasons'];
  return {
    spanId: span.spanId,
    traceId: span.traceId,
    model: String(a['gen_ai.request.model'] ?? ''),
    provider: String(a['gen_ai.provider.name'] ?? ''),
    startTime: span.startTime,
    latencyMs: span.durationMs,
    tokens: Object.fromEntries(Object.entries(tokens).filter(([, value]) => value !== undefined)) as WireModelCall['tokens'],
    ...(Array.isArray(finish) ? { finishReasons: finish.map(String) } : {}),
    request: { systemInstructions: json('gen_ai.system_instructions'), messages: json('gen_ai.input.messages') },
    ...(a['gen_ai.output.messages'] !== undefined ? { response: json('gen_ai.output.messages') } : {}),
    ...(span.status === 'error' ? { error: String(a['error.type'] ?? span.statusMessage ?? 'error') } : {}),
    attempts: (span.events ?? []).filter((event) => event.name === 'toolsmith.provider.attempt').map((event) => attempt(event.attributes)),
  };
}
