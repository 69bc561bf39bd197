import type { SpanContext } from '@opentelemetry/api';
import type { Event } from '../events/event';
import type { Content } from '../model/content';
import { PAUSED_TRACEPARENT_KEY } from './gen-ai-conventions';

// W3C Trace Context `traceparent`: version 00, 32 hex trace id, 16 hex span id, 2 hex flags.
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A span context as a W3C `traceparent` string (plain JSON, so it survives any session store). */
export function formatTraceparent(span: SpanContext): string {
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The span context a `traceparent` string names, or undefined when it is not one (e.g. edited by hand). */
export function parseTraceparent(value: unknown): SpanContext | undefined {
  const match = typeof value === 'string' ? TRACEPARENT.exec(value) : null;
  if (!match || /^0+$/.test(match[1]) || /^0+$/.test(match[2])) return undefined;
  return { traceId: match[1], spanId: match[2], traceFlags: parseInt(match[3], 16), isRemote: true };
}

/**
 * The span contexts of the paused invocations a message resumes: for each function response in it,
 * the pause event (found from the newest back) that lists the response's id in `longRunningToolIds`
 * and carries a `traceparent` in its custom metadata. One per paused invocation, in answer order.
 */
export function pausedSpanContexts(events: readonly Event[], message: Content | undefined): SpanContext[] {
  const found = new Map<string, SpanContext>();
  for (const part of message?.parts ?? []) {
    const id = part.functionResponse?.id;
    if (id === undefined) continue;
    for (let i = events.length - 1; i >= 0; i--) {
      if (!events[i].longRunningToolIds?.includes(id)) continue;
      const paused = parseTraceparent(events[i].customMetadata?.[PAUSED_TRACEPARENT_KEY]);
      if (paused && !found.has(paused.spanId)) found.set(paused.spanId, paused);
      break;
    }
  }
  return [...found.values()];
}
