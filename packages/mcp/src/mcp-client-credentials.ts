import type { KeyObject } from 'node:crypto';
import { ClientCredentialsProvider, type OAuthTokens, PrivateKeyJwtProvider } from '@modelcontextprotocol/client';
import { ToolsmithError } from '@toolsmith/core';
import { type McpClientAssertionAlgorithm, clientAssertionKey, isClientAssertionAlgorithm, signClientAssertion } from './client-assertion';
import { DEFAULT_AUTH_REQUEST_TIMEOUT_MS, authRequestTimeoutProblem } from './limited-auth-fetch';
import { McpGrantDiscovery, McpGrantSecrets, McpGrantTokenProvider, fetchGrantToken } from './mcp-grant-token-provider';

/** The app's client at the MCP server's authorization server, authenticated with its secret (`client_secret_basic`). */
export interface McpClientSecret {
  /** The client id the authorization server issued. */
  clientId: string;
  /** Its secret, sent in the `Authorization: Basic` header of each token request. */
  clientSecret: string;
  /** Not with a secret: a private key is {@link McpClientPrivateKey}. */
  privateKey?: never;
  /** Not with a secret: the algorithm goes with a private key ({@link McpClientPrivateKey}). */
  algorithm?: never;
}

/** The app's client, authenticated with a JWT it signs with its private key (`private_key_jwt`, RFC 7523). */
export interface McpClientPrivateKey {
  /** The client id the authorization server issued; the assertion's `iss` and `sub`. */
  clientId: string;
  /** The private key: PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`) or a private JWK. */
  privateKey: string | Record<string, unknown>;
  /** How the assertion is signed; the key must be of that family (RSA for `RS*` and `PS*`, EC for `ES*`). */
  algorithm: McpClientAssertionAlgorithm;
  /** Not with a private key: a secret is {@link McpClientSecret}. */
  clientSecret?: never;
}

/**
 * OAuth for the app itself rather than for its users: the OAuth client credentials grant (the MCP
 * extension SEP-1046), for machine-to-machine use. The token is the app's: nobody signs in, no run
 * pauses, and every user of the toolset shares it (and one MCP session).
 */
export interface McpClientCredentialsOptions {
  /** The client and how it authenticates at the token endpoint: a secret, or a private key. */
  clientCredentials: McpClientSecret | McpClientPrivateKey;
  /** The scope to ask for (space-separated); default: the `401`'s `scope`, else the resource metadata's `scopes_supported`, else none. */
  scope?: string;
  /**
   * The `issuer` of the authorization server these credentials belong to: they are sent to no other
   * (SEP-2352). Default: the authorization server discovered first, kept for the toolset's life.
   */
  issuer?: string;
  /**
   * The deadline of each request to the authorization server (metadata discovery, the token request), its
   * answer read in full, in milliseconds: past it the request is abandoned and the toolset fails with
   * `MCP_AUTHORIZATION_FAILED` (its cause `AUTH_RESPONSE_TIMEOUT`). Default 30 000.
   */
  requestTimeoutMs?: number;
  /** Not with client credentials: the options for signing users in (`McpOAuthOptions`) do not mix with the app's own token. */
  credentialService?: never;
  /** Not with client credentials (see `credentialService`). */
  redirectUri?: never;
  /** Not with client credentials (see `credentialService`). */
  client?: never;
  /** Not with client credentials (see `credentialService`). */
  clientMetadataUrl?: never;
  /** Not with client credentials (see `credentialService`). */
  authConfig?: never;
  /** Not with client credentials: cross-app access is `McpCrossAppAccessOptions`. */
  crossAppAccess?: never;
}

type SdkProvider = ClientCredentialsProvider | PrivateKeyJwtProvider;

/**
 * The transport's auth provider for {@link McpClientCredentialsOptions}: the app's token, got with the
 * official SDK (discovery, the RFC 8707 `resource`, its client credentials providers and `fetchToken`)
 * when the server answers `401`, kept in memory and shared by every user of the toolset.
 */
export class McpClientCredentialsProvider extends McpGrantTokenProvider {
  private provider?: SdkProvider;
  private readonly discovery: McpGrantDiscovery;
  /** The private key of `private_key_jwt`, checked at construction. */
  private readonly key?: KeyObject;

  constructor(
    serverUrl: URL,
    private readonly options: McpClientCredentialsOptions,
    label: string,
  ) {
    super(new McpGrantSecrets(label));
    this.key = checkClientCredentials(options);
    this.discovery = new McpGrantDiscovery(serverUrl, 'client_credentials', this.secrets, this.requestTimeoutMs);
    const credentials = options.clientCredentials;
    if (credentials.clientSecret !== undefined) {
      this.secrets.add(credentials.clientSecret);
      // A client_secret_basic header: base64 of `id:secret`, each part form-url-encoded or not.
      this.secrets.add(`${credentials.clientId}:${credentials.clientSecret}`);
      this.secrets.add(`${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`);
    }
    else if (typeof credentials.privateKey === 'string') this.secrets.add(credentials.privateKey.trim());
  }

  /** The client credentials token request; implements {@link McpGrantTokenProvider.requestToken}. */
  protected async requestToken(resourceMetadataUrl: URL | undefined, challengeScope: string | undefined): Promise<OAuthTokens> {
    const server = await this.discovery.server(resourceMetadataUrl);
    const provider = this.sdkProvider(server.issuer);
    const limited = this.secrets.limitedFetch(this.requestTimeoutMs);
    return fetchGrantToken(provider, server, { configured: this.options.scope, challenge: challengeScope }, this.secrets, 'its authorization server refused the client credentials token request', limited);
  }

  private get requestTimeoutMs(): number {
    return this.options.requestTimeoutMs ?? DEFAULT_AUTH_REQUEST_TIMEOUT_MS;
  }

  /** The SDK's provider for these credentials, bound to the configured issuer, else to the first one discovered. */
  private sdkProvider(discoveredIssuer: string): SdkProvider {
    if (this.provider) return this.provider;
    const { clientCredentials: credentials, issuer } = this.options;
    const expectedIssuer = issuer ?? discoveredIssuer;
    if (credentials.clientSecret !== undefined) {
      this.provider = new ClientCredentialsProvider({ clientId: credentials.clientId, clientSecret: credentials.clientSecret, expectedIssuer });
    } else {
      const { clientId, algorithm, privateKey } = credentials as McpClientPrivateKey;
      const provider = new PrivateKeyJwtProvider({ clientId, privateKey, algorithm, expectedIssuer });
      // The assertion is signed with node's crypto rather than the SDK's lazily imported jose (which
      // jest's sandbox cannot import), the same in tests as in apps; it is remembered as a secret, so an
      // error echoing it is redacted.
      const key = this.key!;
      provider.addClientAuthentication = (_headers, params, url, metadata) => {
        const assertion = signClientAssertion(clientId, String(metadata?.issuer ?? url), key, algorithm);
        this.secrets.add(assertion);
        params.set('client_assertion', assertion);
        params.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      };
      this.provider = provider;
    }
    return this.provider;
  }
}

/** Refuses client credentials that cannot work, at the toolset's construction (`MCP_OAUTH_CONFIG_INVALID`); returns the private key, if any. */
function checkClientCredentials(options: McpClientCredentialsOptions): KeyObject | undefined {
  const invalid = (reason: string, field = 'clientCredentials') => new ToolsmithError('MCP_OAUTH_CONFIG_INVALID', `McpToolset: "oauth.${field}" ${reason}.`);
  const mixed = ['credentialService', 'redirectUri', 'client', 'clientMetadataUrl', 'authConfig'].filter((name) => (options as unknown as Record<string, unknown>)[name] !== undefined);
  if (mixed.length > 0) throw invalid(`is the app's own OAuth, which takes no ${mixed.map((name) => `"${name}"`).join(', ')} (those are for signing users in)`);
  if (options.scope !== undefined && typeof options.scope !== 'string') throw invalid('must be a string (space-separated scopes)', 'scope');
  if (options.issuer !== undefined && (typeof options.issuer !== 'string' || !URL.canParse(options.issuer))) throw invalid(`must be the authorization server's issuer URL; got ${JSON.stringify(options.issuer)}`, 'issuer');
  const timeoutProblem = authRequestTimeoutProblem(options.requestTimeoutMs);
  if (timeoutProblem) throw invalid(timeoutProblem, 'requestTimeoutMs');
  const credentials = options.clientCredentials as unknown as { clientId?: unknown; clientSecret?: unknown; privateKey?: McpClientPrivateKey['privateKey']; algorithm?: unknown } | undefined;
  if (typeof credentials !== 'object' || credentials === null) throw invalid('must be { clientId, clientSecret } or { clientId, privateKey, algorithm }');
  if (typeof credentials.clientId !== 'string' || credentials.clientId.length === 0) throw invalid('needs a non-empty "clientId"');
  const withSecret = credentials.clientSecret !== undefined;
  if (withSecret === (credentials.privateKey !== undefined)) throw invalid('needs exactly one of "clientSecret" (client_secret_basic) and "privateKey" (private_key_jwt)');
  if (withSecret) {
    if (typeof credentials.clientSecret !== 'string' || credentials.clientSecret.length === 0) throw invalid('needs "clientSecret" to be a non-empty string');
    return undefined;
  }
  const algorithm = credentials.algorithm;
  if (!isClientAssertionAlgorithm(algorithm)) throw invalid(`has "algorithm" ${JSON.stringify(algorithm)}; it must be one of RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512`);
  try {
    return clientAssertionKey(credentials.privateKey, algorithm);
  } catch (error) {
    throw invalid(`has a "privateKey" that cannot sign ${algorithm}: ${(error as Error).message}`);
  }
}
