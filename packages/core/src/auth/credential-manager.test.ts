import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type OAuth2TestServer, startOAuth2TestServer } from '../testing/oauth2-test-server';
import { type AuthConfig, authConfigId, publicAuthConfig } from './auth-config';
import type { AuthCredential } from './auth-credential';
import { CredentialManager, credentialKey } from './credential-manager';
import { type CredentialKey, PENDING_AUTHORIZATION_TTL_MS } from './credential-service';
import { InMemoryCredentialService } from './in-memory-credential-service';
import { buildAuthorizationUrl, parseRedirectUrl, requestToken } from './oauth2-client';

let server: OAuth2TestServer;
beforeEach(async () => {
  server = await startOAuth2TestServer();
});
afterEach(() => server.close());

const alice = { appName: 'app', userId: 'alice' };
const codeFlow = (overrides: Partial<AuthConfig> = {}): AuthConfig => ({
  scheme: 'oauth2AuthorizationCode',
  oauth2: { clientId: server.clientId, clientSecret: server.clientSecret, authorizationUrl: server.authorizationUrl, tokenUrl: server.tokenUrl, redirectUri: 'https://app.example/cb', scopes: ['b', 'a'] },
  ...overrides,
});

async function codeFor(authUri: string): Promise<{ code: string; state: string }> {
  const location = (await fetch(authUri, { redirect: 'manual' })).headers.get('location')!;
  const { code, state } = parseRedirectUrl(location)!;
  return { code: code!, state: state! };
}

describe('the OAuth2 client', () => {
  it('builds the authorization URL: S256 challenge, state, scopes (openid added for OpenID Connect), extra parameters', () => {
    const url = new URL(buildAuthorizationUrl({ ...codeFlow(), scheme: 'openIdConnect', oauth2: { ...codeFlow().oauth2!, authorizationParams: { prompt: 'consent' } } }, 'st', 'ch'));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: server.clientId,
      redirect_uri: 'https://app.example/cb',
      scope: 'openid b a',
      state: 'st',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
      prompt: 'consent',
    });
    expect(() => buildAuthorizationUrl({ scheme: 'oauth2AuthorizationCode', oauth2: { clientId: 'c', tokenUrl: server.tokenUrl } }, 's', 'c')).toThrow(
      expect.objectContaining({ code: 'AUTH_CONFIG_INVALID' }),
    );
  });

  it('reports token endpoint failures as AUTH_TOKEN_REQUEST_FAILED with the server error code, or no status when unreachable', async () => {
    const client = codeFlow().oauth2!;
    await expect(requestToken(client, { grant_type: 'authorization_code', code: 'nope', code_verifier: 'v' })).rejects.toMatchObject({
      code: 'AUTH_TOKEN_REQUEST_FAILED',
      status: 400,
      oauthError: 'invalid_grant',
    });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(requestToken({ ...client, tokenUrl: `http://127.0.0.1:${port}/token` }, { grant_type: 'client_credentials' })).rejects.toMatchObject({
      code: 'AUTH_TOKEN_REQUEST_FAILED',
      status: undefined,
    });
  });
  it('sends the RFC 8707 resource on authorization and token requests, and authenticates the client as its tokenEndpointAuthMethod says', async () => {
    const seen: Array<{ authorization?: string; body: Record<string, string> }> = [];
    const tokens = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        seen.push({ authorization: req.headers.authorization, body: Object.fromEntries(new URLSearchParams(raw)) });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ access_token: 'at', token_type: 'Bearer' }));
      });
    });
    await new Promise<void>((resolve) => tokens.listen(0, '127.0.0.1', resolve));
    const tokenUrl = `http://127.0.0.1:${(tokens.address() as AddressInfo).port}/token`;
    try {
      const client = { ...codeFlow().oauth2!, clientId: 'id:1', clientSecret: 's&2', tokenUrl, resource: 'https://mcp.example/mcp' };
      expect(new URL(buildAuthorizationUrl({ scheme: 'oauth2AuthorizationCode', oauth2: client }, 'st', 'ch')).searchParams.get('resource')).toBe('https://mcp.example/mcp');
      for (const method of ['client_secret_basic', 'client_secret_post', 'none'] as const) {
        await requestToken({ ...client, tokenEndpointAuthMethod: method }, { grant_type: 'refresh_token', refresh_token: 'rt' });
      }
      expect(seen).toEqual([
        { authorization: `Basic ${Buffer.from('id%3A1:s%262').toString('base64')}`, body: { grant_type: 'refresh_token', refresh_token: 'rt', resource: 'https://mcp.example/mcp' } },
        { body: { grant_type: 'refresh_token', refresh_token: 'rt', client_id: 'id:1', client_secret: 's&2', resource: 'https://mcp.example/mcp' } },
        { body: { grant_type: 'refresh_token', refresh_token: 'rt', client_id: 'id:1', resource: 'https://mcp.example/mcp' } },
      ]);
    } finally {
      await new Promise<void>((resolve) => tokens.close(() => resolve()));
    }
  });
});

describe('publicAuthConfig', () => {
  it('copies of oauth2 only the members a client may see, and the token URL by origin and path', () => {
    const config = {
      scheme: 'oauth2AuthorizationCode',
      name: 'cal',
      rawCredential: { apiKey: 'RAW-1111' },
      oauth2: {
        clientId: 'c', clientSecret: 'cs-secret', authorizationUrl: 'https://id.example/a', tokenUrl: 'https://id.example/t?k=QUERY-2222#f',
        scopes: ['x'], redirectUri: 'https://app.example/cb', authorizationParams: { prompt: 'consent' }, resource: 'https://api.example/',
        tokenEndpointAuthMethod: 'client_secret_basic', requestTimeoutMs: 5_000, client_secret: 'EXTRA-3333', privateKey: 'PRIVKEY-4444',
      },
    } as unknown as AuthConfig;
    expect(publicAuthConfig(config)).toEqual({
      scheme: 'oauth2AuthorizationCode',
      name: 'cal',
      oauth2: {
        clientId: 'c', authorizationUrl: 'https://id.example/a', tokenUrl: 'https://id.example/t',
        scopes: ['x'], redirectUri: 'https://app.example/cb', authorizationParams: { prompt: 'consent' }, resource: 'https://api.example/',
        tokenEndpointAuthMethod: 'client_secret_basic', requestTimeoutMs: 5_000,
      },
    });
  });
});

describe('a token URL with user info', () => {
  it.each([
    ['client credentials', { scheme: 'oauth2ClientCredentials' } as const],
    ['authorization code', { scheme: 'oauth2AuthorizationCode' } as const],
  ])('is refused before any request (%s): AUTH_CONFIG_INVALID, naming the URL without it', async (_label, { scheme }) => {
    const manager = new CredentialManager(new InMemoryCredentialService());
    const tokenUrl = new URL(server.tokenUrl);
    tokenUrl.username = 'id';
    tokenUrl.password = 'URLPASSWORD-77aa';
    const config: AuthConfig = { scheme, oauth2: { ...codeFlow().oauth2!, tokenUrl: tokenUrl.href } };
    const attempt = scheme === 'oauth2ClientCredentials' ? manager.current(alice, config) : manager.begin(alice, config);
    const error = await attempt.then(() => undefined, (thrown: unknown) => thrown as Error & { code: string });
    expect(error).toMatchObject({ code: 'AUTH_CONFIG_INVALID', message: expect.stringContaining(`"oauth2.tokenUrl" (${server.tokenUrl}) has a user name or password`) });
    expect(JSON.stringify({ message: error!.message, stack: error!.stack })).not.toContain('URLPASSWORD-77aa');
    expect(server.tokenRequests).toEqual({});
  });
});

describe('CredentialManager', () => {
  it('keeps the PKCE verifier and client secret out of what it returns, and exchanges the code once', async () => {
    const service = new InMemoryCredentialService();
    const manager = new CredentialManager(service);
    const record = await manager.begin(alice, codeFlow());
    expect(JSON.stringify(record)).not.toContain(server.clientSecret);
    expect(record.authConfig).toEqual(publicAuthConfig({ ...codeFlow(), authUri: record.authConfig.authUri }));
    const { code, state } = await codeFor(record.authConfig.authUri!);
    expect(state).toBe(record.state);

    expect(await manager.completeCode({ appName: 'app', userId: 'mallory' }, code, state)).toBeUndefined(); // another user's state: not exchanged, and spent
    expect(server.tokenRequests).toEqual({});

    const second = await manager.begin(alice, codeFlow());
    const answer = await codeFor(second.authConfig.authUri!);
    const credential = await manager.completeCode(alice, answer.code, answer.state);
    expect(server.introspect(credential!.accessToken!)).toMatchObject({ subject: 'alice', scope: 'b a' });
    expect(await manager.completeCode(alice, answer.code, answer.state)).toBeUndefined();
    expect(await manager.current(alice, codeFlow())).toEqual(credential);
  });

  it('forgets an expired token that has no refresh token (the user is asked again), and uses a raw credential as is', async () => {
    const service = new InMemoryCredentialService();
    const manager = new CredentialManager(service);
    const key = credentialKey(alice, codeFlow());
    await service.saveCredential(key, { accessToken: 'old', expiresAt: Date.now() - 1 });
    expect(await manager.current(alice, codeFlow())).toBeUndefined();
    expect(await service.loadCredential(key)).toBeUndefined();
    expect(await manager.current(alice, { scheme: 'apiKey', rawCredential: { apiKey: 'k' } })).toEqual({ apiKey: 'k' });
  });

  describe('with a service that serializes updates (several processes)', () => {
    /** An in-memory service with updateCredential, where a "process" can act while the lock is waited for. */
    class LockingService extends InMemoryCredentialService {
      beforeUpdate: () => Promise<void> = async () => undefined;
      async updateCredential(key: CredentialKey, update: (current: AuthCredential | undefined) => Promise<AuthCredential | undefined>) {
        await this.beforeUpdate();
        const current = await this.loadCredential(key);
        const next = await update(current);
        if (next === current) return current;
        if (next) await this.saveCredential(key, next);
        else await this.deleteCredential(key);
        return next;
      }
    }

    async function expiredCredential(service: LockingService): Promise<CredentialKey> {
      const manager = new CredentialManager(service);
      const record = await manager.begin(alice, codeFlow());
      const { code, state } = await codeFor(record.authConfig.authUri!);
      const credential = (await manager.completeCode(alice, code, state))!;
      const key = credentialKey(alice, codeFlow());
      await service.saveCredential(key, { ...credential, expiresAt: Date.now() - 1 });
      return key;
    }

    it('refreshes through it, rotating the refresh token', async () => {
      const service = new LockingService();
      const key = await expiredCredential(service);
      const before = (await service.loadCredential(key))!;
      const refreshed = await new CredentialManager(service).current(alice, codeFlow());
      expect(server.tokenRequests.refresh_token).toBe(1);
      expect(refreshed!.refreshToken).not.toBe(before.refreshToken);
      expect(await service.loadCredential(key)).toEqual(refreshed);
    });

    it('sends no refresh when another process refreshed while this one waited, and asks again when its refresh failed', async () => {
      const service = new LockingService();
      const key = await expiredCredential(service);
      const other = { accessToken: 'from-the-other-process', refreshToken: 'rt', expiresAt: Date.now() + 3_600_000 };
      service.beforeUpdate = () => service.saveCredential(key, other);
      expect(await new CredentialManager(service).current(alice, codeFlow())).toEqual(other);

      await service.saveCredential(key, { ...other, expiresAt: Date.now() - 1 });
      service.beforeUpdate = () => service.deleteCredential(key);
      expect(await new CredentialManager(service).current(alice, codeFlow())).toBeUndefined();
      expect(server.tokenRequests.refresh_token).toBeUndefined();
    });

    it('forgets the credential when the server refuses the refresh token', async () => {
      const service = new LockingService();
      const key = await expiredCredential(service);
      server.revokeRefreshTokens();
      expect(await new CredentialManager(service).current(alice, codeFlow())).toBeUndefined();
      expect(await service.loadCredential(key)).toBeUndefined();
    });
  });

  it('names credentials by config name, else by scheme, client and sorted scopes', () => {
    expect(authConfigId({ scheme: 'apiKey', name: 'weather' })).toBe('weather');
    const a = authConfigId(codeFlow());
    expect(authConfigId({ ...codeFlow(), oauth2: { ...codeFlow().oauth2!, scopes: ['a', 'b'], clientSecret: 'other' } })).toBe(a);
    expect(authConfigId({ ...codeFlow(), oauth2: { ...codeFlow().oauth2!, scopes: ['a'] } })).not.toBe(a);
  });
});

describe('CredentialManager refreshes', () => {
  /** A real token endpoint in front of the test server: answers `failWith` (a status, or a dropped connection), else forwards. */
  async function flakyTokenEndpoint(): Promise<{ url: string; failWith: number | 'drop' | undefined; close(): Promise<void> }> {
    const proxy = {
      url: '',
      failWith: undefined as number | 'drop' | undefined,
      close: () => new Promise<void>((resolve) => endpoint.close(() => resolve())),
    };
    const endpoint = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (proxy.failWith === 'drop') return req.socket.destroy();
        if (proxy.failWith !== undefined) {
          res.writeHead(proxy.failWith, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: proxy.failWith === 429 ? 'slow_down' : 'temporarily_unavailable' }));
        }
        void fetch(server.tokenUrl, { method: 'POST', headers: { 'content-type': req.headers['content-type']! }, body: Buffer.concat(chunks) }).then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(await answer.text());
        });
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    proxy.url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/token`;
    return proxy;
  }

  async function signedIn(service: InMemoryCredentialService, config: AuthConfig): Promise<AuthCredential> {
    const manager = new CredentialManager(service);
    const { code, state } = await codeFor((await manager.begin(alice, config)).authConfig.authUri!);
    const credential = (await manager.completeCode(alice, code, state))!;
    const expired = { ...credential, expiresAt: Date.now() - 1 };
    await service.saveCredential(credentialKey(alice, config), expired);
    return expired;
  }

  it('keeps the credential and fails with the retriable AUTH_TOKEN_ENDPOINT_UNAVAILABLE on 5xx, 429 or a network error; refreshes once the endpoint is back', async () => {
    const endpoint = await flakyTokenEndpoint();
    try {
      const config = codeFlow({ oauth2: { ...codeFlow().oauth2!, tokenUrl: endpoint.url } });
      const service = new InMemoryCredentialService();
      const stored = await signedIn(service, config);
      const manager = new CredentialManager(service);
      for (const failure of [503, 500, 429, 'drop'] as const) {
        endpoint.failWith = failure;
        const error = await manager.current(alice, config).catch((thrown: unknown) => thrown);
        expect(error).toMatchObject({ code: 'AUTH_TOKEN_ENDPOINT_UNAVAILABLE', isRetryable: true, status: failure === 'drop' ? undefined : failure });
        expect(await service.loadCredential(credentialKey(alice, config))).toEqual(stored);
      }
      endpoint.failWith = undefined;
      const refreshed = await manager.current(alice, config);
      expect(server.introspect(refreshed!.accessToken!)).toMatchObject({ subject: 'alice' });
      expect(server.tokenRequests.refresh_token).toBe(1);
    } finally {
      await endpoint.close();
    }
  });

  it('a token answer without scope (RFC 6749 §5.1): the code exchange stores the requested scopes, a refresh keeps them, client credentials store theirs', async () => {
    await server.close();
    server = await startOAuth2TestServer({ omitScope: true });
    const service = new InMemoryCredentialService();
    const oidc = codeFlow({ scheme: 'openIdConnect' });
    const stored = await signedIn(service, oidc);
    expect(stored.scope).toBe('openid b a'); // what the authorization URL asked for

    const refreshed = await new CredentialManager(service).current(alice, oidc);

    expect(server.tokenRequests.refresh_token).toBe(1);
    expect(refreshed).toMatchObject({ scope: 'openid b a' });
    const machine: AuthConfig = { scheme: 'oauth2ClientCredentials', oauth2: { clientId: server.clientId, clientSecret: server.clientSecret, tokenUrl: server.tokenUrl, scopes: ['reports'] } };
    expect(await new CredentialManager(service).current(alice, machine)).toMatchObject({ scope: 'reports' });
  });

  it('an endless refresh answer is read up to 1 MiB, the connection dropped: AUTH_TOKEN_REQUEST_FAILED naming the limit, the credential kept', async () => {
    let written: Promise<number> | undefined;
    const endless = createServer((req, res) => {
      req.resume();
      written = new Promise((resolve) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, ' ');
        let sent = 0;
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) sent += chunk.length;
        };
        res.on('drain', pump);
        res.on('close', () => resolve(sent));
        pump();
      });
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    try {
      const service = new InMemoryCredentialService();
      const stored = await signedIn(service, codeFlow());
      const config = codeFlow({ oauth2: { ...codeFlow().oauth2!, tokenUrl: `http://127.0.0.1:${(endless.address() as AddressInfo).port}/token` } });
      await service.saveCredential(credentialKey(alice, config), stored);

      const error = await new CredentialManager(service).current(alice, config).catch((thrown: unknown) => thrown);

      expect(error).toMatchObject({ code: 'AUTH_TOKEN_REQUEST_FAILED', status: 200, cause: expect.objectContaining({ code: 'AUTH_RESPONSE_TOO_LARGE', maxBytes: 1024 * 1024 }) });
      expect((error as Error).message).toContain('larger than 1048576 bytes');
      expect(await written).toBeLessThan(16 * 1024 * 1024);
      expect(await service.loadCredential(credentialKey(alice, config))).toEqual(stored);
    } finally {
      await new Promise<void>((resolve) => {
        endless.closeAllConnections();
        endless.close(() => resolve());
      });
    }
  });

  it('deletes the credential only when the server refuses the refresh token (invalid_grant)', async () => {
    const service = new InMemoryCredentialService();
    await signedIn(service, codeFlow());
    server.revokeRefreshTokens();
    expect(await new CredentialManager(service).current(alice, codeFlow())).toBeUndefined();
    expect(await service.loadCredential(credentialKey(alice, codeFlow()))).toBeUndefined();
  });

  it('two managers (two runners) over one in-memory service share one refresh: both get the new token, nothing is deleted', async () => {
    let arrived!: () => void;
    const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await server.close();
    server = await startOAuth2TestServer({
      beforeRefresh: async () => {
        arrived();
        await released;
      },
    });
    const service = new InMemoryCredentialService();
    await signedIn(service, codeFlow());
    const first = new CredentialManager(service).current(alice, codeFlow());
    await firstArrived; // the first refresh is at the token endpoint, held there
    const second = new CredentialManager(service).current(alice, codeFlow());
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(server.tokenRequests.refresh_token).toBe(1);
    expect(a).toEqual(b);
    expect(await service.loadCredential(credentialKey(alice, codeFlow()))).toEqual(a);
  });

  it('refuses an answer to an authorization older than PENDING_AUTHORIZATION_TTL_MS, and saving a new one cleans expired ones up', async () => {
    const service = new InMemoryCredentialService();
    const manager = new CredentialManager(service);
    const { code, state } = await codeFor((await manager.begin(alice, codeFlow())).authConfig.authUri!);
    const pending = (await service.takePendingAuthorization(state))!;
    await service.savePendingAuthorization({ ...pending, createdAt: Date.now() - PENDING_AUTHORIZATION_TTL_MS - 1 });
    await expect(manager.completeCode(alice, code, state)).rejects.toMatchObject({ code: 'AUTH_AUTHORIZATION_EXPIRED' });
    expect(server.tokenRequests).toEqual({});

    await service.savePendingAuthorization({ ...pending, createdAt: Date.now() - PENDING_AUTHORIZATION_TTL_MS - 1 });
    await manager.begin(alice, codeFlow()); // saves another: the expired one goes
    expect(await service.takePendingAuthorization(state)).toBeUndefined();
  });
});
