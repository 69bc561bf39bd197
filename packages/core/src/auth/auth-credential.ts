/**
 * A credential for one {@link AuthConfig}: what a tool puts on its request. Which fields are set
 * depends on the scheme: `apiKey`; `token` (bearer); `username` and `password` (basic); `accessToken`
 * with `refreshToken`, `expiresAt` and `idToken` (OAuth2 and OpenID Connect).
 */
export interface AuthCredential {
  /** An API key (`apiKey` scheme); the tool sends it wherever its API expects one (header or query). */
  apiKey?: string;
  /** An HTTP bearer token given as is (not obtained through OAuth2). */
  token?: string;
  /** The user name of HTTP basic credentials. */
  username?: string;
  /** The password of HTTP basic credentials. */
  password?: string;
  /** The OAuth2 / OpenID Connect access token; once it expires (see `expiresAt`), Toolsmith renews it or asks the user again. */
  accessToken?: string;
  /** The OAuth2 refresh token, used to renew an expired `accessToken`; kept over a refresh when the server does not rotate it. */
  refreshToken?: string;
  /** Token type from the token endpoint, usually `Bearer`. */
  tokenType?: string;
  /** Milliseconds since the epoch when `accessToken` expires; absent when the server did not say. */
  expiresAt?: number;
  /** The OpenID Connect ID token. */
  idToken?: string;
  /** The scopes the server granted, space-separated. */
  scope?: string;
}

/**
 * True when an OAuth2 access token expires within `skewMs` (default 30 s): it is refreshed before use,
 * so a call never starts with a token that dies on the way.
 */
export function isCredentialExpired(credential: AuthCredential, now: number = Date.now(), skewMs = 30_000): boolean {
  return credential.expiresAt !== undefined && credential.expiresAt - skewMs <= now;
}

/** @internal Every string value of `credential` but `tokenType` and `scope`: what must never be shown of it. */
export function credentialValues(credential: AuthCredential): string[] {
  const values: string[] = [];
  for (const [field, value] of Object.entries(credential)) if (typeof value === 'string' && field !== 'tokenType' && field !== 'scope') values.push(value);
  return values;
}
