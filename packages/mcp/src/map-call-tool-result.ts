import type { CallToolResult } from '@modelcontextprotocol/client';
import { type ToolFile, type ToolResult, toolFile, toolResult } from '@toolsmith/core';
import { McpToolError } from './mcp-errors';
import { TOOLSMITH_ERROR_META } from './mcp-output-schema';

type McpContent = CallToolResult['content'][number];

/**
 * Turns an MCP `tools/call` result into a Toolsmith tool response: structured content is the response
 * object, text content becomes `{ output }`, and an `isError` result throws {@link McpToolError}, which
 * the executor turns into an error response. `image` and `audio` content and embedded resources with a
 * `blob` become files of the result (a {@link ToolResult}: the adapters send them natively, as for
 * `toolFile`), a resource named by the last segment of its URI; other content kinds (resource links,
 * text resources) ride along as `content`.
 */
export function mapCallToolResult(toolName: string, result: CallToolResult): Record<string, unknown> | ToolResult {
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
  const files = parts.flatMap((part) => {
    const file = toToolFile(part);
    return file ? [file] : [];
  });
  let response: Record<string, unknown>;
  if (structured) {
    // A plain copy: the SDK may hand over an object of its own making (not an Object literal), which the
    // executor would wrap as a non-object result.
    response = { ...structured };
  } else {
    response = { output: text };
    const others = parts.filter((part) => part.type !== 'text' && !toToolFile(part));
    if (others.length > 0) response.content = others;
  }
  return files.length > 0 ? toolResult(response, files) : response;
}

/** The file an MCP content block carries (image, audio, a resource with a `blob`), or `undefined`. */
function toToolFile(part: McpContent): ToolFile | undefined {
  if (part.type === 'image' || part.type === 'audio') return toolFile({ mimeType: part.mimeType, data: part.data });
  if (part.type === 'resource' && 'blob' in part.resource && typeof part.resource.blob === 'string') {
    const { uri, blob, mimeType } = part.resource;
    return toolFile({ mimeType: mimeType ?? 'application/octet-stream', data: blob, name: resourceName(uri) });
  }
  return undefined;
}

/**
 * The last path segment of a resource URI, decoded (`…/tool-files/c1/report.pdf` → `report.pdf`). The
 * query and fragment are never part of it: a signed URL's credentials must not become a file name the
 * model provider sees. A decoded slash becomes `_`, so the name stays one segment.
 */
function resourceName(uri: string): string {
  const path = uri.split(/[?#]/, 1)[0];
  const last = path.split('/').filter(Boolean).at(-1) ?? path;
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  return name.replace(/[/\\]/g, '_');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
