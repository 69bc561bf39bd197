import type { Span } from '@opentelemetry/api';
import type { OtelApiModule } from './otel-api';
import { TraceAttribute } from './gen-ai-conventions';

/** Marks a span failed: status ERROR with the message, and `error.type` set to the Toolsmith error code. */
export function markFailed(api: OtelApiModule, span: Span, code: string, message: string | undefined): void {
  span.setAttribute(TraceAttribute.ERROR_TYPE, code);
  span.setStatus(message === undefined ? { code: api.SpanStatusCode.ERROR } : { code: api.SpanStatusCode.ERROR, message });
}
