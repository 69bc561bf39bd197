import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Content, type Event, InMemoryCredentialService, LlmAgent, Runner, credentialRequests, credentialResponse } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { toolContext } from './__fixtures__/tool-harness';
import { McpToolset } from './mcp-toolset';

// An MCP server whose authorization server (and identity provider) accepts requests and then stalls:
// one path at a time answers with its headers and one byte of its body and never ends (`trickle`), or
// never answers at all (`silent`). Every other path answers at once: the MCP endpoint `401` naming the
// protected resource metadata, which names this server as the authorization server; its metadata; a
// consenting `/authorize`; dynamic registration. The toolset's `oauth.requestTimeoutMs` is 200 ms; the
// tests assert the typed failure, whenever it comes, and that the stalled request's connection was
// dropped by the client. Every stalled answer is released when the test ends. In `echo` mode the path
// refuses instead, echoing the request (as it is and as one base64 blob); `/idp/token` otherwise grants an ID-JAG.
const DEADLINE_MS = 200;
let server: ReturnType<typeof createServer>;
let base: string;
let stall: { path: string; mode: 'trickle' | 'silent' | 'huge' | 'echo' } | undefined;
let dropped: Promise<string>;
let drop: (path: string) => void;
const held = new Set<ServerResponse>();
/** Every path requested, in order. */
let requested: string[];
/** When set, the protected resource metadata redirects (307) through `hops` paths `/hop/<n>`, each answer `delayMs` late, then is answered. */
let redirects: { hops: number; delayMs: number } | undefined;

beforeEach(async () => {
  stall = undefined;
  redirects = undefined;
  requested = [];
  dropped = new Promise((resolve) => (drop = resolve));
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    if (stall?.mode === 'echo' && url.pathname === stall.path) {
      requested.push(url.pathname);
      // Refuses, echoing the request's Authorization header and form body, as they are and as one base64 blob.
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const echoed = `${req.headers.authorization ?? ''} ${body}`;
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_grant', error_description: `echo: ${echoed} (b64: ${Buffer.from(echoed).toString('base64')})` }));
      });
      return;
    }
    req.resume();
    requested.push(url.pathname);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (stall && url.pathname === stall.path) {
      held.add(res);
      res.on('close', () => drop(url.pathname));
      if (stall.mode === 'huge') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'x'.repeat(2 * 1024 * 1024), issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' }));
        return;
      }
      if (stall.mode === 'trickle') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
      }
      return;
    }
    const hop = url.pathname === '/.well-known/oauth-protected-resource/mcp' ? 0 : /^\/hop\/(\d+)$/.exec(url.pathname)?.[1];
    if (redirects && hop !== undefined) {
      const { hops, delayMs } = redirects;
      const answer = () => {
        if (res.destroyed) return;
        if (Number(hop) >= hops) return json(200, { resource: `${base}/mcp`, authorization_servers: [base] });
        res.writeHead(307, { location: `/hop/${Number(hop) + 1}` });
        res.end();
      };
      if (delayMs === 0) answer();
      else setTimeout(answer, delayMs);
      return;
    }
    if (url.pathname === '/mcp') {
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` });
      return res.end();
    }
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp') return json(200, { resource: `${base}/mcp`, authorization_servers: [base] });
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    }
    if (url.pathname === '/idp/token') return json(200, { access_token: 'the-id-jag-0123', issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' });
    if (url.pathname === '/register') return json(201, { client_id: 'registered-client', client_secret: 'registered-secret', redirect_uris: ['https://app.example/cb'] });
    if (url.pathname === '/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', 'the-code');
      back.searchParams.set('state', url.searchParams.get('state')!);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    return json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  for (const res of held) res.destroy();
  held.clear();
  await new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
});

const timedOut = (path: string) => ({
  code: 'MCP_AUTHORIZATION_FAILED',
  message: expect.stringContaining(`a request timed out: ${base}${path} did not answer within ${DEADLINE_MS} ms`),
  cause: expect.objectContaining({ code: 'AUTH_RESPONSE_TIMEOUT', url: `${base}${path}`, timeoutMs: DEADLINE_MS }),
});

const failureOf = async (toolset: McpToolset) => {
  try {
    return await toolset.getTools(toolContext()).then(() => undefined, (error: unknown) => error);
  } finally {
    await toolset.close();
  }
};

describe('McpToolset OAuth: a slow authorization server fails the request at oauth.requestTimeoutMs', () => {
  const perUser = () =>
    new McpToolset({ transport: { url: `${base}/mcp` }, oauth: { credentialService: new InMemoryCredentialService(), redirectUri: 'https://app.example/cb', requestTimeoutMs: DEADLINE_MS } });

  it.each([
    ['protected resource metadata that trickles', '/.well-known/oauth-protected-resource/mcp', 'trickle'],
    ['authorization server metadata that never answers', '/.well-known/oauth-authorization-server', 'silent'],
    ['a registration that trickles', '/register', 'trickle'],
  ] as const)('per user, %s: MCP_AUTHORIZATION_FAILED naming the endpoint, its cause AUTH_RESPONSE_TIMEOUT; the request is abandoned', async (_case, path, mode) => {
    stall = { path, mode };

    expect(await failureOf(perUser())).toMatchObject(timedOut(path));
    expect(await dropped).toBe(path);
  });

  it('per user, a code exchange that trickles: the run asks again, with AUTH_TOKEN_REQUEST_FAILED (its cause AUTH_RESPONSE_TIMEOUT)', async () => {
    stall = { path: '/token', mode: 'trickle' };
    const credentialService = new InMemoryCredentialService();
    const toolset = new McpToolset({ transport: { url: `${base}/mcp` }, oauth: { credentialService, redirectUri: 'https://app.example/cb', requestTimeoutMs: DEADLINE_MS } });
    const runner = new Runner({ appName: 'notes', agent: new LlmAgent({ name: 'a', model: new ScriptedModel([{ calls: [{ name: 'sign_in' }] }, 'done']), tools: [toolset] }), credentialService });
    const send = async (message: Content) => {
      const events: Event[] = [];
      for await (const event of runner.run({ userId: 'alice', sessionId: 's', newMessage: message })) events.push(event);
      return events.flatMap((event) => credentialRequests(event));
    };
    try {
      const [asked] = await send({ role: 'user', parts: [{ text: 'sign me in' }] });
      expect(asked.authConfig.oauth2?.requestTimeoutMs).toBe(DEADLINE_MS);
      const redirectUrl = (await fetch(asked.authConfig.authUri!, { redirect: 'manual' })).headers.get('location')!;

      const [askedAgain] = await send(credentialResponse(asked, { redirectUrl }));

      expect(askedAgain.error).toMatchObject({ code: 'AUTH_TOKEN_REQUEST_FAILED', message: expect.stringContaining(`${base}/token did not answer within ${DEADLINE_MS} ms`) });
      expect(await dropped).toBe('/token');
    } finally {
      await runner.close();
    }
  });

  it('per user, protected resource metadata redirected twice, each answer in time but the three over the deadline: MCP_AUTHORIZATION_FAILED, AUTH_RESPONSE_TIMEOUT', async () => {
    // Each answer comes 0.6 of the deadline late: every one alone is in time, the request as a whole is not.
    redirects = { hops: 2, delayMs: DEADLINE_MS * 0.6 };

    expect(await failureOf(perUser())).toMatchObject({
      code: 'MCP_AUTHORIZATION_FAILED',
      message: expect.stringMatching(new RegExp(`a request timed out: .* did not answer within ${DEADLINE_MS} ms`)),
      cause: expect.objectContaining({ code: 'AUTH_RESPONSE_TIMEOUT', timeoutMs: DEADLINE_MS }),
    });
  });

  it('the app’s client credentials, protected resource metadata redirected more than 5 times: MCP_AUTHORIZATION_FAILED saying so, no token asked for', async () => {
    redirects = { hops: 50, delayMs: 0 };
    const toolset = new McpToolset({ transport: { url: `${base}/mcp` }, oauth: { clientCredentials: { clientId: 'app', clientSecret: 'app-secret-1234' }, requestTimeoutMs: 60_000 } });

    expect(await failureOf(toolset)).toMatchObject({
      code: 'MCP_AUTHORIZATION_FAILED',
      message: expect.stringContaining(`a request was redirected more than 5 times: ${base}/.well-known/oauth-protected-resource/mcp`),
    });
    expect(requested).not.toContain('/token');
  });

  it('the app’s client credentials, a token request that trickles: MCP_AUTHORIZATION_FAILED naming the token endpoint', async () => {
    stall = { path: '/token', mode: 'trickle' };
    const toolset = new McpToolset({ transport: { url: `${base}/mcp` }, oauth: { clientCredentials: { clientId: 'app', clientSecret: 'app-secret-1234' }, requestTimeoutMs: DEADLINE_MS } });

    expect(await failureOf(toolset)).toMatchObject(timedOut('/token'));
    expect(await dropped).toBe('/token');
  });

  it('cross-app access, an identity provider that never answers: MCP_AUTHORIZATION_FAILED naming it, no token asked of the authorization server', async () => {
    stall = { path: '/idp/token', mode: 'silent' };
    const toolset = new McpToolset({
      transport: { url: `${base}/mcp` },
      oauth: {
        crossAppAccess: { clientId: 'app', clientSecret: 'app-secret-1234', idp: { tokenEndpoint: `${base}/idp/token`, clientId: 'app-at-idp' }, idToken: () => 'alice-id-token' },
        requestTimeoutMs: DEADLINE_MS,
      },
    });

    expect(await failureOf(toolset)).toMatchObject(timedOut('/idp/token'));
    expect(await dropped).toBe('/idp/token');
    expect(requested).not.toContain('/token');
  });

  it('cross-app access, an identity provider answer over 1 MiB: MCP_AUTHORIZATION_FAILED, its cause AUTH_RESPONSE_TOO_LARGE; no token asked of the authorization server', async () => {
    stall = { path: '/idp/token', mode: 'huge' };
    const toolset = new McpToolset({
      transport: { url: `${base}/mcp` },
      oauth: { crossAppAccess: { clientId: 'app', clientSecret: 'app-secret-1234', idp: { tokenEndpoint: `${base}/idp/token`, clientId: 'app-at-idp' }, idToken: () => 'alice-id-token' } },
    });

    expect(await failureOf(toolset)).toMatchObject({
      code: 'MCP_AUTHORIZATION_FAILED',
      message: expect.stringContaining('an answer was too large'),
      cause: expect.objectContaining({ code: 'AUTH_RESPONSE_TOO_LARGE', url: `${base}/idp/token` }),
    });
    expect(requested).not.toContain('/token');
  });

  it('refuses a requestTimeoutMs that is not a number above 0 and at most 2147483647: MCP_OAUTH_CONFIG_INVALID', () => {
    const url = `${base}/mcp`;
    expect(() => new McpToolset({ transport: { url }, oauth: { credentialService: new InMemoryCredentialService(), redirectUri: 'https://app.example/cb', requestTimeoutMs: 0 } })).toThrow(
      expect.objectContaining({ code: 'MCP_OAUTH_CONFIG_INVALID', message: expect.stringContaining('"oauth.requestTimeoutMs" must be a number of milliseconds above 0 and at most 2147483647; got 0') }),
    );
    // Past 2^31 - 1 Node's timers fire at once: every request would time out.
    for (const oauth of [
      { credentialService: new InMemoryCredentialService(), redirectUri: 'https://app.example/cb', requestTimeoutMs: 2 ** 31 },
      { clientCredentials: { clientId: 'a', clientSecret: 's' }, requestTimeoutMs: Number.POSITIVE_INFINITY },
      { crossAppAccess: { clientId: 'a', clientSecret: 's', idp: { tokenEndpoint: `${base}/idp/token`, clientId: 'i' }, idToken: () => 't' }, requestTimeoutMs: 2 ** 31 },
    ]) {
      expect(() => new McpToolset({ transport: { url }, oauth })).toThrow(expect.objectContaining({ code: 'MCP_OAUTH_CONFIG_INVALID', message: expect.stringMatching(/requestTimeoutMs" must be .* at most 2147483647; got (2147483648|Infinity)/) }));
    }
    expect(() => new McpToolset({ transport: { url }, oauth: { clientCredentials: { clientId: 'a', clientSecret: 's' }, requestTimeoutMs: 2 ** 31 - 1 } })).not.toThrow();
    expect(() => new McpToolset({ transport: { url }, oauth: { clientCredentials: { clientId: 'a', clientSecret: 's' }, requestTimeoutMs: -1 } })).toThrow(expect.objectContaining({ code: 'MCP_OAUTH_CONFIG_INVALID' }));
    const idp = { tokenEndpoint: `${base}/idp/token`, clientId: 'i' };
    expect(() => new McpToolset({ transport: { url }, oauth: { crossAppAccess: { clientId: 'a', clientSecret: 's', idp, idToken: () => 't' }, requestTimeoutMs: Number.NaN } })).toThrow(
      expect.objectContaining({ code: 'MCP_OAUTH_CONFIG_INVALID' }),
    );
  });
});

describe('McpToolset cross-app access: a refusal echoing the request as one base64 blob', () => {
  it.each([['the identity provider', '/idp/token'], ['the authorization server', '/token']])('%s: MCP_AUTHORIZATION_FAILED, the secrets and the ID token redacted from the blob too', async (_case, path) => {
    stall = { path, mode: 'echo' };
    const secrets = ['app-secret-1234', 'idp-secret-5678', 'alice-id-token-9abc', 'the-id-jag-0123'];
    const toolset = new McpToolset({
      transport: { url: `${base}/mcp` },
      oauth: { crossAppAccess: { clientId: 'app', clientSecret: secrets[0], idp: { tokenEndpoint: `${base}/idp/token`, clientId: 'app-at-idp', clientSecret: secrets[1] }, idToken: () => secrets[2] } },
    });

    const failure = (await failureOf(toolset)) as Error & { code: string };
    expect(failure).toMatchObject({ code: 'MCP_AUTHORIZATION_FAILED', message: expect.stringContaining('echo:') });
    const blob = /b64: (\S+)\)/.exec(failure.message)?.[1];
    expect(blob).toContain('[redacted]');
    const decoded = Buffer.from(blob!.replaceAll('[redacted]', ''), 'base64').toString('latin1');
    for (const secret of secrets) {
      expect(failure.message).not.toContain(secret);
      expect(decoded).not.toContain(secret);
    }
    expect(requested).toContain(path);
  });
});
