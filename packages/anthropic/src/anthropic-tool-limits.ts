import type { ToolLimits } from '@toolsmith/core/adapter-kit';

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
