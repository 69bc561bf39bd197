import { BaseTool, type JsonSchema, type ToolContext, type ToolFile, type ToolResult, toolResult } from '@toolsmith/core';
import type { McpConnection } from './mcp-connection';
import { mcpClientSessionId } from './mcp-client-session-id';
import { type McpResourceContents, resourceContentsPart } from './mcp-resource-contents';

/**
 * The tool that lists an MCP server's resources and resource templates for the model (offered by
 * {@link McpToolset} with `resources: true`): each resource's URI, name, title, description and type, each
 * template's URI template (RFC 6570: the model fills in its variables and reads the URI).
 */
export class McpListResourcesTool extends BaseTool {
  readonly description =
    'Lists the resources (documents, files, data) the MCP server offers to read, and the URI templates of those it can read by parameters. Read one with the read-resource tool.';
  readonly parameters: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

  constructor(
    /** The name offered to the model (prefixed). */
    readonly name: string,
    private readonly connection: McpConnection,
  ) {
    super();
  }

  /** Lists the resources; implements {@link BaseTool.run}. */
  async run(_args: Record<string, unknown>, context: ToolContext): Promise<Record<string, unknown>> {
    const listed = await this.connection.listResources({ signal: context.signal, sessionId: mcpClientSessionId(this.connection.identity, context) });
    return {
      resources: listed.resources.map(({ uri, name, title, description, mimeType }) => defined({ uri, name, title, description, mimeType })),
      resourceTemplates: listed.resourceTemplates.map(({ uriTemplate, name, title, description, mimeType }) => defined({ uriTemplate, name, title, description, mimeType })),
    };
  }
}

/**
 * The tool that reads one of an MCP server's resources for the model (offered by {@link McpToolset} with
 * `resources: true`): text contents become `output` (each headed by its URI), binary contents files of the
 * result, which each adapter sends natively (an image reaches the model as an image).
 */
export class McpReadResourceTool extends BaseTool {
  readonly description = 'Reads one resource of the MCP server by its URI (a listed resource, or a URI made from a listed template).';
  readonly parameters: JsonSchema = {
    type: 'object',
    properties: { uri: { type: 'string', minLength: 1, description: 'The URI of the resource, e.g. file:///notes/today.md' } },
    required: ['uri'],
    additionalProperties: false,
  };

  constructor(
    /** The name offered to the model (prefixed). */
    readonly name: string,
    private readonly connection: McpConnection,
  ) {
    super();
  }

  /** Reads the resource; implements {@link BaseTool.run}. */
  async run(args: Record<string, unknown>, context: ToolContext): Promise<Record<string, unknown> | ToolResult> {
    const contents = await this.connection.readResource(args.uri as string, { signal: context.signal, sessionId: mcpClientSessionId(this.connection.identity, context) });
    const texts: string[] = [];
    const files: ToolFile[] = [];
    for (const item of contents) {
      const part = resourceContentsPart(item as McpResourceContents);
      if ('file' in part) files.push(part.file);
      else texts.push(part.text);
    }
    const response = { output: texts.join('\n') };
    return files.length > 0 ? toolResult(response, files) : response;
  }
}

/** The object without its `undefined` members (the model gets only what the server said). */
function defined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined));
}
