import type { Tool as McpToolInfo } from '@modelcontextprotocol/server';
import type { JsonSchema } from '@toolsmith/core';

/**
 * The `_meta` key under which `serveMcp` sends the error body (`{ code, message, details? }`) of a
 * failed call to a tool with an `outputSchema`, where it cannot be structured content.
 */
export const TOOLSMITH_ERROR_META = 'toolsmith/error';

/** The `outputSchema` of an MCP tool: always an object schema. */
export type McpOutputSchema = NonNullable<McpToolInfo['outputSchema']>;

const NON_OBJECT_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'null']);
const converted = new WeakMap<JsonSchema, McpOutputSchema | null>();

/**
 * The MCP `outputSchema` a served tool declares for its response schema, or `undefined` when none can
 * be promised. MCP requires an object schema and `structuredContent` that conforms to it. A tool's
 * response is what the executor makes of its result: an object as it is, anything else wrapped as
 * `{ result }`. So an object schema is declared as it is, a schema of another type (string, array, …) as
 * `{ result: <schema> }`, and a schema whose type cannot be told (`anyOf`, `$ref`, no `type`) not at
 * all. `$schema` is dropped (clients compile with their own draft; the keywords mean the same) and
 * `$defs` stay at the root so `#/$defs/…` references still resolve. Converted once per schema object,
 * so the result validator is compiled once too.
 */
export function toMcpOutputSchema(schema: JsonSchema | undefined): McpOutputSchema | undefined {
  if (!schema) return undefined;
  let result = converted.get(schema);
  if (result === undefined) converted.set(schema, (result = convert(schema)));
  return result ?? undefined;
}

function convert(schema: JsonSchema): McpOutputSchema | null {
  const { $schema: _dialect, ...rest } = schema;
  const types = Array.isArray(rest.type) ? (rest.type as unknown[]) : [rest.type];
  if (rest.type === 'object') return rest as McpOutputSchema;
  if (rest.type === undefined || !types.every((type) => typeof type === 'string' && NON_OBJECT_TYPES.has(type))) return null;
  const { $defs, definitions, ...inner } = rest;
  return {
    type: 'object',
    properties: { result: inner as McpOutputSchema },
    required: ['result'],
    ...($defs !== undefined ? { $defs } : {}),
    ...(definitions !== undefined ? { definitions } : {}),
  };
}
