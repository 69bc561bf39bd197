import {
  type AuthorizationServerMetadata,
  type OAuthClientInformationMixed,
  type OAuthProtectedResourceMetadata,
  checkResourceAllowed,
  discoverOAuthServerInfo,
  registerClient,
  resolveClientMetadata,
  resourceUrlFromServerUrl,
  selectClientAuthMethod,
} from '@modelcontextprotocol/client';
import type { AuthConfig, ToolsmithError } from '@toolsmith/core';
import { limitedAuthFetch } from './limited-auth-fetch';
import { insecureEndpointReason } from './secure-endpoint';
import type { McpAuthChallenge } from './mcp-auth-challenge';
import { McpConnectionError } from './mcp-errors';

/** A client registered with the authorization server beforehand (the spec's third option, after CIMD and DCR). */
export interface McpPreRegisteredClient {
  /** The client id the authorization server issued. */
  clientId: string;
  /** Its secret; absent for a public client. */
  clientSecret?: string;
}

/** What {@link McpAuthorization} needs to know about this client. */
export interface McpAuthorizationOptions {
  /** Where the authorization server sends the user back; the client passes that URL back to Toolsmith. */
  redirectUri: string;
  /** A pre-registered client: used as is, no registration. */
  client?: McpPreRegisteredClient;
  /** The https URL of this client's metadata document (CIMD), used as its client id when the server supports that. */
  clientMetadataUrl?: string;
  /** `client_name` sent with a dynamic registration. */
  clientName: string;
  /** The deadline of each request to the authorization server (and of the code exchange and refreshes), its answer read in full. */
  requestTimeoutMs: number;
}

/** What discovery found for one server, kept for the toolset's life. */
interface ServerInfo {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  metadata?: AuthorizationServerMetadata;
  resourceMetadata?: OAuthProtectedResourceMetadata;
  client: OAuthClientInformationMixed;
}

/**
 * The MCP authorization spec's discovery, done with the official SDK: protected resource metadata
 * (RFC 9728: the challenge's `resource_metadata`, else the well-known paths), authorization server
 * metadata (RFC 8414, then OpenID Connect discovery, in the spec's order; the 2025-03-26 defaults when
 * there is none), the checks of all of it (resource, PKCE S256, https or loopback endpoints), then the client (pre-registered, else a client ID metadata document
 * when the server supports it, else dynamic registration, RFC 7591), the token endpoint auth method and
 * the scope. The result is an OAuth2 {@link AuthConfig} (with the RFC 8707 `resource`) that Toolsmith's
 * own credential flow runs: PKCE S256, state, the user's pause, the code exchange and refreshes.
 * Every answer is read up to `MAX_AUTH_RESPONSE_BYTES` (1 MiB), no further, and every request, its answer
 * read in full, is over within `requestTimeoutMs` or abandoned (`MCP_AUTHORIZATION_FAILED`, its cause
 * `AUTH_RESPONSE_TIMEOUT`); the config carries that deadline to the code exchange and the refreshes.
 */
export class McpAuthorization {
  private info?: Promise<ServerInfo>;

  constructor(
    private readonly serverUrl: URL,
    /** The name the users' tokens are stored under (the same for every scope). */
    readonly credentialName: string,
    private readonly options: McpAuthorizationOptions,
    private readonly label: string,
  ) {}

  /** The OAuth2 config to ask the user with, for `challenge`'s scope (or `scope`, a step-up's union). */
  async authConfig(challenge: McpAuthChallenge, scope?: string): Promise<AuthConfig> {
    const info = await this.serverInfo(challenge);
    const { metadata, resourceMetadata, client } = info;
    const requested = scope ?? challenge.scope ?? resourceMetadata?.scopes_supported?.join(' ');
    const scopes = requested ? requested.split(' ').filter(Boolean) : [];
    // SEP-2207: ask for a refresh token where the authorization server offers offline_access.
    if (scopes.length > 0 && metadata?.scopes_supported?.includes('offline_access') && !scopes.includes('offline_access')) scopes.push('offline_access');
    const config: AuthConfig = {
      scheme: 'oauth2AuthorizationCode',
      name: this.credentialName,
      oauth2: {
        clientId: client.client_id,
        authorizationUrl: info.authorizationEndpoint,
        tokenUrl: info.tokenEndpoint,
        redirectUri: this.options.redirectUri,
        // RFC 8707: the PRM's resource verbatim, else the server's canonical URL.
        resource: resourceMetadata?.resource ?? resourceUrlFromServerUrl(this.serverUrl).href,
        tokenEndpointAuthMethod: selectClientAuthMethod(client, metadata?.token_endpoint_auth_methods_supported ?? []),
        requestTimeoutMs: this.options.requestTimeoutMs,
      },
    };
    if (client.client_secret) config.oauth2!.clientSecret = client.client_secret;
    if (scopes.length > 0) config.oauth2!.scopes = scopes;
    return config;
  }

  /** Forgets what discovery found, so the next sign-in discovers (and registers) again. */
  forget(): void {
    this.info = undefined;
  }

  private serverInfo(challenge: McpAuthChallenge): Promise<ServerInfo> {
    this.info ??= this.discover(challenge).catch((error: unknown) => {
      this.info = undefined;
      throw error;
    });
    return this.info;
  }

  private async discover(challenge: McpAuthChallenge): Promise<ServerInfo> {
    // The SDK swallows some failures (a protected resource metadata it cannot read counts as none): an
    // answer over a limit (size, deadline) is noted here and fails the discovery whatever the SDK made of it.
    const { fetchFn, failed } = limitedAuthFetch((reason, cause) => this.failure(reason, cause), this.options.requestTimeoutMs);
    let found: Awaited<ReturnType<typeof discoverOAuthServerInfo>>;
    try {
      found = await discoverOAuthServerInfo(this.serverUrl, { fetchFn, ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}) });
    } catch (error) {
      throw failed() ?? this.failure('its authorization server could not be discovered', error);
    }
    const refused = failed();
    if (refused) throw refused;
    const { authorizationServerUrl, authorizationServerMetadata: metadata, resourceMetadata } = found;
    if (resourceMetadata && !checkResourceAllowed({ requestedResource: resourceUrlFromServerUrl(this.serverUrl), configuredResource: resourceMetadata.resource })) {
      throw this.failure(`its protected resource metadata names resource ${resourceMetadata.resource}, which is not this server; nobody is asked to sign in`);
    }
    if (metadata && !metadata.code_challenge_methods_supported?.includes('S256')) {
      throw this.failure('its authorization server does not list PKCE S256 (code_challenge_methods_supported), which the MCP spec requires');
    }
    // Every endpoint is checked before anything is sent to one (a registration included).
    const authorizationEndpoint = this.safeEndpoint('authorization', metadata?.authorization_endpoint ?? new URL('/authorize', authorizationServerUrl).href);
    const tokenEndpoint = this.safeEndpoint('token', metadata?.token_endpoint ?? new URL('/token', authorizationServerUrl).href);
    if (metadata?.registration_endpoint) this.safeEndpoint('registration', metadata.registration_endpoint);
    let client: OAuthClientInformationMixed;
    try {
      client = await this.client(String(authorizationServerUrl), metadata, fetchFn);
    } catch (error) {
      throw failed() ?? error;
    }
    const info: ServerInfo = { authorizationEndpoint, tokenEndpoint, client };
    if (metadata) info.metadata = metadata;
    if (resourceMetadata) info.resourceMetadata = resourceMetadata;
    return info;
  }

  /** The spec's order: a pre-registered client, else a client ID metadata document, else dynamic registration. */
  private async client(authorizationServerUrl: string, metadata: AuthorizationServerMetadata | undefined, fetchFn: typeof fetch): Promise<OAuthClientInformationMixed> {
    const { client, clientMetadataUrl, redirectUri, clientName } = this.options;
    if (client) return client.clientSecret ? { client_id: client.clientId, client_secret: client.clientSecret } : { client_id: client.clientId };
    if (clientMetadataUrl && metadata?.client_id_metadata_document_supported === true) return { client_id: clientMetadataUrl };
    if (metadata && !metadata.registration_endpoint) {
      throw this.failure('its authorization server offers no dynamic client registration and no client ID metadata documents: configure oauth.client (a pre-registered client)');
    }
    const clientMetadata = resolveClientMetadata({
      redirectUrl: redirectUri,
      clientMetadata: { client_name: clientName, redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
    });
    try {
      return await registerClient(authorizationServerUrl, { metadata, clientMetadata, fetchFn });
    } catch (error) {
      throw this.failure('dynamic client registration failed', error);
    }
  }

  /** `url` when it is https or loopback http, else `MCP_AUTHORIZATION_FAILED`. */
  private safeEndpoint(which: 'authorization' | 'token' | 'registration', url: string): string {
    const unsafe = insecureEndpointReason(which, url);
    if (unsafe) throw new McpConnectionError('MCP_AUTHORIZATION_FAILED', this.label, `cannot authorize: ${unsafe}`);
    return url;
  }

  private failure(reason: string, cause?: unknown): ToolsmithError {
    // Metadata the SDK's schema refuses: one line per field at fault, not the schema library's JSON dump.
    const issues = (cause as { issues?: unknown } | undefined)?.issues;
    const fields = Array.isArray(issues) ? issues.map((issue: { path?: unknown[]; message?: unknown }) => `${(issue.path ?? []).join('.') || 'the metadata'}: ${String(issue.message)}`) : undefined;
    const detail = fields?.length ? `: its metadata is invalid (${fields.join('; ')})` : cause instanceof Error ? `: ${cause.message}` : '';
    return new McpConnectionError('MCP_AUTHORIZATION_FAILED', this.label, `cannot authorize: ${reason}${detail}`, cause === undefined ? {} : { cause });
  }
}
