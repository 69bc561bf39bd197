import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthTokens } from '@modelcontextprotocol/client';
import type { AuthConfig, AuthCredential, CredentialKey, CredentialService } from '@toolsmith/core';
import { McpConnectionError } from './mcp-errors';

/** How a {@link McpToolset} signs its users in to an MCP server that requires OAuth. */
export interface McpOAuthOptions {
  /**
   * The server's OAuth2 client: `scheme` `oauth2AuthorizationCode` (or `openIdConnect`) with the client
   * id (and secret), authorization and token URLs, scopes and redirect URI.
   */
  authConfig: AuthConfig;
  /** Where users' tokens are kept: the SAME service as the Runner's `credentialService`. */
  credentialService: CredentialService;
}

/**
 * The MCP SDK's {@link OAuthClientProvider} over a Toolsmith {@link CredentialService}, for one user:
 * the transport reads the user's tokens from the service on every request, and tokens the SDK
 * obtains (a refresh) are stored there. The authorization itself runs through Toolsmith's credential
 * pause (the toolset's sign-in tool), never through the SDK's redirect: when the SDK would redirect,
 * the stored tokens are dropped so the next step asks the user again.
 */
export class McpCredentialProvider implements OAuthClientProvider {
  constructor(
    private readonly oauth: McpOAuthOptions,
    private readonly key: CredentialKey,
  ) {}

  /** The config's redirect URI (the SDK's view; the redirect itself is handled by Toolsmith's pause). */
  get redirectUrl(): string | undefined {
    return this.oauth.authConfig.oauth2?.redirectUri;
  }

  /** This client as the SDK describes it to a server: redirect URI, grants, scopes. */
  get clientMetadata(): OAuthClientMetadata {
    const client = this.oauth.authConfig.oauth2;
    return {
      client_name: 'toolsmith',
      redirect_uris: client?.redirectUri ? [client.redirectUri] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: client?.clientSecret ? 'client_secret_post' : 'none',
      ...(client?.scopes?.length ? { scope: client.scopes.join(' ') } : {}),
    };
  }

  /** The pre-registered client id (and secret) from the config. */
  clientInformation(): OAuthClientInformationMixed | undefined {
    const client = this.oauth.authConfig.oauth2;
    if (!client) return undefined;
    return { client_id: client.clientId, ...(client.clientSecret ? { client_secret: client.clientSecret } : {}) };
  }

  /** The user's stored tokens, read from the credential service on every request. */
  async tokens(): Promise<OAuthTokens | undefined> {
    const credential = await this.oauth.credentialService.loadCredential(this.key);
    if (!credential?.accessToken) return undefined;
    const tokens: OAuthTokens = { access_token: credential.accessToken, token_type: credential.tokenType ?? 'Bearer' };
    if (credential.refreshToken) tokens.refresh_token = credential.refreshToken;
    if (credential.expiresAt !== undefined) tokens.expires_in = Math.max(0, Math.floor((credential.expiresAt - Date.now()) / 1000));
    if (credential.scope) tokens.scope = credential.scope;
    if (credential.idToken) tokens.id_token = credential.idToken;
    return tokens;
  }

  /** Stores tokens the SDK obtained (a refresh) as the user's credential. */
  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const credential: AuthCredential = { accessToken: tokens.access_token, tokenType: tokens.token_type };
    if (tokens.refresh_token) credential.refreshToken = tokens.refresh_token;
    if (tokens.expires_in !== undefined) credential.expiresAt = Date.now() + tokens.expires_in * 1000;
    if (tokens.scope) credential.scope = tokens.scope;
    if (tokens.id_token) credential.idToken = tokens.id_token;
    await this.oauth.credentialService.saveCredential(this.key, credential);
  }

  /** The SDK would send the user to authorize: the stored tokens are dropped instead, so the next step asks through the pause. */
  async redirectToAuthorization(): Promise<void> {
    // The tokens no longer work: forget them, so the toolset offers its sign-in tool again.
    await this.oauth.credentialService.deleteCredential(this.key);
  }

  /** Drops the stored tokens when the server says they are no longer valid. */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens') await this.oauth.credentialService.deleteCredential(this.key);
  }

  /** Not used: the PKCE verifier is Toolsmith's, in the credential service. */
  saveCodeVerifier(): void {
    // Unused: the authorization (and its PKCE verifier) is Toolsmith's, kept by the credential service.
  }

  /** Not used (see {@link McpCredentialProvider.saveCodeVerifier}); throws if the SDK ever asks. */
  codeVerifier(): string {
    throw new McpConnectionError('MCP_CONNECTION_FAILED', 'oauth', 'the SDK asked for a PKCE verifier, but authorization runs through the toolset sign-in tool');
  }
}
