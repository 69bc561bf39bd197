import type { Event } from '@toolsmith/core';

/**
 * The lines a person reads for one event of a conversation: each call with its arguments (`→`), each
 * result (`←`, `failed` on errors; `✔ allowed by grant <id>` under one that ran on a remembered grant), each state change (`✎`), an error (`!`) and the answer
 * (`Agent: …`). Partial (streaming) events give no lines: the complete event follows.
 *
 * @example
 * ```ts
 * for await (const event of runner.run(input)) for (const line of formatEvent(event)) console.log(line);
 * ```
 */
export function formatEvent(event: Event): string[] {
  const lines: string[] = [];
  if (event.partial) return lines;
  for (const call of event.functionCalls()) {
    const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    lines.push(`  → ${call.name}(${args})`);
  }
  for (const response of event.functionResponses()) {
    lines.push(`  ← ${response.name}${response.isError ? ' failed' : ''}: ${JSON.stringify(response.response)}`);
    if (response.confirmation?.by === 'grant') lines.push(`    ✔ allowed by grant ${response.confirmation.grantId ?? ''}`);
  }
  for (const [key, value] of Object.entries(event.actions.stateDelta)) lines.push(`  ✎ state ${key} = ${JSON.stringify(value)}`);
  if (event.errorCode) lines.push(`  ! ${event.errorCode}: ${event.errorMessage}`);
  const text = event.text().trim();
  if (text) lines.push(`Agent: ${text}`);
  return lines;
}
