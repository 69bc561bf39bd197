import type { Span } from '@opentelemetry/api';
import { CORE_ERROR_CODES } from '../errors/error-codes';
import type { OtelApiModule } from './otel-api';
import { TraceAttribute } from './gen-ai-conventions';

/**
 * Marks a span failed: status ERROR and `error.type` set to the Toolsmith error code. The status message
 * is the error's own message only when contents are recorded: messages quote arguments, results and the
 * model's answer (`INVALID_ARGUMENTS`, `MALFORMED_ARGUMENTS`, `OUTPUT_INVALID`, a tool's thrown text…).
 * Otherwise it is the code's fixed description (from the code list; the code itself for a code core
 * does not list), which holds no conversation content.
 */
export function markFailed(api: OtelApiModule, span: Span, code: string, message: string | undefined, recordContent: boolean): void {
  span.setAttribute(TraceAttribute.ERROR_TYPE, code);
  const shown = recordContent ? message : ((CORE_ERROR_CODES as Record<string, string>)[code] ?? code);
  span.setStatus(shown === undefined ? { code: api.SpanStatusCode.ERROR } : { code: api.SpanStatusCode.ERROR, message: shown });
}
