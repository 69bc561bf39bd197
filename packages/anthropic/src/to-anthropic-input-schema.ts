import type { FunctionDeclaration, JsonSchema } from '@toolsmith/core';
import { constraintNote } from '@toolsmith/core/adapter-kit';

/** Combinators Anthropic refuses at the top level of `input_schema` (the whole request fails with a 400). */
const TOP_LEVEL_COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;

/** What Anthropic gets for one declaration: the `input_schema`, and the description to send with it. */
export interface AnthropicToolSchema {
  inputSchema: JsonSchema;
  description: string;
}

/**
 * Derives Anthropic's `input_schema` from a tool's canonical schema. The canonical schema is JSON Schema
 * 2020-12, which `input_schema` takes, except that `anyOf`/`oneOf`/`allOf` may not stand at its top
 * level (e.g. "email or phone is required"): those move into the tool's description, in words the
 * model can follow, and Toolsmith's own validation of every call still enforces them. A tool without
 * parameters still needs an object schema. Remote MCP tools' schemas go through here too.
 */
export function toAnthropicInputSchema(declaration: FunctionDeclaration): AnthropicToolSchema {
  // Declarations are built once per tool, so each is converted once, not on every request.
  let converted = cache.get(declaration);
  if (!converted) cache.set(declaration, (converted = convert(declaration)));
  return converted;
}

const cache = new WeakMap<FunctionDeclaration, AnthropicToolSchema>();

function convert(declaration: FunctionDeclaration): AnthropicToolSchema {
  const parameters = declaration.parameters ?? {};
  const moved = TOP_LEVEL_COMBINATORS.filter((keyword) => parameters[keyword] !== undefined);
  if (moved.length === 0) return { inputSchema: { type: 'object', properties: {}, ...parameters }, description: declaration.description };
  const inputSchema: JsonSchema = { type: 'object', properties: {} };
  for (const [keyword, value] of Object.entries(parameters)) if (!moved.includes(keyword as (typeof moved)[number])) inputSchema[keyword] = value;
  const note = constraintNote(Object.fromEntries(moved.map((keyword) => [keyword, parameters[keyword]])));
  return { inputSchema, description: declaration.description ? `${declaration.description}\n\n${note}` : note };
}
