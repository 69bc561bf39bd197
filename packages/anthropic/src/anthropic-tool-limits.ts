import type { CallIdRule, ToolLimits } from '@toolsmith/core/adapter-kit';

/**
 * Anthropic's tool names (Messages API, tool use: "name … must match the regex `^[a-zA-Z0-9_-]{1,64}$`").
 */
export const ANTHROPIC_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Anthropic's documented limits on the tools of one request, in one table. Only the name length is
 * documented for (non-strict) custom tools: `input_schema` takes JSON Schema draft 2020-12 without
 * documented caps on tool count, nesting, property count or enum size, so none is checked here.
 */
export const ANTHROPIC_TOOL_LIMITS: ToolLimits = { maxNameLength: 64 };

/**
 * The `tool_use` ids Anthropic takes back: "tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'" (the API's
 * 400, as users replaying other providers' ids report). Another id (`functions.get_weather:0` of an
 * OpenAI-compatible server, a dotted id of the user's own) goes as a stable one that matches (see `pairToolResults`).
 */
export const ANTHROPIC_CALL_IDS: CallIdRule = { pattern: /^[a-zA-Z0-9_-]+$/ };
