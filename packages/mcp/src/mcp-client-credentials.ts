import type { KeyObject } from 'node:crypto';
import {
  type AuthProvider,
  type AuthorizationServerMetadata,
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
  assertSecureTokenEndpoint,
  checkResourceAllowed,
  computeScopeUnion,
  discoverOAuthServerInfo,
  extractWWWAuthenticateParams,
  fetchToken,
  resourceUrlFromServerUrl,
} from '@modelcontextprotocol/client';
import { ToolsmithError } from '@toolsmith/core';
import { REDACTED, redactSecretText } from '@toolsmith/core/internal';
import { type McpClientAssertionAlgorithm, clientAssertionKey, isClientAssertionAlgorithm, signClientAssertion } from './client-assertion';
import { McpConnectionError } from './mcp-errors';

/** The app's client at the MCP server's authorization server, authenticated with its secret (`client_secret_basic`). */
export interface McpClientSecret {
  /** The client id the authorization server issued. */
  clientId: string;
  /** Its secret, sent in the `Authorization: Basic` header of each token request. */
  clientSecret: string;
}

/** The app's client, authenticated with a JWT it signs with its private key (`private_key_jwt`, RFC 7523). */
export interface McpClientPrivateKey {
  /** The client id the authorization server issued; the assertion's `iss` and `sub`. */
  clientId: string;
  /** The private key: PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`) or a private JWK. */
  privateKey: string | Record<string, unknown>;
  /** How the assertion is signed; the key must be of that family (RSA for `RS*` and `PS*`, EC for `ES*`). */
  algorithm: McpClientAssertionAlgorithm;
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
}

/** What discovery found for the server, kept for the toolset's life. */
interface ServerInfo {
  authorizationServerUrl: string;
  issuer: string;
  metadata?: AuthorizationServerMetadata;
  resource: URL;
  scopesSupported?: string[];
}

type SdkProvider = ClientCredentialsProvider | PrivateKeyJwtProvider;

/**
 * The transport's {@link AuthProvider} for {@link McpClientCredentialsOptions}: every request carries
 * the app's token while it lives (none at first, or once expired); a `401` gets a new token with the
 * official SDK (discovery of the protected resource and its authorization server, the RFC 8707
 * `resource`, the SDK's client credentials providers and `fetchToken`), and the transport sends the
 * request once more. The token lives in memory only.
 */
export class McpClientCredentialsProvider implements AuthProvider {
  private current?: { accessToken: string; expiresAt?: number };
  private obtaining?: Promise<void>;
  private info?: Promise<ServerInfo>;
  private provider?: SdkProvider;
  /** Everything secret this provider handled, redacted from the error messages it builds. */
  private readonly secrets = new Set<string>();
  /** The private key of `private_key_jwt`, checked at construction. */
  private readonly key?: KeyObject;

  constructor(
    private readonly serverUrl: URL,
    private readonly options: McpClientCredentialsOptions,
    private readonly label: string,
  ) {
    this.key = checkClientCredentials(options);
    const credentials = options.clientCredentials;
    if ('clientSecret' in credentials) this.secrets.add(credentials.clientSecret);
    else if (typeof credentials.privateKey === 'string') this.secrets.add(credentials.privateKey.trim());
  }

  /** The app's token while it lives; implements {@link AuthProvider.token}. */
  token(): Promise<string | undefined> {
    const current = this.current;
    return Promise.resolve(current && (current.expiresAt === undefined || current.expiresAt > Date.now()) ? current.accessToken : undefined);
  }

  /** The server refused a request: get a new token (requests refused at once share one token request). */
  onUnauthorized(context: Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0]): Promise<void> {
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(context.response);
    this.obtaining ??= this.obtain(resourceMetadataUrl, scope).finally(() => {
      this.obtaining = undefined;
    });
    return this.obtaining;
  }

  /** `text` with every secret this provider handled (and anything that looks like one) replaced by `[redacted]`. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) if (secret.length >= 4) out = out.split(secret).join(REDACTED);
    return redactSecretText(out);
  }

  private async obtain(resourceMetadataUrl: URL | undefined, challengeScope: string | undefined): Promise<void> {
    this.current = undefined;
    const info = await this.serverInfo(resourceMetadataUrl);
    const provider = this.sdkProvider(info.issuer);
    const scope = computeScopeUnion(this.options.scope, challengeScope) ?? info.scopesSupported?.join(' ');
    let tokens: Awaited<ReturnType<typeof fetchToken>>;
    try {
      tokens = await fetchToken(provider, info.authorizationServerUrl, {
        resource: info.resource,
        ...(info.metadata ? { metadata: info.metadata } : {}),
        ...(scope ? { scope } : {}),
      });
    } catch (error) {
      throw this.failure(`its authorization server refused the client credentials token request`, error);
    }
    this.secrets.add(tokens.access_token);
    this.current = { accessToken: tokens.access_token };
    if (tokens.expires_in !== undefined) this.current.expiresAt = Date.now() + tokens.expires_in * 1000;
  }

  private serverInfo(resourceMetadataUrl: URL | undefined): Promise<ServerInfo> {
    this.info ??= this.discover(resourceMetadataUrl).catch((error: unknown) => {
      this.info = undefined;
      throw error;
    });
    return this.info;
  }

  private async discover(resourceMetadataUrl: URL | undefined): Promise<ServerInfo> {
    let found: Awaited<ReturnType<typeof discoverOAuthServerInfo>>;
    try {
      found = await discoverOAuthServerInfo(this.serverUrl, resourceMetadataUrl ? { resourceMetadataUrl } : {});
    } catch (error) {
      throw this.failure('its authorization server could not be discovered', error);
    }
    const { authorizationServerMetadata: metadata, resourceMetadata } = found;
    const authorizationServerUrl = String(found.authorizationServerUrl);
    const ownResource = resourceUrlFromServerUrl(this.serverUrl);
    if (resourceMetadata && !checkResourceAllowed({ requestedResource: ownResource, configuredResource: resourceMetadata.resource })) {
      throw this.failure(`its protected resource metadata names resource ${resourceMetadata.resource}, which is not this server; no token was asked for`);
    }
    const grants = metadata?.grant_types_supported;
    if (grants && !grants.includes('client_credentials')) {
      throw this.failure(`its authorization server does not offer the client_credentials grant (grant_types_supported: ${grants.join(', ')}); no token was asked for`);
    }
    const tokenUrl = metadata?.token_endpoint ?? new URL('/token', authorizationServerUrl).href;
    try {
      assertSecureTokenEndpoint(tokenUrl);
    } catch (error) {
      throw this.failure(`its token endpoint ${tokenUrl} is neither https nor loopback`, error);
    }
    const info: ServerInfo = {
      authorizationServerUrl,
      issuer: metadata?.issuer ?? authorizationServerUrl,
      resource: resourceMetadata ? new URL(resourceMetadata.resource) : ownResource,
    };
    if (metadata) info.metadata = metadata;
    if (resourceMetadata?.scopes_supported) info.scopesSupported = resourceMetadata.scopes_supported;
    return info;
  }

  /** The SDK's provider for these credentials, bound to the configured issuer, else to the first one discovered. */
  private sdkProvider(discoveredIssuer: string): SdkProvider {
    if (this.provider) return this.provider;
    const { clientCredentials: credentials, issuer } = this.options;
    const expectedIssuer = issuer ?? discoveredIssuer;
    if ('clientSecret' in credentials) {
      this.provider = new ClientCredentialsProvider({ clientId: credentials.clientId, clientSecret: credentials.clientSecret, expectedIssuer });
    } else {
      const { clientId, algorithm } = credentials;
      const provider = new PrivateKeyJwtProvider({ clientId, privateKey: credentials.privateKey, algorithm, expectedIssuer });
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

  private failure(reason: string, cause?: unknown): McpConnectionError {
    // (Not `instanceof Error`: the error may come from another realm.)
    const message = (cause as { message?: unknown } | undefined)?.message;
    const detail = typeof message === 'string' && message ? `: ${this.redact(message)}` : '';
    // The cause is not kept: its message (the server's error text) may echo a secret.
    return new McpConnectionError('MCP_AUTHORIZATION_FAILED', this.label, `cannot get the app's token: ${reason}${detail}`);
  }
}

/** Refuses client credentials that cannot work, at the toolset's construction (`MCP_OAUTH_CONFIG_INVALID`); returns the private key, if any. */
function checkClientCredentials(options: McpClientCredentialsOptions): KeyObject | undefined {
  const invalid = (reason: string, field = 'clientCredentials') => new ToolsmithError('MCP_OAUTH_CONFIG_INVALID', `McpToolset: "oauth.${field}" ${reason}.`);
  const mixed = ['credentialService', 'redirectUri', 'client', 'clientMetadataUrl', 'authConfig'].filter((name) => (options as unknown as Record<string, unknown>)[name] !== undefined);
  if (mixed.length > 0) throw invalid(`is the app's own OAuth, which takes no ${mixed.map((name) => `"${name}"`).join(', ')} (those are for signing users in)`);
  if (options.scope !== undefined && typeof options.scope !== 'string') throw invalid('must be a string (space-separated scopes)', 'scope');
  if (options.issuer !== undefined && (typeof options.issuer !== 'string' || !URL.canParse(options.issuer))) throw invalid(`must be the authorization server's issuer URL; got ${JSON.stringify(options.issuer)}`, 'issuer');
  const credentials = options.clientCredentials as Partial<McpClientSecret & McpClientPrivateKey> | undefined;
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
