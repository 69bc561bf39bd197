import type { CallConfirmation, ConfirmationPolicyVerdict, Event, InnerCallRecord } from '@toolsmith/core';

/**
 * The lines a person reads for one event of a conversation: each call with its arguments (`→`), each
 * result (`←`, `failed` on errors; `✔ allowed by grant <id>` under one that ran on a remembered grant; under an agent
 * tool's result, `↳ <agent> → <tool>: …` for each call inside it that a grant, the person or the confirmation policy
 * settled or judged; both only on the runner's events, never on a user's), each state change (`✎`), an error (`!`) and the answer
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
  // What settled a call is the runner's record, on its own events: a user's event (an update or an answer) never
  // carries one the runner wrote, so one found there (a session stored before the runner refused them) is not shown.
  const audited = event.author !== 'user';
  for (const response of event.functionResponses()) {
    lines.push(`  ← ${response.name}${response.isError ? ' failed' : ''}: ${JSON.stringify(response.response)}`);
    if (!audited) continue;
    if (response.confirmation?.by === 'grant') lines.push(`    ✔ allowed by grant ${response.confirmation.grantId ?? ''}`);
    for (const inner of response.innerCalls ?? []) lines.push(`    ↳ ${inner.agent} → ${inner.call.name}: ${innerCallText(inner)}`);
  }
  for (const [key, value] of Object.entries(event.actions.stateDelta)) lines.push(`  ✎ state ${key} = ${JSON.stringify(value)}`);
  if (event.errorCode) lines.push(`  ! ${event.errorCode}: ${event.errorMessage}`);
  const text = event.text().trim();
  if (text) lines.push(`Agent: ${text}`);
  return lines;
}

/** How a call inside an agent tool was settled or judged, in a few words: `allowed by grant <id>; policy (enforce): none`. */
function innerCallText(inner: InnerCallRecord): string {
  const said: string[] = [];
  if (inner.confirmation) said.push(settledText(inner.confirmation));
  if (inner.policy) said.push(verdictText(inner.policy));
  return said.join('; ');
}

function settledText(confirmation: CallConfirmation): string {
  if (confirmation.by === 'grant') return `allowed by grant ${confirmation.grantId ?? ''}`;
  if (confirmation.by === 'policy') return confirmation.decision === 'reject' ? `denied by the policy: ${confirmation.message ?? ''}` : 'allowed by the policy';
  const decided = { approve: 'approved', edit: `approved with ${JSON.stringify(confirmation.args)}`, reject: 'denied', respond: 'answered instead' }[confirmation.decision];
  const message = confirmation.message === undefined ? '' : ` ("${confirmation.message}")`;
  return `${decided} by the user${message}${confirmation.grantId ? `, always allowed (grant ${confirmation.grantId})` : ''}`;
}

function verdictText(verdict: ConfirmationPolicyVerdict): string {
  return `policy (${verdict.mode}): ${verdict.decision}${verdict.reason === undefined ? '' : ` (${verdict.reason})`}${verdict.error ? ` [${verdict.error.code}]` : ''}`;
}
