import type { FunctionCall, FunctionResponse } from '../model/content';
import { parseArguments } from './argument-parser';
import { redoValueRepairs } from './argument-repair';
import { repairArgumentText } from './argument-text-repair';

/** The repairs the executor makes to arguments text before parsing it (see argument-text-repair.ts). */
const TEXT_REPAIRS = new Set(['code-fence', 'trailing-comma', 'double-encoded-arguments']);

/**
 * A call's arguments as the executor read them, for what looks at calls after the run (evals): an object
 * as it is; JSON text parsed as the executor parses it (blank text is `{}`, the default limits); text the
 * executor repaired (its `response` lists a text repair: a code fence, trailing commas, double encoding)
 * parsed after the same repairs; otherwise the text itself: the executor refused it as malformed
 * (`MALFORMED_ARGUMENTS`) and no tool ran with it. The value repairs the response lists (a number sent as
 * a string, a double-encoded property, `null` for an optional property, an enum value's case) are made
 * again, on a copy: the arguments are those the tool was run with.
 *
 * @example
 * ```ts
 * argumentsAsRead({ id: 'c1', name: 'lookup', args: '{"orderId":"A-1"}' }); // { orderId: 'A-1' }
 * argumentsAsRead({ id: 'c2', name: 'lookup', args: '{"orderId": "A' });    // '{"orderId": "A' (refused)
 * ```
 */
export function argumentsAsRead(call: FunctionCall, response?: FunctionResponse): Record<string, unknown> | string {
  const read = readText(call, response);
  const repairs = response?.argumentRepairs;
  return typeof read === 'string' || !repairs ? read : redoValueRepairs(read, repairs);
}

/** The arguments as parsed (after the text repairs the executor made), or the text it refused. */
function readText(call: FunctionCall, response: FunctionResponse | undefined): Record<string, unknown> | string {
  if (typeof call.args !== 'string') return call.args;
  const parsed = parseText(call.name, call.args);
  if (parsed !== undefined) return parsed;
  if (!response?.argumentRepairs?.some((repair) => TEXT_REPAIRS.has(repair.repair))) return call.args;
  const repaired = repairArgumentText(call.args);
  return (repaired && parseText(call.name, repaired.text)) ?? call.args;
}

function parseText(toolName: string, text: string): Record<string, unknown> | undefined {
  try {
    return parseArguments(toolName, text);
  } catch {
    return undefined;
  }
}
