import { CrossAppAccessProvider, type OAuthTokens, requestJwtAuthorizationGrant } from '@modelcontextprotocol/client';
import { type ReadonlyContext, ToolsmithError } from '@toolsmith/core';
import { DEFAULT_AUTH_REQUEST_TIMEOUT_MS, authRequestTimeoutProblem } from './limited-auth-fetch';
import { McpGrantDiscovery, McpGrantSecrets, McpGrantTokenProvider, fetchGrantToken } from './mcp-grant-token-provider';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The enterprise identity provider of {@link McpCrossAppAccessOptions}: where a user's ID token is exchanged for an ID-JAG. */
export interface McpIdentityProvider {
  /** Its token endpoint (https, or loopback), where the token exchange (RFC 8693) is sent. */
  tokenEndpoint: string;
  /** This app's client id at the identity provider. */
  clientId: string;
  /** Its secret there, sent in the token exchange request's body; absent for a public client. */
  clientSecret?: string;
}

/**
 * Enterprise-managed authorization (cross-app access, the MCP extension SEP-990): each user's token is
 * got without asking them, from the ID token the app holds for them (its own sign-in at the enterprise
 * identity provider): the identity provider exchanges it (RFC 8693) for an ID-JAG naming the MCP server,
 * which the server's authorization server exchanges (the RFC 7523 jwt-bearer grant) for an access token.
 */
export interface McpCrossAppAccessOptions {
  /** This app's client at the MCP server's authorization server, the identity provider, and the user's ID token. */
  crossAppAccess: {
    /** This app's client id at the MCP server's authorization server. */
    clientId: string;
    /** Its secret there (`client_secret_basic`). */
    clientSecret: string;
    /** The enterprise identity provider. */
    idp: McpIdentityProvider;
    /** The user's ID token from the identity provider, for the run's context (for example read from the app's own session). */
    idToken: (context: ReadonlyContext) => string | Promise<string>;
  };
  /** The scope to ask for (space-separated); default: the `401`'s `scope`, else the resource metadata's `scopes_supported`, else none. */
  scope?: string;
  /** The `issuer` of the MCP server's authorization server: the client secret is sent to no other. Default: the one discovered first, for the toolset's life. */
  issuer?: string;
  /**
   * The deadline of each request to the identity provider and the authorization server (metadata
   * discovery, the two exchanges), its answer read in full, in milliseconds: past it the request is
   * abandoned and the user's request fails with `MCP_AUTHORIZATION_FAILED` (its cause `AUTH_RESPONSE_TIMEOUT`). Default 30 000.
   */
  requestTimeoutMs?: number;
}

/** The cross-app access of one toolset: discovery shared, one token (and auth provider) per user. */
export class McpCrossAppAccess {
  private readonly secrets: McpGrantSecrets;
  private readonly discovery: McpGrantDiscovery;
  private readonly users = new Map<string, McpCrossAppAccessProvider>();
  /** The authorization server the client secret is bound to (the configured one, else the first discovered). */
  private boundIssuer?: string;

  constructor(
    serverUrl: URL,
    private readonly options: McpCrossAppAccessOptions,
    label: string,
  ) {
    checkCrossAppAccess(options);
    this.secrets = new McpGrantSecrets(label);
    this.secrets.add(options.crossAppAccess.clientSecret);
    if (options.crossAppAccess.idp.clientSecret) this.secrets.add(options.crossAppAccess.idp.clientSecret);
    this.discovery = new McpGrantDiscovery(serverUrl, JWT_BEARER, this.secrets, this.requestTimeoutMs);
    this.boundIssuer = options.issuer;
  }

  /** The auth provider of the run's user (the same one for each of their runs, which it reads the ID token from). */
  forUser(context: ReadonlyContext): McpCrossAppAccessProvider {
    const key = JSON.stringify([context.appName, context.userId]);
    let provider = this.users.get(key);
    if (!provider) this.users.set(key, (provider = new McpCrossAppAccessProvider(this.secrets, (resourceMetadataUrl, scope, run) => this.requestToken(resourceMetadataUrl, scope, run))));
    provider.context = context;
    return provider;
  }

  private async requestToken(resourceMetadataUrl: URL | undefined, challengeScope: string | undefined, context: ReadonlyContext): Promise<OAuthTokens> {
    const { crossAppAccess: access, scope: configured } = this.options;
    const server = await this.discovery.server(resourceMetadataUrl);
    this.boundIssuer ??= server.issuer;
    let idToken: string;
    try {
      idToken = await access.idToken(context);
    } catch (error) {
      throw this.secrets.failure("the app's idToken function failed", error);
    }
    if (typeof idToken !== 'string' || idToken.length === 0) throw this.secrets.failure("the app's idToken function gave no ID token");
    this.secrets.add(idToken);
    const { idp } = access;
    // One fetch for both exchanges: an answer of the identity provider over a limit fails the request like the authorization server's.
    const limited = this.secrets.limitedFetch(this.requestTimeoutMs);
    const provider = new CrossAppAccessProvider({
      clientId: access.clientId,
      clientSecret: access.clientSecret,
      expectedIssuer: this.boundIssuer,
      assertion: async (target) => {
        const grant = await requestJwtAuthorizationGrant({
          tokenEndpoint: idp.tokenEndpoint,
          audience: target.authorizationServerUrl,
          resource: target.resourceUrl,
          idToken,
          clientId: idp.clientId,
          ...(idp.clientSecret ? { clientSecret: idp.clientSecret } : {}),
          ...(target.scope ? { scope: target.scope } : {}),
          fetchFn: limited.fetchFn,
        });
        this.secrets.add(grant.jwtAuthGrant);
        return grant.jwtAuthGrant;
      },
    });
    // What the SDK's auth() would save after its discovery: the ID-JAG's audience and resource.
    provider.saveAuthorizationServerUrl(server.issuer);
    provider.saveResourceUrl?.(server.resource.href);
    return fetchGrantToken(provider, server, { configured, challenge: challengeScope }, this.secrets, 'the identity provider or the authorization server refused the cross-app access token requests', limited);
  }

  private get requestTimeoutMs(): number {
    return this.options.requestTimeoutMs ?? DEFAULT_AUTH_REQUEST_TIMEOUT_MS;
  }
}

/** One user's token by cross-app access (see {@link McpCrossAppAccess}). */
export class McpCrossAppAccessProvider extends McpGrantTokenProvider {
  /** The user's latest run, which the ID token is read from. */
  context?: ReadonlyContext;

  constructor(
    secrets: McpGrantSecrets,
    private readonly request: (resourceMetadataUrl: URL | undefined, scope: string | undefined, context: ReadonlyContext) => Promise<OAuthTokens>,
  ) {
    super(secrets);
  }

  /** The two exchanges for this user; implements {@link McpGrantTokenProvider.requestToken}. */
  protected requestToken(resourceMetadataUrl: URL | undefined, challengeScope: string | undefined): Promise<OAuthTokens> {
    return this.request(resourceMetadataUrl, challengeScope, this.context!);
  }
}

/** Refuses cross-app access options that cannot work, at the toolset's construction (`MCP_OAUTH_CONFIG_INVALID`). */
function checkCrossAppAccess(options: McpCrossAppAccessOptions): void {
  const invalid = (reason: string, field = 'crossAppAccess') => new ToolsmithError('MCP_OAUTH_CONFIG_INVALID', `McpToolset: "oauth.${field}" ${reason}.`);
  const access = options.crossAppAccess as Partial<McpCrossAppAccessOptions['crossAppAccess']> | undefined;
  const text = (value: unknown) => typeof value === 'string' && value.length > 0;
  if (typeof access !== 'object' || access === null) throw invalid('must be { clientId, clientSecret, idp, idToken }');
  if (!text(access.clientId) || !text(access.clientSecret)) throw invalid('needs a non-empty "clientId" and "clientSecret" (the client at the MCP server\'s authorization server)');
  const idp = access.idp as Partial<McpIdentityProvider> | undefined;
  if (!idp || !text(idp.tokenEndpoint) || !URL.canParse(idp.tokenEndpoint!) || !text(idp.clientId)) throw invalid('needs "idp" with the identity provider\'s "tokenEndpoint" URL and this app\'s "clientId" there');
  if (typeof access.idToken !== 'function') throw invalid('needs "idToken", a function of the run\'s context giving the user\'s ID token');
  if (options.scope !== undefined && typeof options.scope !== 'string') throw invalid('must be a string (space-separated scopes)', 'scope');
  if (options.issuer !== undefined && (typeof options.issuer !== 'string' || !URL.canParse(options.issuer))) throw invalid(`must be the authorization server's issuer URL; got ${JSON.stringify(options.issuer)}`, 'issuer');
  const timeoutProblem = authRequestTimeoutProblem(options.requestTimeoutMs);
  if (timeoutProblem) throw invalid(timeoutProblem, 'requestTimeoutMs');
}
