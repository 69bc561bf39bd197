import type { AuthProvider } from '@modelcontextprotocol/client';
import { type AuthConfig, type CredentialKey, type CredentialService, isCredentialExpired } from '@toolsmith/core';
import { McpAuthChallengeError } from './mcp-auth-challenge';
import type { McpPreRegisteredClient } from './mcp-authorization';

/**
 * How a {@link McpToolset} signs its users in to an MCP server that requires OAuth. By default it
 * follows the MCP authorization spec (discovery, client registration, the RFC 8707 resource, scopes
 * and step-up); `authConfig` instead fixes the OAuth2 client and endpoints (the older way).
 */
export interface McpOAuthOptions {
  /** Where users' tokens are kept: the SAME service as the Runner's `credentialService`. */
  credentialService: CredentialService;
  /** Not here: the app's own token (client credentials) is {@link McpClientCredentialsOptions}, without the per-user options. */
  clientCredentials?: never;
  /** Not here: a user's token by cross-app access is {@link McpCrossAppAccessOptions}, without these options. */
  crossAppAccess?: never;
  /**
   * Where the authorization server sends the user back after consenting; the client app passes that
   * URL back to Toolsmith (the `redirectUrl` of the credential response). Required unless `authConfig` is given.
   */
  redirectUri?: string;
  /** A client registered with the server's authorization server beforehand: used instead of registering. */
  client?: McpPreRegisteredClient;
  /**
   * The https URL of this client's OAuth client ID metadata document: used as the client id when the
   * authorization server supports client ID metadata documents, else the client registers dynamically.
   */
  clientMetadataUrl?: string;
  /**
   * A fixed OAuth2 client (`scheme` `oauth2AuthorizationCode` or `openIdConnect`, with client id, URLs,
   * scopes and redirect URI): no discovery, no registration, no `resource` unless its `oauth2.resource`
   * says so. Kept for servers set up before the MCP authorization spec.
   */
  authConfig?: AuthConfig;
  /**
   * The deadline of each request to the authorization server (the discovery documents, the
   * registration, the code exchange and the refreshes), its answer read in full, in milliseconds: past
   * it the request is abandoned and fails with its cause `AUTH_RESPONSE_TIMEOUT` (discovery and
   * registration: `MCP_AUTHORIZATION_FAILED`; the code exchange: `AUTH_TOKEN_REQUEST_FAILED`; a refresh:
   * `AUTH_TOKEN_ENDPOINT_UNAVAILABLE`, the token kept). Default 30 000. Not used with `authConfig`,
   * whose own `oauth2.requestTimeoutMs` applies.
   */
  requestTimeoutMs?: number;
}

/**
 * The SDK transport's {@link AuthProvider} over a Toolsmith {@link CredentialService}, for one user:
 * every request carries the user's stored access token (none when it expired: the toolset refreshes it
 * through the credential flow), and a `401` ends the request with the server's challenge, so the
 * toolset asks the user through the run's pause instead of the SDK redirecting anybody.
 */
export class McpCredentialProvider implements AuthProvider {
  constructor(
    private readonly credentialService: CredentialService,
    private readonly key: CredentialKey,
  ) {}

  /** The user's live access token, read from the credential service on every request. */
  async token(): Promise<string | undefined> {
    const credential = await this.credentialService.loadCredential(this.key);
    if (!credential?.accessToken || isCredentialExpired(credential, Date.now(), 0)) return undefined;
    return credential.accessToken;
  }

  /** The server refused the request: end it with the challenge (the caller asks the user, or refreshes). */
  onUnauthorized(context: Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0]): Promise<void> {
    return Promise.reject(McpAuthChallengeError.fromResponse(context.response));
  }
}
