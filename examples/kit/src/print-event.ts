import type { Event } from '@toolsmith/core';
import { formatEvent } from '@toolsmith/devtools';

/**
 * Prints one event the way a person wants to read a conversation: calls, results, state, answer. The
 * lines are `toolsmith run`'s (`formatEvent` of @toolsmith/devtools), so the demos and the CLI print alike.
 */
export function printEvent(event: Event, print: (line: string) => void): void {
  for (const line of formatEvent(event)) print(line);
}
