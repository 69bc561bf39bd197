import { type ToolContext, ToolsmithError } from '@toolsmith/core';

/** A link to a resource that a served tool's result points to (MCP `resource_link` content). */
export interface McpResourceLink {
  /** The resource's absolute URI (`scheme:…`), usually one the server offers (`@Resource`), which the client reads with `resources/read`. */
  uri: string;
  /** Its name. */
  name: string;
  /** A title for people. */
  title?: string;
  /** What it is. */
  description?: string;
  /** Its media type. */
  mimeType?: string;
  /** Its size in bytes. */
  size?: number;
}

const collected = new WeakMap<ToolContext, McpResourceLink[]>();

/**
 * Adds a link to a resource (MCP `resource_link` content) to the result of the call `context` belongs
 * to, after its JSON and files, so the client can read the resource when it needs it instead of
 * receiving it in the result. Returns `false` (and adds nothing) when the call did not come over MCP,
 * so tools can call it unconditionally. A link without an absolute URI or a name throws
 * `MCP_INVALID_RESOURCE_LINK`. Only a successful result carries the links.
 *
 * @example
 * ```ts
 * @Tool()
 * exportReport(@Param('month') month: string, ctx: ToolContext) {
 *   const uri = `reports://${month}`;
 *   addMcpResourceLink(ctx, { uri, name: `report-${month}`, mimeType: 'application/pdf' });
 *   return { exported: uri };
 * }
 * ```
 */
export function addMcpResourceLink(context: ToolContext, link: McpResourceLink): boolean {
  if (typeof link?.uri !== 'string' || !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(link.uri) || typeof link.name !== 'string' || link.name === '') {
    throw new ToolsmithError('MCP_INVALID_RESOURCE_LINK', `A resource link needs an absolute URI ("scheme:…") and a name; got ${JSON.stringify(link)}.`);
  }
  const links = collected.get(context);
  if (!links) return false;
  links.push(link);
  return true;
}

/** Lets the call of `context` collect resource links (used by the MCP tool server). */
export function collectResourceLinks(context: ToolContext): void {
  collected.set(context, []);
}

/** The resource links the call of `context` added, as MCP content. */
export function resourceLinksOf(context: ToolContext): { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string; size?: number }[] {
  return (collected.get(context) ?? []).map((link) => ({ type: 'resource_link', ...link }));
}
