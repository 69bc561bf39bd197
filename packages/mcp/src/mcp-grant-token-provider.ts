import {
  type AuthProvider,
  type AuthorizationServerMetadata,
  type OAuthClientProvider,
  type OAuthTokens,
  AuthorizationServerMismatchError,
  IssuerMismatchError,
  checkResourceAllowed,
  computeScopeUnion,
  discoverOAuthServerInfo,
  isStrictScopeSuperset,
  fetchToken,
  extractWWWAuthenticateParams,
  resourceUrlFromServerUrl,
} from '@modelcontextprotocol/client';
import { ResponseTimeoutError, ResponseTooLargeError, redactKnownSecrets } from '@toolsmith/core/internal';
import { type LimitedAuthFetch, limitedAuthFetch } from './limited-auth-fetch';
import { insecureEndpointReason } from './secure-endpoint';
import { McpConnectionError } from './mcp-errors';

/** What discovery found for an MCP server and its authorization server, kept for the toolset's life. */
export interface McpGrantServer {
  authorizationServerUrl: string;
  /** The authorization server's `issuer` (its URL when it has no metadata). */
  issuer: string;
  metadata?: AuthorizationServerMetadata;
  /** The RFC 8707 `resource`: the protected resource metadata's, else the server's URL. */
  resource: URL;
  /** The protected resource metadata's `scopes_supported`. */
  scopesSupported?: string[];
}

/**
 * The secrets an MCP server's OAuth grant handled (client secrets, private keys, assertions, tokens),
 * and the `MCP_AUTHORIZATION_FAILED` errors built with them redacted.
 */
export class McpGrantSecrets {
  private readonly secrets = new Set<string>();

  constructor(private readonly label: string) {}

  /** Remembers `secret`, to be redacted from every error message. */
  add(secret: string): void {
    if (secret.length >= 4) this.secrets.add(secret);
  }

  /**
   * `text` with every remembered secret, as it is, percent- or form-url-encoded or base64 (a `Basic`
   * header), and anything that looks like a secret replaced by `[redacted]`.
   */
  redact(text: string): string {
    return redactKnownSecrets(text, this.secrets);
  }

  /**
   * `MCP_AUTHORIZATION_FAILED` for `reason`, with the cause's message redacted. The cause itself is kept
   * only when it is core's `AUTH_RESPONSE_TOO_LARGE` or `AUTH_RESPONSE_TIMEOUT` (which name only an
   * endpoint and a limit); any other may echo a secret.
   */
  failure(reason: string, cause?: unknown): McpConnectionError {
    // (Not `instanceof Error`: the error may come from another realm.)
    const message = (cause as { message?: unknown } | undefined)?.message;
    const detail = typeof message === 'string' && message ? `: ${this.redact(message)}` : '';
    const kept = cause instanceof ResponseTooLargeError || cause instanceof ResponseTimeoutError ? { cause } : {};
    return new McpConnectionError('MCP_AUTHORIZATION_FAILED', this.label, `cannot get a token: ${reason}${detail}`, kept);
  }

  /** A fetch for this grant's requests (size limit and deadline), its failures built by {@link McpGrantSecrets.failure}. */
  limitedFetch(timeoutMs: number): LimitedAuthFetch<McpConnectionError> {
    return limitedAuthFetch((reason, cause) => this.failure(reason, cause), timeoutMs);
  }
}

/**
 * The token request of an SDK provider (its grant and client authentication) to the discovered
 * authorization server, with the RFC 8707 `resource` and the scope: `configured` with the `401`'s added,
 * else the resource metadata's `scopes_supported`, else none (the tokens' `scope` is that one when the
 * answer names none). A refusal is `MCP_AUTHORIZATION_FAILED`
 * (`refused` says what was refused), redacted; so is an answer (of the token request, or of whatever
 * else the provider sent through `limited`) over the size limit or the deadline.
 */
export async function fetchGrantToken(
  provider: OAuthClientProvider,
  server: McpGrantServer,
  scopes: { configured: string | undefined; challenge: string | undefined },
  secrets: McpGrantSecrets,
  refused: string,
  limited: LimitedAuthFetch<McpConnectionError>,
): Promise<OAuthTokens> {
  const scope = computeScopeUnion(scopes.configured, scopes.challenge) ?? server.scopesSupported?.join(' ');
  const { fetchFn, failed } = limited;
  let tokens: OAuthTokens;
  try {
    tokens = await fetchToken(provider, server.authorizationServerUrl, {
      resource: server.resource,
      fetchFn,
      ...(server.metadata ? { metadata: server.metadata } : {}),
      ...(scope ? { scope } : {}),
    });
  } catch (error) {
    // The SDK checks the issuer before it sends anything: no request was refused.
    if (AuthorizationServerMismatchError.isInstance(error)) {
      throw secrets.failure(`its authorization server is ${JSON.stringify(error.currentIssuer)}, not the expected ${JSON.stringify(error.recordedIssuer)}; no token was asked for`);
    }
    if (IssuerMismatchError.isInstance(error) && error.kind === 'metadata') {
      throw secrets.failure(`its authorization server's issuer is ${JSON.stringify(error.received)}, not the expected ${JSON.stringify(error.expected)}; no token was asked for`);
    }
    throw failed() ?? secrets.failure(refused, error);
  }
  const overLimit = failed();
  if (overLimit) throw overLimit;
  // RFC 6749 §5.1: an answer without `scope` granted the scope asked for.
  return tokens.scope === undefined && scope ? { ...tokens, scope } : tokens;
}

/**
 * The MCP authorization spec's discovery for a grant that needs nobody's consent: the protected resource
 * metadata and its authorization server's metadata (the SDK's `discoverOAuthServerInfo`), refused before
 * any credential is sent when the metadata names another resource, the authorization server does not
 * list the grant in `grant_types_supported`, or its token endpoint is neither https nor loopback. The
 * result is kept for the toolset's life (forgotten after a failure).
 */
export class McpGrantDiscovery {
  private found?: Promise<McpGrantServer>;

  constructor(
    private readonly serverUrl: URL,
    private readonly grantType: string,
    private readonly secrets: McpGrantSecrets,
    /** The deadline of each discovery request, its answer read in full. */
    private readonly requestTimeoutMs: number,
  ) {}

  /** The server's authorization facts, discovered once (`resourceMetadataUrl` from the first `401`). */
  server(resourceMetadataUrl: URL | undefined): Promise<McpGrantServer> {
    this.found ??= this.discover(resourceMetadataUrl).catch((error: unknown) => {
      this.found = undefined;
      throw error;
    });
    return this.found;
  }

  private async discover(resourceMetadataUrl: URL | undefined): Promise<McpGrantServer> {
    const fail = (reason: string, cause?: unknown) => this.secrets.failure(reason, cause);
    const { fetchFn, failed } = this.secrets.limitedFetch(this.requestTimeoutMs);
    let found: Awaited<ReturnType<typeof discoverOAuthServerInfo>>;
    try {
      found = await discoverOAuthServerInfo(this.serverUrl, { fetchFn, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}) });
    } catch (error) {
      throw failed() ?? fail('its authorization server could not be discovered', error);
    }
    const overLimit = failed();
    if (overLimit) throw overLimit;
    const { authorizationServerMetadata: metadata, resourceMetadata } = found;
    const authorizationServerUrl = String(found.authorizationServerUrl);
    const ownResource = resourceUrlFromServerUrl(this.serverUrl);
    if (resourceMetadata && !checkResourceAllowed({ requestedResource: ownResource, configuredResource: resourceMetadata.resource })) {
      throw fail(`its protected resource metadata names resource ${resourceMetadata.resource}, which is not this server; no token was asked for`);
    }
    const grants = metadata?.grant_types_supported;
    if (grants && !grants.includes(this.grantType)) {
      throw fail(`its authorization server does not offer the ${this.grantType} grant (grant_types_supported: ${grants.join(', ')}); no token was asked for`);
    }
    const tokenUrl = metadata?.token_endpoint ?? new URL('/token', authorizationServerUrl).href;
    const unsafe = insecureEndpointReason('token', tokenUrl);
    if (unsafe) throw fail(unsafe);
    const server: McpGrantServer = {
      authorizationServerUrl,
      issuer: metadata?.issuer ?? authorizationServerUrl,
      resource: resourceMetadata ? new URL(resourceMetadata.resource) : ownResource,
    };
    if (metadata) server.metadata = metadata;
    if (resourceMetadata?.scopes_supported) server.scopesSupported = resourceMetadata.scopes_supported;
    return server;
  }
}

/**
 * The transport's {@link AuthProvider} for a token that needs nobody's consent (the app's, or a user's
 * by cross-app access): every request carries it while it lives (none at first, or once past its
 * `expires_in`); a `401` gets a new one ({@link McpGrantTokenProvider.requestToken}) and the transport
 * sends the request once more; a `403 insufficient_scope` gets one for the wider scope and the request
 * is sent once more ({@link McpGrantTokenProvider.stepUpFetch}). The token lives in memory only.
 */
export abstract class McpGrantTokenProvider implements AuthProvider {
  private current?: { accessToken: string; expiresAt?: number; scope?: string };
  /** Every scope asked for so far (a refresh keeps a step-up's scopes). */
  private asked?: string;
  private obtaining?: Promise<void>;

  constructor(protected readonly secrets: McpGrantSecrets) {}

  /** The token while it lives; implements {@link AuthProvider.token}. */
  token(): Promise<string | undefined> {
    const current = this.current;
    return Promise.resolve(current && (current.expiresAt === undefined || current.expiresAt > Date.now()) ? current.accessToken : undefined);
  }

  /** The server refused a request: get a new token (requests refused while one is asked for share it). */
  onUnauthorized(context: Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0]): Promise<void> {
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(context.response);
    return this.renew(resourceMetadataUrl, computeScopeUnion(this.asked, scope));
  }

  /**
   * `fetchImpl` for the transport, with step-up: a request the server refuses with `403` and
   * `error="insufficient_scope"` is sent once more. When the union of the scopes asked and granted so far
   * and the ones the `WWW-Authenticate` names adds a scope, it goes with a new token for that union (calls
   * refused while one is asked for wait for it); when it adds none but the request carried an older token
   * than the current one (another call stepped up meanwhile), it goes with the current token. Otherwise,
   * or when the server refuses it again, the `403` goes back to the transport as it came (its
   * InsufficientScopeError is `MCP_AUTHORIZATION_FAILED`); a token request that fails is that failure.
   */
  stepUpFetch(fetchImpl: typeof fetch): typeof fetch {
    return async (input, init) => {
      const response = await fetchImpl(input, init);
      if (response.status !== 403) return response;
      const { error, scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
      if (error !== 'insufficient_scope') return response;
      // A step-up under way (another call's): its token may be the one this call needs.
      if (this.obtaining) await this.obtaining;
      const had = computeScopeUnion(this.asked, this.current?.scope);
      const wanted = computeScopeUnion(had, scope);
      const sentWith = new Headers(init?.headers).get('authorization');
      if (wanted && isStrictScopeSuperset(wanted, had)) {
        await response.body?.cancel().catch(() => undefined);
        await this.renew(resourceMetadataUrl, wanted);
      } else {
        const current = await this.token();
        if (!current || sentWith === `Bearer ${current}`) return response;
        await response.body?.cancel().catch(() => undefined);
      }
      const headers = new Headers(init?.headers);
      const token = await this.token();
      if (token) headers.set('authorization', `Bearer ${token}`);
      return fetchImpl(input, { ...init, headers });
    };
  }

  /** Asks the authorization server for a token (after discovery), for the challenge's `resource_metadata` and `scope`. */
  protected abstract requestToken(resourceMetadataUrl: URL | undefined, challengeScope: string | undefined): Promise<OAuthTokens>;

  /** A new token for `scope`; requests refused while one is asked for share it. */
  private renew(resourceMetadataUrl: URL | undefined, scope: string | undefined): Promise<void> {
    this.obtaining ??= this.obtain(resourceMetadataUrl, scope).finally(() => {
      this.obtaining = undefined;
    });
    return this.obtaining;
  }

  private async obtain(resourceMetadataUrl: URL | undefined, challengeScope: string | undefined): Promise<void> {
    this.current = undefined;
    const tokens = await this.requestToken(resourceMetadataUrl, challengeScope);
    this.secrets.add(tokens.access_token);
    this.asked = computeScopeUnion(this.asked, challengeScope);
    this.current = { accessToken: tokens.access_token };
    if (tokens.scope !== undefined) this.current.scope = tokens.scope;
    if (tokens.expires_in !== undefined) this.current.expiresAt = Date.now() + tokens.expires_in * 1000;
  }
}
