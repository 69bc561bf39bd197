import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpToolError } from './mcp-errors';
import { TOOLSMITH_ERROR_META } from './mcp-output-schema';

/**
 * Turns an MCP `tools/call` result into a Toolsmith tool response: structured content is the response
 * object, text content becomes `{ output }` (other content kinds ride along as `content`), and an
 * `isError` result throws {@link McpToolError}, which the executor turns into an error response.
 */
export function mapCallToolResult(toolName: string, result: CallToolResult): Record<string, unknown> {
  const parts = Array.isArray(result.content) ? result.content : [];
  const text = parts
    .filter((part): part is { type: 'text'; text: string } => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
  const structured = isPlainObject(result.structuredContent) ? result.structuredContent : undefined;

  if (result.isError) {
    // A Toolsmith server (serveMcp) puts its error body under `structuredContent.error`, or in `_meta`
    // for a tool with an output schema; keep its code.
    const meta = result._meta?.[TOOLSMITH_ERROR_META];
    const remote = structured && isPlainObject(structured.error) ? structured.error : isPlainObject(meta) ? meta : undefined;
    const reason = text || (typeof remote?.message === 'string' ? remote.message : '') || 'the MCP tool reported an error';
    throw new McpToolError(toolName, reason, remote);
  }
  if (structured) return structured;

  const response: Record<string, unknown> = { output: text };
  const others = parts.filter((part) => part.type !== 'text');
  if (others.length > 0) response.content = others;
  return response;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
