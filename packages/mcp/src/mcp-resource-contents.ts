import { type ToolFile, toolFile } from '@toolsmith/core';
import { safeFileName } from '@toolsmith/core/internal';
import { fileMediaType, utf8FileData } from './mcp-file-media-type';

/** One resource's contents as MCP sends them (`resources/read`, an embedded resource): text or base64 bytes. */
export type McpResourceContents = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };

/** What an MCP resource link says about a resource (a `resource_link` content block, or a `resources/list` entry). */
export interface McpResourceLinkInfo {
  /** The resource's URI, e.g. `file:///notes/today.md`. */
  uri: string;
  /** The server's name of the resource. */
  name: string;
  /** A display name for people. */
  title?: string;
  /** What the resource holds, as the server words it. */
  description?: string;
  /** Its media type, when the server says. */
  mimeType?: string;
}

/**
 * A resource's contents for the model: text contents become text (headed by the URI, so the model knows
 * what it reads), bytes a file named by the last segment of the URI's path ({@link resourceFileName}).
 */
export function resourceContentsPart(contents: McpResourceContents): { text: string } | { file: ToolFile } {
  if ('blob' in contents && typeof contents.blob === 'string') {
    return { file: toolFile({ mimeType: fileMediaType(contents.mimeType), data: utf8FileData(contents.mimeType, contents.blob), name: resourceFileName(contents.uri) }) };
  }
  const type = contents.mimeType ? ` (${contents.mimeType})` : '';
  return { text: `[resource ${contents.uri}${type}]\n${(contents as { text: string }).text}` };
}

/** One line naming a linked resource for the model: its title or name, URI, type and description. */
export function resourceLinkText(link: McpResourceLinkInfo): string {
  const type = link.mimeType ? ` (${link.mimeType})` : '';
  const description = link.description ? `: ${link.description}` : '';
  return `[resource link] ${link.title ?? link.name} <${link.uri}>${type}${description}`;
}

/**
 * The last path segment of a resource URI, decoded (`…/tool-files/c1/report.pdf` → `report.pdf`). The
 * query and fragment are never part of it: a signed URL's credentials must not become a file name the
 * model provider sees. A decoded slash becomes `_`, so the name stays one segment.
 */
export function resourceFileName(uri: string): string {
  const path = uri.split(/[?#]/, 1)[0];
  const last = path.split('/').filter(Boolean).at(-1) ?? path;
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  // Kept as a file's name is (core's rule), and one segment.
  return safeFileName(name);
}
