import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Options of {@link startOAuth2TestServer}. */
export interface OAuth2TestServerOptions {
  /** The one registered client. Default: `{ clientId: 'toolsmith-test', clientSecret: 'test-secret' }`. */
  clientId?: string;
  /** The client's secret; default `test-secret`. Token requests without a secret are accepted too (a public client). */
  clientSecret?: string;
  /** The user who consents on `/authorize` (no login page): tokens are issued for this subject. Default `alice`. */
  subject?: string;
  /** Seconds an access token lives (`expires_in`). Default 3600. */
  accessTokenLifetime?: number;
  /**
   * Awaited before a refresh request is answered: a barrier for tests of concurrent refreshes
   * (e.g. a deferred promise resolved once every call has asked for the token).
   */
  beforeRefresh?: () => Promise<void>;
  /**
   * Token responses carry no `scope` (RFC 6749 §5.1 lets a server omit it when it granted what was
   * requested). Default `false`: `scope` is always sent.
   */
  omitScope?: boolean;
  /**
   * Serves dynamic client registration (RFC 7591) at `<url>/register`, listed as `registration_endpoint`
   * in the metadata: each registration gets a new client id and secret. Default `false`.
   */
  dynamicRegistration?: boolean;
  /**
   * Accepts the jwt-bearer grant (RFC 7523; cross-app access sends an ID-JAG with it): `verify` gives the
   * user the `assertion` speaks for, or `undefined` to refuse it (`invalid_grant`); the token is issued
   * for that user, with the requested scope and `resource`. Listed in the metadata's
   * `grant_types_supported` when set. Default: not accepted.
   */
  jwtBearer?: (assertion: string) => string | undefined;
}

/** A token request as the server received it (see {@link OAuth2TestServer.tokenRequestLog}). */
export interface ReceivedTokenRequest {
  /** The `grant_type`. */
  grantType: string;
  /** The client id it named (in the Basic header or the body). */
  clientId: string | undefined;
  /** How the client authenticated: `client_secret_basic`, `client_secret_post`, or `none` (no secret). */
  clientAuth: 'client_secret_basic' | 'client_secret_post' | 'none';
  /** The RFC 8707 `resource` parameter, when sent. */
  resource?: string;
}

/** An access token the server issued, as the protected API sees it. */
export interface IssuedToken {
  /** Whom the token is for: the consenting `subject` option, the client id for client credentials, or the jwt-bearer assertion's user. */
  subject: string;
  /** The scopes granted, space-separated as requested (`''` when none were). */
  scope: string;
  /** The client the token was issued to. */
  clientId: string;
  /** The RFC 8707 resource the token is for (the `resource` of the authorization or token request), when one was named. */
  resource?: string;
}

/**
 * A small OAuth2 authorization server for tests, on node:http: authorization code with PKCE (S256
 * only, verified at the token endpoint), refresh tokens (rotated), client credentials, the jwt-bearer
 * grant (with `jwtBearer`), revocation
 * (RFC 7009), server metadata (RFC 8414), and a protected API at `/api/me` that answers 401 without a
 * valid bearer token. `/authorize` consents at once and redirects with `code` and `state`.
 */
export interface OAuth2TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `<url>/authorize`: consents at once and redirects to `redirect_uri` with `code` and `state`. */
  readonly authorizationUrl: string;
  /** `<url>/token`: authorization code (PKCE checked), refresh token and client credentials grants. */
  readonly tokenUrl: string;
  /** `<url>/revoke` (RFC 7009): revoking a refresh token also revokes the access tokens issued with it. */
  readonly revocationUrl: string;
  /** The protected API: GET with `Authorization: Bearer <token>` → `{ subject, scope }`. */
  readonly apiUrl: string;
  /** The one registered client's id (the `clientId` option, default `toolsmith-test`). */
  readonly clientId: string;
  /** That client's secret (the `clientSecret` option, default `test-secret`). */
  readonly clientSecret: string;
  /** Token requests received, by grant type. */
  readonly tokenRequests: Record<string, number>;
  /** Every token request received, in order: grant type, client, client authentication and `resource`. */
  readonly tokenRequestLog: ReceivedTokenRequest[];
  /** The client metadata of every dynamic registration received, in order (see `dynamicRegistration`). */
  readonly registrations: Array<Record<string, unknown>>;
  /** Requests to the protected API, with the bearer token each carried (or `undefined`). */
  readonly apiCalls: Array<string | undefined>;
  /** The token's facts when it is a live access token, else `undefined`. */
  introspect(accessToken: string): IssuedToken | undefined;
  /** Makes every access token issued so far expired (refresh tokens stay valid). */
  expireAccessTokens(): void;
  /** Revokes every refresh token issued so far (and their access tokens). */
  revokeRefreshTokens(): void;
  /** Stops the server, dropping open connections; resolves once it is closed. */
  close(): Promise<void>;
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

interface CodeGrant {
  clientId: string;
  redirectUri: string | undefined;
  scope: string;
  codeChallenge: string;
  resource: string | undefined;
}

/** Starts an {@link OAuth2TestServer} on a free local port. */
export async function startOAuth2TestServer(options: OAuth2TestServerOptions = {}): Promise<OAuth2TestServer> {
  const clientId = options.clientId ?? 'toolsmith-test';
  const clientSecret = options.clientSecret ?? 'test-secret';
  const subject = options.subject ?? 'alice';
  const lifetime = options.accessTokenLifetime ?? 3600;
  const codes = new Map<string, CodeGrant>();
  const accessTokens = new Map<string, IssuedToken & { expiresAt: number; refreshToken?: string }>();
  const refreshTokens = new Map<string, IssuedToken>();
  const tokenRequests: Record<string, number> = {};
  const tokenRequestLog: ReceivedTokenRequest[] = [];
  const registrations: Array<Record<string, unknown>> = [];
  /** Client ids and their secrets: the one configured, then every dynamically registered one. */
  const clients = new Map<string, string>([[clientId, clientSecret]]);
  const apiCalls: Array<string | undefined> = [];
  const sockets = new Set<Socket>();
  let base = '';

  const issue = (token: IssuedToken, withRefresh: boolean) => {
    const accessToken = `at-${randomBytes(16).toString('base64url')}`;
    const refreshToken = withRefresh ? `rt-${randomBytes(16).toString('base64url')}` : undefined;
    accessTokens.set(accessToken, { ...token, expiresAt: Date.now() + lifetime * 1000, refreshToken });
    if (refreshToken) refreshTokens.set(refreshToken, token);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: lifetime,
      ...(options.omitScope ? {} : { scope: token.scope }),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
    };
  };

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
    res.end(JSON.stringify(body));
  };

  const authorize = (url: URL, res: ServerResponse) => {
    const q = (name: string) => url.searchParams.get(name) ?? undefined;
    const redirectUri = q('redirect_uri');
    const client = q('client_id');
    if (client === undefined || !clients.has(client) || !redirectUri) return json(res, 400, { error: 'invalid_request', error_description: 'unknown client or no redirect_uri' });
    const back = new URL(redirectUri);
    const state = q('state');
    if (state !== undefined) back.searchParams.set('state', state);
    if (q('response_type') !== 'code' || q('code_challenge_method') !== 'S256' || !q('code_challenge')) {
      back.searchParams.set('error', 'invalid_request');
    } else {
      const code = `code-${randomBytes(16).toString('base64url')}`;
      codes.set(code, { clientId: client, redirectUri, scope: q('scope') ?? '', codeChallenge: q('code_challenge')!, resource: q('resource') });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  };

  const token = async (form: URLSearchParams, req: IncomingMessage, res: ServerResponse) => {
    const grant = form.get('grant_type') ?? '';
    tokenRequests[grant] = (tokenRequests[grant] ?? 0) + 1;
    const [basicId, basicSecret] = basicAuth(req);
    const id = form.get('client_id') ?? basicId;
    const secret = form.get('client_secret') ?? basicSecret;
    const resource = form.get('resource') ?? undefined;
    const clientAuth = basicSecret !== undefined ? 'client_secret_basic' : form.get('client_secret') !== null ? 'client_secret_post' : 'none';
    tokenRequestLog.push({ grantType: grant, clientId: id, clientAuth, ...(resource !== undefined ? { resource } : {}) });
    if (id === undefined || !clients.has(id) || (secret !== undefined && secret !== clients.get(id))) return json(res, 401, { error: 'invalid_client' });
    if (grant === 'authorization_code') {
      const code = form.get('code') ?? '';
      const granted = codes.get(code);
      codes.delete(code); // one use, even when the request fails
      if (!granted || granted.clientId !== id) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown or used code' });
      if ((form.get('redirect_uri') ?? undefined) !== granted.redirectUri) return json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri differs' });
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== granted.codeChallenge) {
        return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      }
      const audience = resource ?? granted.resource;
      return json(res, 200, issue({ subject, scope: granted.scope, clientId: id, ...(audience !== undefined ? { resource: audience } : {}) }, true));
    }
    if (grant === 'refresh_token') {
      await options.beforeRefresh?.();
      const refreshToken = form.get('refresh_token') ?? '';
      const granted = refreshTokens.get(refreshToken);
      if (!granted || granted.clientId !== id) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown or revoked refresh token' });
      refreshTokens.delete(refreshToken); // rotated: a refresh token works once
      return json(res, 200, issue(granted, true));
    }
    if (grant === 'client_credentials') return json(res, 200, issue({ subject: id, scope: form.get('scope') ?? '', clientId: id }, false));
    if (grant === JWT_BEARER && options.jwtBearer) {
      const user = options.jwtBearer(form.get('assertion') ?? '');
      if (user === undefined) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown assertion' });
      return json(res, 200, issue({ subject: user, scope: form.get('scope') ?? '', clientId: id, ...(resource !== undefined ? { resource } : {}) }, false));
    }
    return json(res, 400, { error: 'unsupported_grant_type' });
  };

  const register = (raw: string, res: ServerResponse) => {
    let metadata: Record<string, unknown>;
    try {
      metadata = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return json(res, 400, { error: 'invalid_client_metadata' });
    }
    registrations.push(metadata);
    const registered = { id: `client-${randomBytes(8).toString('base64url')}`, secret: `secret-${randomBytes(16).toString('base64url')}` };
    clients.set(registered.id, registered.secret);
    const method = typeof metadata.token_endpoint_auth_method === 'string' ? metadata.token_endpoint_auth_method : 'client_secret_basic';
    return json(res, 201, { ...metadata, client_id: registered.id, client_secret: registered.secret, client_id_issued_at: Math.floor(Date.now() / 1000), token_endpoint_auth_method: method });
  };

  const revoke = (form: URLSearchParams, res: ServerResponse) => {
    const tokenValue = form.get('token') ?? '';
    refreshTokens.delete(tokenValue);
    accessTokens.delete(tokenValue);
    for (const [access, facts] of accessTokens) if (facts.refreshToken === tokenValue) accessTokens.delete(access);
    res.writeHead(200);
    res.end();
  };

  const live = (accessToken: string | undefined) => {
    const facts = accessToken ? accessTokens.get(accessToken) : undefined;
    return facts && facts.expiresAt > Date.now() ? facts : undefined;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const form = new URLSearchParams(raw);
      const route = `${req.method} ${url.pathname}`;
      const handle = async () => {
        if (route === 'GET /authorize') return authorize(url, res);
        if (route === 'POST /token') return token(form, req, res);
        if (route === 'POST /revoke') return revoke(form, res);
        if (route === 'POST /register' && options.dynamicRegistration) return register(raw, res);
        if (route === 'GET /.well-known/oauth-authorization-server') {
          return json(res, 200, {
            issuer: base,
            authorization_endpoint: `${base}/authorize`,
            token_endpoint: `${base}/token`,
            revocation_endpoint: `${base}/revoke`,
            response_types_supported: ['code'],
            grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', ...(options.jwtBearer ? [JWT_BEARER] : [])],
            code_challenge_methods_supported: ['S256'],
            token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
            ...(options.dynamicRegistration ? { registration_endpoint: `${base}/register` } : {}),
          });
        }
        if (url.pathname === '/api/me') {
          const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
          apiCalls.push(bearer);
          const facts = live(bearer);
          if (!facts) return json(res, 401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
          return json(res, 200, { subject: facts.subject, scope: facts.scope });
        }
        return json(res, 404, { error: 'not_found' });
      };
      handle().catch((error: unknown) => json(res, 500, { error: 'server_error', error_description: String(error) }));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    authorizationUrl: `${base}/authorize`,
    tokenUrl: `${base}/token`,
    revocationUrl: `${base}/revoke`,
    apiUrl: `${base}/api/me`,
    clientId,
    clientSecret,
    tokenRequests,
    tokenRequestLog,
    registrations,
    apiCalls,
    introspect: (accessToken) => {
      const facts = live(accessToken);
      if (!facts) return undefined;
      return { subject: facts.subject, scope: facts.scope, clientId: facts.clientId, ...(facts.resource !== undefined ? { resource: facts.resource } : {}) };
    },
    expireAccessTokens: () => {
      for (const facts of accessTokens.values()) facts.expiresAt = 0;
    },
    revokeRefreshTokens: () => {
      refreshTokens.clear();
      accessTokens.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function basicAuth(req: IncomingMessage): [string | undefined, string | undefined] {
  const encoded = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!encoded) return [undefined, undefined];
  const [id, secret] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
  return [decodeURIComponent(id ?? ''), decodeURIComponent(secret ?? '')];
}
