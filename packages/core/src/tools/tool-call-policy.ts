import { toolFailedGenericMessage, toolFailedMessage } from '../errors/messages';
import { thrownMessage } from '../errors/thrown-message';

/**
 * What the model is told when a tool throws an error that is not a Toolsmith error:
 * - `'message'` (default): `Tool "x" failed: <the error's message>` — useful to the model, so write
 *   messages you are happy for it (and the user) to read; an empty message gives the generic text;
 * - `'generic'`: `Tool "x" failed.` only, for tools whose errors may carry internal details;
 * - a function of the thrown value and the tool's name, returning the text to send (when it returns
 *   no text, `undefined` or `''`, the generic text is sent).
 * Toolsmith's own errors (invalid arguments, timeouts, …) always keep their message. Stack traces never
 * leave the process either way; the full error stays on the outcome for `onToolError` and logs.
 */
export type ToolErrorExposure = 'message' | 'generic' | ((error: unknown, toolName: string) => string);

/** Runner-wide limits and policies every tool call runs under (per-tool options override the limits). */
export interface ToolCallPolicy {
  /** Milliseconds an async tool may run before it gets `TOOL_TIMEOUT` and its `ctx.signal` aborts. `Infinity` turns it off. */
  timeoutMs: number;
  /** Characters of JSON a result may have before it is cut for the model (head and tail kept). */
  maxResultChars: number;
  /** Bytes the files of one result (`toolFile`, `toolResult`) may have together; over it the call fails with `TOOL_FILES_TOO_LARGE`. Default 20 MiB. */
  maxFileBytes?: number;
  /** What the model is told of an error a tool throws (see `ToolErrorExposure`); default `'message'`. */
  errorExposure: ToolErrorExposure;
  /**
   * What happens when a result breaks the tool's declared output schema (`@Tool({ outputSchema })`, or the
   * return type in the build-time manifest): `'error'` (default) fails the call with `TOOL_OUTPUT_INVALID`
   * (the model gets an error response, `onToolError` sees it); `'warn'` lets the result through and emits
   * a Node process warning (`TOOLSMITH_TOOL_OUTPUT_INVALID`) for your logs; `'off'` skips the check.
   */
  outputValidation: ToolOutputValidation;
  /**
   * Repair what models commonly get wrong in arguments (a code fence, trailing commas, double-encoded
   * JSON, numbers and booleans as strings, `null` for an optional property, an enum value's case) before
   * refusing them. Default `true`; a tool's own `repairArguments: false` turns it off for that tool.
   */
  repairArguments?: boolean;
}

/** See {@link ToolCallPolicy.outputValidation}. */
export type ToolOutputValidation = 'error' | 'warn' | 'off';

/** Default tool timeout: 5 minutes. Long enough for slow APIs, short enough that a hung call cannot hold a run forever. */
export const DEFAULT_TOOL_TIMEOUT_MS = 300_000;
/** Default result budget: 100,000 characters of JSON (about 25k tokens). */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;

/** Default limit of the files of one tool result: 20 MiB together (files are never cut, only refused). */
export const DEFAULT_MAX_TOOL_FILE_BYTES = 20 * 1024 * 1024;

/** The policy a call runs under when nothing else is configured: 5 minutes, 100,000 characters, messages shown, output checked, arguments repaired. */
export const DEFAULT_TOOL_CALL_POLICY: ToolCallPolicy = Object.freeze({
  timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
  maxResultChars: DEFAULT_MAX_RESULT_CHARS,
  maxFileBytes: DEFAULT_MAX_TOOL_FILE_BYTES,
  errorExposure: 'message',
  outputValidation: 'error',
  repairArguments: true,
});

/** The message the model gets for a thrown non-Toolsmith error, under `exposure`. */
export function exposedMessage(exposure: ToolErrorExposure, toolName: string, thrown: unknown): string {
  if (exposure === 'generic') return toolFailedGenericMessage(toolName);
  if (typeof exposure === 'function') {
    try {
      const text: unknown = exposure(thrown, toolName);
      // A policy that gives no text (undefined, or not a string) sends the generic one, never the error's message.
      return typeof text === 'string' && text !== '' ? text : toolFailedGenericMessage(toolName);
    } catch {
      // A broken policy must not leak the original error, nor its own (its code may be made of the error's
      // text): fall back to the safe text and say that much.
      return `Tool "${toolName}" failed. (The error policy itself failed.)`;
    }
  }
  return toolFailedMessage(toolName, thrownMessage(thrown));
}
