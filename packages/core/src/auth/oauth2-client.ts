import { createHash, randomBytes } from 'node:crypto';
import { endpointOf } from '../errors/endpoint-of';
import { AuthConfigInvalidError, ResponseTimeoutError, ResponseTooLargeError, TokenRequestError } from '../errors/auth-errors';
import type { AuthConfig, OAuth2ClientConfig } from './auth-config';
import { redactKnownSecrets } from '../redaction/secret-redaction';
import type { AuthCredential } from './auth-credential';
import { MAX_AUTH_RESPONSE_BYTES, limitResponseBodies } from './limit-response-bodies';
import { limitResponseTime } from './limit-response-time';
import { requestTimeoutProblem } from './request-timeout-problem';

/** A PKCE pair (RFC 7636): the verifier stays on the server, the S256 challenge goes in the authorization URL. */
export interface Pkce {
  codeVerifier: string;
  codeChallenge: string;
}

/** A fresh PKCE verifier (32 random bytes) and its S256 challenge. */
export function createPkce(): Pkce {
  const codeVerifier = randomBytes(32).toString('base64url');
  return { codeVerifier, codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url') };
}

/** A fresh `state` value: 24 random bytes, unguessable. */
export function createState(): string {
  return randomBytes(24).toString('base64url');
}

/** The OAuth2 client of `config`, checked to have what `needs` lists. */
export function oauth2Client(config: AuthConfig, needs: { authorizationUrl?: boolean } = {}): OAuth2ClientConfig {
  const client = config.oauth2;
  if (!client) throw new AuthConfigInvalidError(`scheme "${config.scheme}" needs "oauth2"`);
  if (!client.clientId) throw new AuthConfigInvalidError('"oauth2.clientId" is missing');
  if (!client.tokenUrl) throw new AuthConfigInvalidError('"oauth2.tokenUrl" is missing');
  if (hasUserInfo(client.tokenUrl)) {
    throw new AuthConfigInvalidError(
      `"oauth2.tokenUrl" (${endpointOf(client.tokenUrl)}) has a user name or password, which no token request can send`,
      'authenticate the client with "clientSecret" (and "tokenEndpointAuthMethod"), and give the token URL without user info',
    );
  }
  if (needs.authorizationUrl && !client.authorizationUrl) throw new AuthConfigInvalidError('"oauth2.authorizationUrl" is missing');
  const timeoutProblem = requestTimeoutProblem(client.requestTimeoutMs);
  if (timeoutProblem) throw new AuthConfigInvalidError(`"oauth2.requestTimeoutMs" ${timeoutProblem}`, 'give "oauth2.requestTimeoutMs" a number of milliseconds in that range, or leave it out for no deadline');
  return client;
}

/** True when `url` is a URL with a user name or password (`https://id:secret@host/token`). */
function hasUserInfo(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}

/** The scopes an authorization request for `config` asks for: its `scopes`, with `openid` first for OpenID Connect. */
export function requestedScopes(config: AuthConfig): string[] {
  const scopes = [...(config.oauth2?.scopes ?? [])];
  if (config.scheme === 'openIdConnect' && !scopes.includes('openid')) scopes.unshift('openid');
  return scopes;
}

/** The URL the user opens to authorize: response_type=code with client id, redirect URI, scopes, state and the S256 challenge. */
export function buildAuthorizationUrl(config: AuthConfig, state: string, codeChallenge: string): string {
  const client = oauth2Client(config, { authorizationUrl: true });
  const url = new URL(client.authorizationUrl!);
  const scopes = requestedScopes(config);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  if (client.redirectUri) url.searchParams.set('redirect_uri', client.redirectUri);
  if (scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  if (client.resource !== undefined) url.searchParams.set('resource', client.resource);
  for (const [name, value] of Object.entries(client.authorizationParams ?? {})) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * Posts a token request (form-encoded; the client authenticated as its `tokenEndpointAuthMethod` says,
 * the `resource` indicator added when the client has one) and turns the answer into a credential. A
 * non-2xx answer, a body without `access_token` or one over `MAX_AUTH_RESPONSE_BYTES` (not read past it)
 * is a {@link TokenRequestError}; so is a request not over, its answer read in full, within the client's
 * `requestTimeoutMs` (no status, as if unreachable; the cause is a `ResponseTimeoutError`). Whatever of the answer goes into that error (the server's `error` and
 * `error_description`) has every secret the request sent (client secret, `Basic` header, code, PKCE verifier,
 * refresh token, assertion) redacted, in any of the forms a server may echo it in (see `redactKnownSecrets`).
 */
export async function requestToken(client: OAuth2ClientConfig, params: Record<string, string>, fetchImpl: typeof fetch = fetch): Promise<AuthCredential> {
  const body = new URLSearchParams(params);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const secrets = [client.clientSecret, params.code, params.code_verifier, params.refresh_token, params.client_assertion, params.assertion, params.subject_token, params.password];
  if (client.tokenEndpointAuthMethod === 'client_secret_basic' && client.clientSecret) {
    // RFC 6749 §2.3.1: id and secret form-urlencoded, then base64 as user:password.
    const user = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(user).toString('base64')}`;
    secrets.push(user, encodeURIComponent(client.clientSecret));
  } else {
    body.set('client_id', client.clientId);
    if (client.clientSecret && client.tokenEndpointAuthMethod !== 'none') body.set('client_secret', client.clientSecret);
  }
  if (client.resource !== undefined) body.set('resource', client.resource);
  const grantType = params.grant_type;
  let response: Response;
  try {
    const limited = limitResponseBodies(fetchImpl, MAX_AUTH_RESPONSE_BYTES);
    const fetchFn = client.requestTimeoutMs === undefined ? limited : limitResponseTime(limited, client.requestTimeoutMs);
    response = await fetchFn(client.tokenUrl, { method: 'POST', headers, body });
  } catch (cause) {
    throw new TokenRequestError(client.tokenUrl, grantType, undefined, undefined, { cause, ...(cause instanceof ResponseTimeoutError ? { description: cause.message } : {}) });
  }
  let json: Record<string, unknown> = {};
  try {
    const parsed: unknown = await response.json();
    if (typeof parsed === 'object' && parsed !== null) json = parsed as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ResponseTooLargeError) throw new TokenRequestError(client.tokenUrl, grantType, response.status, undefined, { description: error.message, cause: error });
    // Out of time while reading the answer: as if unreachable (a refresh keeps the credential).
    if (error instanceof ResponseTimeoutError) throw new TokenRequestError(client.tokenUrl, grantType, undefined, undefined, { description: error.message, cause: error });
    // Not JSON: reported below by status or as a missing access_token.
  }
  const text = (key: string) => (typeof json[key] === 'string' ? (json[key] as string) : undefined);
  if (!response.ok || text('access_token') === undefined) {
    // The server's text is stored and shown: it must not carry back what the request sent.
    const shown = (value: string | undefined) => (value === undefined ? undefined : redactKnownSecrets(value, secrets));
    throw new TokenRequestError(client.tokenUrl, grantType, response.status, shown(text('error')) ?? (response.ok ? 'no access_token' : undefined), {
      description: shown(text('error_description')),
    });
  }
  const credential: AuthCredential = { accessToken: text('access_token'), tokenType: text('token_type') ?? 'Bearer' };
  const refreshToken = text('refresh_token');
  if (refreshToken) credential.refreshToken = refreshToken;
  if (typeof json.expires_in === 'number' && Number.isFinite(json.expires_in)) credential.expiresAt = Date.now() + json.expires_in * 1000;
  const idToken = text('id_token');
  if (idToken) credential.idToken = idToken;
  const scope = text('scope');
  if (scope) credential.scope = scope;
  return credential;
}

/** The `code` and `state` (or the server's `error`) of the URL the authorization server redirected the user to. */
export function parseRedirectUrl(redirectUrl: string): { code?: string; state?: string; error?: string } | undefined {
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch {
    return undefined;
  }
  const read = (name: string) => url.searchParams.get(name) ?? undefined;
  return { code: read('code'), state: read('state'), error: read('error') };
}
