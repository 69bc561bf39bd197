import type { FunctionCall, JsonSchema } from '@toolsmith/core';
import { argsFromJsonText, argsFromJsonValue, generateCallId } from '@toolsmith/core/adapter-kit';
import { restoreOmittedOptionals } from './restore-omitted-optionals';

/**
 * Builds the neutral function call from what OpenAI sent (see `argsFromJsonText`: `""` means `{}`,
 * unparseable text is passed on raw so the executor answers the model with `MALFORMED_ARGUMENTS`),
 * mapping strict mode's `null`-for-absent back to absent when `strictSchema` is given. A missing id
 * (some compatible servers send none) gets a generated one; arguments a compatible server sent as a JSON
 * object instead of text are taken as they are.
 */
export function toFunctionCall(
  raw: { id?: string | null; name: string; arguments?: string | null },
  strictSchema: JsonSchema | undefined,
): FunctionCall {
  const id = raw.id || generateCallId();
  const sent: unknown = raw.arguments;
  const args = typeof sent === 'string' || sent == null ? argsFromJsonText(sent ?? '') : argsFromJsonValue(sent);
  if (typeof args === 'string' || !strictSchema) return { id, name: raw.name, args };
  return { id, name: raw.name, args: restoreOmittedOptionals(args, strictSchema) as Record<string, unknown> };
}
