import { ToolsmithError } from '@toolsmith/core';

/** Gemini's rule for function names: a letter or `_` first, then letters, digits, `_ . : -`, 64 at most. */
export const GEMINI_FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

/**
 * A tool's name breaks Gemini's function-name rule (e.g. `2fa_verify` starts with a digit); Toolsmith's
 * own rule allows it, Gemini's API would reject the whole request. Thrown by `GeminiModel.checkTools` when
 * the runner is built (for toolsets' tools, when they are listed), before any request is sent. Code: `GEMINI_TOOL_NAME_INVALID`.
 */
export class GeminiToolNameError extends ToolsmithError {
  constructor(
    /** The refused name, as the tool declares it (toolset prefix included). */
    readonly toolName: string,
  ) {
    super(
      'GEMINI_TOOL_NAME_INVALID',
      `Tool "${toolName}" cannot be sent to Gemini: its function names must start with a letter or "_" and hold only ` +
        `letters, digits, "_", ".", ":" and "-" (at most 64). Fix: rename it with @Tool({ name: '...' }) or give its @Toolset a prefix that starts with a letter.`,
      { details: { toolName } },
    );
  }
}
