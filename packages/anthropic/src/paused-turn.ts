import type { LlmResponse, Part, Usage } from '@toolsmith/core';
import { providerDataOf } from '@toolsmith/core/adapter-kit';
import { ANTHROPIC_PROVIDER } from './provider-tool';

/** The `stop_reason` with which the Messages API pauses a long turn of server tools (web search, code execution, …). */
export const PAUSE_TURN = 'pause_turn';

/** True for a complete response the API paused: its content must go back as is, as the last assistant message, to continue. */
export function isPausedTurn(response: LlmResponse): boolean {
  return response.finishReason?.raw === PAUSE_TURN;
}

/**
 * Joins the responses of one paused-and-continued turn into the one response the caller sees: their
 * contents in order (the paused content, then each continuation), usage summed, the last response's
 * id, stop reason and metadata. When the turn is still paused (the continuation bound was reached), the
 * server tool calls the API never answered are left out, so the history holds no dangling
 * `server_tool_use`, and the response says so in `error` (`PAUSE_TURN_LIMIT`).
 */
export function mergePausedTurn(segments: readonly LlmResponse[], maxContinuations: number): LlmResponse {
  const last = segments[segments.length - 1];
  const parts = segments.flatMap((segment) => segment.content?.parts ?? []);
  const merged: LlmResponse = { ...last, content: { role: 'model', parts } };
  const usage = sumUsage(segments.map((segment) => segment.usage));
  if (usage) merged.usage = usage;
  if (isPausedTurn(last)) {
    merged.content = { role: 'model', parts: withoutUnansweredServerToolUse(parts) };
    merged.error = {
      code: 'PAUSE_TURN_LIMIT',
      message:
        `Anthropic paused the turn again after ${maxContinuations} continuation(s) (stop_reason "pause_turn"); ` +
        'the answer so far is kept. Fix: raise `maxPauseContinuations` of AnthropicModel, or ask for less server-tool work per turn.',
    };
  }
  return merged;
}

/** The parts without the `server_tool_use` blocks that no result block (`tool_use_id`) answers. */
function withoutUnansweredServerToolUse(parts: Part[]): Part[] {
  const answered = new Set<unknown>();
  for (const part of parts) {
    const block = providerDataOf(part, ANTHROPIC_PROVIDER);
    if (block && block.tool_use_id !== undefined) answered.add(block.tool_use_id);
  }
  return parts.filter((part) => {
    const block = providerDataOf(part, ANTHROPIC_PROVIDER);
    return !(block?.type === 'server_tool_use' && !answered.has(block.id));
  });
}

/** Every count of `usages` summed, key by key; `undefined` when none was reported. */
export function sumUsage(usages: Array<Usage | undefined>): Usage | undefined {
  const reported = usages.filter((usage): usage is Usage => usage !== undefined);
  if (reported.length === 0) return undefined;
  // Every count of every call, summed: each call of the turn was billed.
  const sum: Record<string, number> = {};
  for (const usage of reported) {
    for (const [key, value] of Object.entries(usage)) if (typeof value === 'number') sum[key] = (sum[key] ?? 0) + value;
  }
  return sum as Usage;
}
