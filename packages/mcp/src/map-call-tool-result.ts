import type { CallToolResult } from '@modelcontextprotocol/client';
import { type ToolFile, type ToolResult, toolFile, toolResult } from '@toolsmith/core';
import { McpToolError } from './mcp-errors';
import { type McpResourceContents, resourceContentsPart, resourceLinkText } from './mcp-resource-contents';
import { TOOLSMITH_ERROR_META } from './mcp-output-schema';
import { fileMediaType } from './mcp-file-media-type';

type McpContent = CallToolResult['content'][number];

/** Where the resource links and text resources of a result with structured content go, beside its members. */
const RESOURCES_KEY = 'mcpResources';

/**
 * Turns an MCP `tools/call` result into a Toolsmith tool response: structured content is the response
 * object (with its resource links and text resources as `mcpResources`, unless it has that member), else
 * the text of the content becomes `{ output }` (text parts, a line per resource link naming it, embedded
 * text resources headed by their URI, in order), and an `isError` result throws
 * {@link McpToolError}, which the executor turns into an error response. `image` and `audio` content and
 * embedded resources with a `blob` become files of the result (a {@link ToolResult}: the adapters send
 * them natively, as for `toolFile`), a resource named by the last segment of its URI; a content kind
 * this version does not know rides along as `content`.
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
  const texts: string[] = [];
  /** The texts of resource links and embedded text resources, which structured content does not repeat. */
  const resourceTexts: string[] = [];
  const files: ToolFile[] = [];
  const others: McpContent[] = [];
  for (const part of parts) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'image' || part.type === 'audio') files.push(toolFile({ mimeType: fileMediaType(part.mimeType), data: part.data }));
    else if (part.type === 'resource_link') {
      texts.push(resourceLinkText(part));
      resourceTexts.push(resourceLinkText(part));
    } else if (part.type === 'resource') {
      const mapped = resourceContentsPart(part.resource as McpResourceContents);
      if ('file' in mapped) files.push(mapped.file);
      else {
        texts.push(mapped.text);
        resourceTexts.push(mapped.text);
      }
    } else others.push(part);
  }
  let response: Record<string, unknown>;
  if (structured) {
    // A plain copy: the SDK may hand over an object of its own making (not an Object literal), which the
    // executor would wrap as a non-object result.
    response = { ...structured };
    if (resourceTexts.length > 0 && !(RESOURCES_KEY in response)) response[RESOURCES_KEY] = resourceTexts;
  } else {
    response = { output: texts.join('\n') };
    if (others.length > 0) response.content = others;
  }
  return files.length > 0 ? toolResult(response, files) : response;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
