import type { Event } from '@toolsmith/core';

/** Prints one event the way a person wants to read a conversation: calls, results, state, answer. */
export function printEvent(event: Event, print: (line: string) => void): void {
  if (event.partial) return;
  for (const call of event.functionCalls()) {
    const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    print(`  → ${call.name}(${args})`);
  }
  for (const response of event.functionResponses()) {
    print(`  ← ${response.name}${response.isError ? ' failed' : ''}: ${JSON.stringify(response.response)}`);
  }
  for (const [key, value] of Object.entries(event.actions.stateDelta)) {
    print(`  ✎ state ${key} = ${JSON.stringify(value)}`);
  }
  if (event.errorCode) print(`  ! ${event.errorCode}: ${event.errorMessage}`);
  const text = event.text().trim();
  if (text) print(`Agent: ${text}`);
}
