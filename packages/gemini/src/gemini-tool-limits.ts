import type { ToolLimits } from '@toolsmith/core/adapter-kit';

/**
 * Parameter names in the OpenAPI-subset `parameters` (@google/genai reference, `FunctionDeclaration.parameters`):
 * "Parameter names must start with a letter or an underscore and must only contain chars a-z, A-Z, 0-9,
 * or underscores with a maximum length of 64."
 */
export const GEMINI_PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Gemini's documented limits on the tools of one request, in one table. Function names: at most 64
 * characters (Gemini API reference, `FunctionDeclaration.name`; the pattern is `GEMINI_FUNCTION_NAME`;
 * newer SDK references say 128, the smaller documented number is kept). The API reference documents no
 * cap on the number of declarations, nesting depth, property count or enum size, so none is checked.
 */
export const GEMINI_TOOL_LIMITS: ToolLimits = { maxNameLength: 64 };
