import { type AuthConfig, BaseTool, type JsonSchema, type ToolContext } from '@toolsmith/core';

/** Why a {@link McpSignInTool} is offered: a fixed config (`legacy`), no usable token (`sign-in`), or a token lacking a scope (`step-up`). */
export type McpSignInReason = 'legacy' | 'sign-in' | 'step-up';

const SIGNED_IN = { status: 'signed_in', note: "The server's tools are available from the next step." };

/**
 * What a {@link McpToolset} offers while the user has no token its OAuth-protected server accepts: one
 * tool. Calling it pauses the run with the usual `toolsmith_request_credential` request (or refreshes an
 * expired token without asking); once it ran, the server's own tools are listed from the next step on.
 * With a fixed `authConfig` (`legacy`) the tool's `auth` is that config; otherwise the config comes from
 * the server's discovery, and a `step-up` always asks (a refresh cannot widen a token's scope).
 */
export class McpSignInTool extends BaseTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };
  override readonly auth?: AuthConfig = undefined;

  constructor(
    name: string,
    server: string,
    private readonly config: AuthConfig,
    private readonly reason: McpSignInReason = 'legacy',
  ) {
    super();
    this.name = name;
    if (reason === 'legacy') this.auth = config;
    this.description =
      `Signs the user in to the MCP server ${server}, whose tools need the user's authorization` +
      (reason === 'step-up' ? ' with more permissions (scopes) than they granted so far. ' : '. ') +
      'Call it when the user asks for something that server provides; its tools are offered after it.';
  }

  /** Runs once the credential is in place (or asks for it); implements {@link BaseTool.run}. */
  async run(_args: Record<string, unknown>, context: ToolContext): Promise<Record<string, unknown>> {
    if (this.reason === 'legacy') return SIGNED_IN;
    const answered = context.toolConfirmation;
    const refused = (answered?.payload as { authError?: unknown } | undefined)?.authError !== undefined;
    if (answered?.confirmed && !refused) return SIGNED_IN;
    // An expired token with a refresh token is renewed without asking anybody.
    if (this.reason === 'sign-in' && !refused && (await context.getAuthResponse(this.config))) return SIGNED_IN;
    await context.requestCredential(this.config);
    return {};
  }
}
