import type { FinishReason } from '@toolsmith/core';

/** Maps a Messages API `stop_reason` to a {@link FinishReason}, keeping the raw value. */
export function mapAnthropicStopReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return { unified: 'stop', raw };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'max-tokens', raw };
    case 'tool_use':
      return { unified: 'tool-calls', raw };
    case 'refusal':
      return { unified: 'content-filter', raw };
    default:
      // `pause_turn` (a server tool needs another round) and values added later.
      return raw ? { unified: 'other', raw } : { unified: 'other' };
  }
}
