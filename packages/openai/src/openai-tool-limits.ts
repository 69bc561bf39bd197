import type { CallIdRule, ToolLimits } from '@toolsmith/core/adapter-kit';

/**
 * OpenAI's function names (API reference, `FunctionDefinition.name`): "Must be a-z, A-Z, 0-9, or
 * contain underscores and dashes, with a maximum length of 64."
 */
export const OPENAI_FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * OpenAI's documented limits on the tools of one request, in one table.
 * - `all`: API reference for `tools`: "A max of 128 functions are supported"; names: see {@link OPENAI_FUNCTION_NAME}.
 * - `strict`: Structured Outputs guide, "Supported schemas" → limitations: "A schema may have up to 5000
 *   object properties total, with up to 10 levels of nesting", "up to 1000 enum values across all enum
 *   properties"; for one string enum of more than 250 values, "the total string length of all enum
 *   values cannot exceed 15,000 characters" ({@link OPENAI_STRICT_LONG_ENUM}).
 */
export const OPENAI_TOOL_LIMITS = {
  all: { maxTools: 128, maxNameLength: 64 },
  strict: { maxTools: 128, maxNameLength: 64, maxNestingDepth: 10, maxProperties: 5000, maxEnumValues: 1000 },
} as const satisfies Record<string, ToolLimits>;

/** Strict mode: a string enum of more than `values` values may hold at most `totalChars` characters. */
export const OPENAI_STRICT_LONG_ENUM = { values: 250, totalChars: 15_000 } as const;

/**
 * The call ids each API takes back: Chat Completions refuses a `tool_calls[].id` over 40 characters ("string too
 * long. Expected a string with maximum length 40", `string_above_max_length`), the Responses API a `call_id` over
 * 64 (the same error), as users of both report (vercel/ai#8132; decolua/9router#393). A longer id (a Gemini call
 * Toolsmith named, another server's) goes as a stable shorter one (see `pairToolResults`).
 */
export const OPENAI_CHAT_CALL_IDS: CallIdRule = { maxLength: 40 };
export const OPENAI_RESPONSES_CALL_IDS: CallIdRule = { maxLength: 64 };
