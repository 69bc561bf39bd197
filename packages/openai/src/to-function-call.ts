import { FunctionCall, JsonSchema, generateCallId } from '@toolsmith/core';
import { restoreOmittedOptionals } from './restore-omitted-optionals';

/**
 * Builds the neutral function call from what OpenAI sent: `""` means `{}`; valid JSON becomes the
 * arguments object, with strict mode's `null`-for-absent mapped back (when `strictSchema` is given);
 * anything else is passed on as the raw text, so the executor answers the model with a
 * `MALFORMED_ARGUMENTS` error instead of the run crashing. A missing id (some compatible servers) gets
 * a generated one.
 */
export function toFunctionCall(
  raw: { id?: string | null; name: string; arguments?: string | null },
  strictSchema: JsonSchema | undefined,
): FunctionCall {
  const id = raw.id || generateCallId();
  const text = raw.arguments ?? '';
  if (text.trim() === '') return { id, name: raw.name, args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { id, name: raw.name, args: text };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { id, name: raw.name, args: text };
  const args = strictSchema ? restoreOmittedOptionals(parsed, strictSchema) : parsed;
  return { id, name: raw.name, args: args as Record<string, unknown> };
}
