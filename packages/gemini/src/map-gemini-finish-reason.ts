import type { FinishReason } from '@toolsmith/core';

const CONTENT_FILTER = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION', 'LANGUAGE']);
const ERROR = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS']);

/**
 * Maps a Gemini `finishReason` to a {@link FinishReason}, keeping the raw value. Gemini reports `STOP`
 * for a turn that ends in function calls, so `hasFunctionCalls` turns that into `tool-calls`.
 */
export function mapGeminiFinishReason(raw: string | undefined, hasFunctionCalls: boolean): FinishReason {
  const withRaw = (unified: FinishReason['unified']): FinishReason => (raw ? { unified, raw } : { unified });
  if (hasFunctionCalls && (raw === undefined || raw === 'STOP')) return withRaw('tool-calls');
  if (raw === 'STOP') return withRaw('stop');
  if (raw === 'MAX_TOKENS') return withRaw('max-tokens');
  if (raw && CONTENT_FILTER.has(raw)) return withRaw('content-filter');
  if (raw && ERROR.has(raw)) return withRaw('error');
  return withRaw('other');
}
