import { type AuthConfig, BaseTool, type JsonSchema } from '@toolsmith/core';

/**
 * What a {@link McpToolset} offers while the user has no token for its OAuth-protected server: one
 * tool whose `auth` is the server's config. Calling it pauses the run with the usual
 * `toolsmith_request_credential` request (or refreshes an expired token without asking); once it ran,
 * the server's own tools are listed from the next step on.
 */
export class McpSignInTool extends BaseTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };
  override readonly auth: AuthConfig;

  constructor(name: string, server: string, auth: AuthConfig) {
    super();
    this.name = name;
    this.auth = auth;
    this.description =
      `Signs the user in to the MCP server ${server}, whose tools need the user's authorization. ` +
      'Call it when the user asks for something that server provides; its tools are offered after it.';
  }

  /** Runs once the credential is in place; implements {@link BaseTool.run}. */
  run(): Record<string, unknown> {
    return { status: 'signed_in', note: "The server's tools are available from the next step." };
  }
}
