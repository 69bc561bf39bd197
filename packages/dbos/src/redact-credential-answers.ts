import type { Content, Part } from '@toolsmith/core';
import { REDACTED } from '@toolsmith/core/internal';

/**
 * `message` with every function response whose `response` has a `credential` member redacted whole:
 * every string in that response (under `credential` and in its siblings, at any depth) becomes
 * `[redacted]`. What {@link DurableRunner} hands DBOS (which keeps it in its tables) goes through it: a
 * credential answer the runner refuses (misnamed, with members beside `credential`) is still a message
 * the user typed a secret into. `message` itself when it holds no such response.
 */
export function redactCredentialAnswers(message: Content): Content {
  if (!message.parts.some(holdsCredential)) return message;
  return { ...message, parts: message.parts.map((part) => (holdsCredential(part) ? { ...part, functionResponse: { ...part.functionResponse!, response: redactStrings(part.functionResponse!.response) as Record<string, unknown> } } : part)) };
}

function holdsCredential(part: Part): boolean {
  const response: unknown = part.functionResponse?.response;
  return typeof response === 'object' && response !== null && !Array.isArray(response) && (response as Record<string, unknown>).credential !== undefined;
}

/** `value` with every string in it `[redacted]` (a checked message: plain JSON data). */
function redactStrings(value: unknown): unknown {
  if (typeof value === 'string') return REDACTED;
  if (Array.isArray(value)) return value.map(redactStrings);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) copy[key] = redactStrings(member);
  return copy;
}
