import type { FinishReason } from '@toolsmith/core';

/**
 * The finish reason of a response the model refused (Chat's `message.refusal`, a Responses `refusal` content
 * part): the API says `stop` / `completed`, but the model declined, as a content filter would.
 */
export const REFUSAL: FinishReason = { unified: 'content-filter', raw: 'refusal' };

/** Maps a Chat Completions `finish_reason` to Toolsmith's. */
export function mapOpenAIFinishReason(raw: string | null | undefined): FinishReason {
  const unified: FinishReason['unified'] =
    raw === 'stop'
      ? 'stop'
      : raw === 'length'
        ? 'max-tokens'
        : raw === 'tool_calls' || raw === 'function_call'
          ? 'tool-calls'
          : raw === 'content_filter'
            ? 'content-filter'
            : 'other';
  return raw == null ? { unified } : { unified, raw };
}

/**
 * Maps a Responses API outcome (`status`, `incomplete_details.reason`, and whether the output holds
 * function calls) to Toolsmith's finish reason.
 */
export function mapOpenAIResponseStatus(
  status: string | null | undefined,
  incompleteReason: string | null | undefined,
  hasFunctionCalls: boolean,
): FinishReason {
  if (status === 'incomplete') {
    const unified = incompleteReason === 'max_output_tokens' ? 'max-tokens' : incompleteReason === 'content_filter' ? 'content-filter' : 'other';
    return { unified, raw: incompleteReason ? `incomplete:${incompleteReason}` : 'incomplete' };
  }
  if (status === 'failed') return { unified: 'error', raw: 'failed' };
  if (status === 'completed') return { unified: hasFunctionCalls ? 'tool-calls' : 'stop', raw: 'completed' };
  return status == null ? { unified: 'other' } : { unified: 'other', raw: status };
}
