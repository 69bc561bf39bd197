import { createHash } from 'node:crypto';
import { endpointOf } from '../errors/endpoint-of';
import type { AuthCredential } from './auth-credential';

/**
 * How a protected API authenticates its caller: an API key, an HTTP bearer token or basic credentials,
 * OAuth2 (authorization code with PKCE, or client credentials), or OpenID Connect (an authorization
 * code flow whose scopes include `openid`).
 */
export type AuthScheme = 'apiKey' | 'httpBearer' | 'httpBasic' | 'oauth2AuthorizationCode' | 'oauth2ClientCredentials' | 'openIdConnect';

/** The OAuth2 / OpenID Connect client of an {@link AuthConfig}: who the app is to the authorization server. */
export interface OAuth2ClientConfig {
  /** The app's client id at the authorization server, sent with every authorization and token request. */
  clientId: string;
  /** Absent for a public client (PKCE alone proves the code's owner). */
  clientSecret?: string;
  /** Where the user signs in and consents (authorization code and OpenID Connect). */
  authorizationUrl?: string;
  /** Where codes, refresh tokens and client credentials become access tokens. */
  tokenUrl: string;
  /** Scopes to request, sent space-separated; `openid` is added for `openIdConnect`. Absent: the server's default scopes. */
  scopes?: string[];
  /** Where the authorization server sends the user back; the client passes that URL to Toolsmith. */
  redirectUri?: string;
  /** Extra query parameters for the authorization URL (e.g. `{ prompt: 'consent' }`). */
  authorizationParams?: Record<string, string>;
  /**
   * The protected resource the token is for (RFC 8707 resource indicator): sent as `resource` on the
   * authorization request and on every token request (code, refresh, client credentials). Absent: not sent.
   */
  resource?: string;
  /**
   * How the client authenticates at the token endpoint: `client_secret_basic` (HTTP Basic header),
   * `client_secret_post` (id and secret in the body) or `none` (public client: the id only).
   * Absent: the id in the body, and the secret too when there is one.
   */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
  /**
   * Deadline of each token request (code exchange, refresh, client credentials), its answer read in
   * full, in milliseconds: past it the request is abandoned and fails like an unreachable endpoint, with
   * cause `AUTH_RESPONSE_TIMEOUT`. Absent: no deadline.
   */
  requestTimeoutMs?: number;
}

/**
 * What a tool needs to call a protected API: the scheme, the OAuth2 client for OAuth2 and OpenID
 * Connect, and optionally a raw credential the app already has (an API key, a token). Credentials
 * obtained for it are stored per app, user and config (see {@link authConfigId}).
 *
 * @example
 * ```ts
 * const calendar: AuthConfig = {
 *   scheme: 'oauth2AuthorizationCode',
 *   oauth2: { clientId: 'toolsmith', authorizationUrl: 'https://id.example/authorize', tokenUrl: 'https://id.example/token',
 *             scopes: ['calendar.read'], redirectUri: 'https://app.example/oauth/callback' },
 * };
 * ```
 */
export interface AuthConfig {
  /** How the API authenticates; decides which credential fields apply and whether the user is sent to an authorization server. */
  scheme: AuthScheme;
  /** A stable name for this config; credentials are stored under it. Default: a hash of the scheme and client. */
  name?: string;
  /** For `oauth2AuthorizationCode`, `oauth2ClientCredentials` and `openIdConnect`. */
  oauth2?: OAuth2ClientConfig;
  /** A credential the app already holds (e.g. an API key from its config): used as is, no user is asked. */
  rawCredential?: AuthCredential;
  /** Set by Toolsmith on the config it sends with a credential request: the URL to open for the user's consent. */
  authUri?: string;
}

/**
 * The stable id credentials for `config` are stored under: its `name`, else a hash of the scheme and
 * the OAuth2 client (id, URLs, sorted scopes). Two configs for the same client and scopes share credentials.
 * For the schemes whose credential the user types in (`apiKey`, `httpBearer`, `httpBasic`), the token URL
 * counts by its origin and path only: their credential is saved under the config the request showed
 * (see {@link publicAuthConfig}), which has no more of it, and must be found under the tool's own.
 */
export function authConfigId(config: AuthConfig): string {
  if (config.name !== undefined && config.name !== '') return config.name;
  const o = config.oauth2;
  const tokenUrl = o?.tokenUrl === undefined ? '' : TYPED_IN_SCHEMES.has(config.scheme) ? endpointOf(o.tokenUrl) : o.tokenUrl;
  const identity = [config.scheme, o?.clientId ?? '', o?.authorizationUrl ?? '', tokenUrl, [...(o?.scopes ?? [])].sort().join(' ')];
  return `${config.scheme}:${createHash('sha256').update(JSON.stringify(identity)).digest('base64url').slice(0, 22)}`;
}

/** The schemes whose credential the user types in (an answer's `credential`), saved under the config the request showed. */
const TYPED_IN_SCHEMES: ReadonlySet<AuthScheme> = new Set<AuthScheme>(['apiKey', 'httpBearer', 'httpBasic']);

/** True for the schemes where the user is sent to an authorization server (and answers with a redirect URL). */
export function isAuthorizationCodeScheme(scheme: AuthScheme): boolean {
  return scheme === 'oauth2AuthorizationCode' || scheme === 'openIdConnect';
}

/**
 * The members of `oauth2` a client may see (an allow-list: a member the type does not name, such as a
 * `client_secret` or `privateKey` an app put there, is never copied). `tokenUrl` is shown by
 * {@link endpointOf} (origin and path).
 */
const PUBLIC_OAUTH2_MEMBERS = ['clientId', 'authorizationUrl', 'tokenUrl', 'scopes', 'redirectUri', 'authorizationParams', 'resource', 'tokenEndpointAuthMethod', 'requestTimeoutMs'] as const;

/**
 * The config as a client may see it: its scheme, name and `authUri`, and of `oauth2` only the client id,
 * the authorization URL, the scopes, the redirect URI, the authorization parameters, the resource, the
 * token endpoint auth method, the request timeout and the token URL's origin and path (never its query or user info). No client secret, no raw credential and no
 * member the types do not name. This is what a `toolsmith_request_credential` call carries (plus the `authUri`).
 */
export function publicAuthConfig(config: AuthConfig): AuthConfig {
  const shown: AuthConfig = { scheme: config.scheme };
  if (config.name !== undefined) shown.name = config.name;
  const client = config.oauth2;
  if (client) {
    const copied: Record<string, unknown> = {};
    for (const member of PUBLIC_OAUTH2_MEMBERS) {
      const value = client[member];
      if (value !== undefined) copied[member] = member === 'tokenUrl' ? endpointOf(value as string) : value;
    }
    shown.oauth2 = copied as unknown as OAuth2ClientConfig;
  }
  if (config.authUri !== undefined) shown.authUri = config.authUri;
  return shown;
}
