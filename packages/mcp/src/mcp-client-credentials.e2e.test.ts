import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LlmAgent, Runner, credentialRequests, type Content, type Event } from '@toolsmith/core';
import { type OAuth2TestServer, ScriptedModel, startOAuth2TestServer } from '@toolsmith/core/testing';
import { watchTokenRequests } from './__fixtures__/conformance-auth-driver';
import { type ProtectedResourceFront, parallelRefusals, startProtectedResourceFront } from './__fixtures__/protected-resource-front';
import { toolContext } from './__fixtures__/tool-harness';
import { McpToolset } from './mcp-toolset';
import { serveWhoamiBehindOAuth } from './__fixtures__/whoami-behind-oauth';
import type { McpServerHandle } from './serve-mcp';

// The app's own token (the OAuth client credentials grant) against real components: the local OAuth2
// server, a serveMcp endpoint that accepts its live tokens, and in front of it the protected resource
// metadata naming that authorization server.
const CLIENT_ID = 'reporting-app';
const CLIENT_SECRET = 'reporting-secret-7f3a9c';
let oauth: OAuth2TestServer;
let mcp: McpServerHandle;
let front: ProtectedResourceFront;
let tokenRequests: ReturnType<typeof watchTokenRequests>;
/** Whether serveMcp accepts the authorization server's live tokens (a test turns it off to refuse every token). */
let acceptTokens = true;

beforeEach(async () => {
  acceptTokens = true;
  tokenRequests = watchTokenRequests();
  oauth = await startOAuth2TestServer({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  mcp = await serveWhoamiBehindOAuth(oauth, () => acceptTokens);
  front = await startProtectedResourceFront(mcp.url!, oauth.url);
});
afterEach(async () => {
  tokenRequests.restore();
  await front.close();
  await mcp.close();
  await oauth.close();
});

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
async function send(runner: Runner, userId: string, text: string): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId, sessionId: `${userId}-session`, newMessage: user(text) })) events.push(event);
  return events;
}

describe('McpToolset with the app’s client credentials', () => {
  it('offers the server’s tools at once and gets one token for every user, with the resource and the scope; nobody signs in', async () => {
    const toolset = new McpToolset({
      transport: { url: front.url },
      prefix: 'reports_',
      oauth: { clientCredentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, scope: 'reports.read' },
    });
    const model = new ScriptedModel([{ calls: [{ name: 'reports_whoami' }] }, 'done', { calls: [{ name: 'reports_whoami' }] }, 'done']);
    const runner = new Runner({ appName: 'reports', agent: new LlmAgent({ name: 'a', model, tools: [toolset] }) });
    try {
      const alice = await send(runner, 'alice', 'who am I there?');
      const bob = await send(runner, 'bob', 'and me?');

      expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['reports_whoami']);
      // The server saw the app, whoever the user: the token is the app's.
      for (const events of [alice, bob]) {
        expect(events.flatMap((event) => credentialRequests(event))).toEqual([]);
        expect(events.flatMap((event) => event.functionResponses()).map((response) => response.response)).toEqual([{ userId: CLIENT_ID }]);
      }
      expect(oauth.tokenRequests).toEqual({ client_credentials: 1 });
      const [token] = [...tokenRequests.secretsFor(front.url)]; // RFC 8707: the token request named the server
      expect(oauth.introspect(token)).toEqual({ subject: CLIENT_ID, scope: 'reports.read', clientId: CLIENT_ID });
      // The first request went without a token (the 401 started discovery); every later one carried the app's.
      expect(front.authorizations[0]).toBeUndefined();
      expect(new Set(front.authorizations.slice(1))).toEqual(new Set([`Bearer ${token}`]));
      expect(JSON.stringify([alice, bob])).not.toContain(token);
      expect(JSON.stringify([alice, bob])).not.toContain(CLIENT_SECRET);
    } finally {
      await runner.close();
    }
  });

  it('a token the server refuses (expired, revoked) is replaced at once and the call goes through', async () => {
    const toolset = new McpToolset({ transport: { url: front.url }, oauth: { clientCredentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } } });
    const model = new ScriptedModel([{ calls: [{ name: 'whoami' }] }, 'done', { calls: [{ name: 'whoami' }] }, 'done']);
    const runner = new Runner({ appName: 'reports', agent: new LlmAgent({ name: 'a', model, tools: [toolset] }) });
    try {
      await send(runner, 'alice', 'who am I?');
      oauth.expireAccessTokens();

      const events = await send(runner, 'alice', 'and now?');

      expect(events.flatMap((event) => event.functionResponses()).map((response) => response.response)).toEqual([{ userId: CLIENT_ID }]);
      expect(oauth.tokenRequests).toEqual({ client_credentials: 2 });
    } finally {
      await runner.close();
    }
  });

  it('a server that refuses the token it was just given: MCP_AUTHORIZATION_FAILED, not a loop', async () => {
    acceptTokens = false;
    const toolset = new McpToolset({ transport: { url: front.url }, oauth: { clientCredentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } } });
    try {
      await expect(toolset.getTools(toolContext())).rejects.toMatchObject({ code: 'MCP_AUTHORIZATION_FAILED', message: expect.stringContaining('refused the token it was just given') });
      expect(oauth.tokenRequests).toEqual({ client_credentials: 1 });
    } finally {
      await toolset.close();
    }
  });

  it('with "issuer", credentials go to no other authorization server: MCP_AUTHORIZATION_FAILED and no token request', async () => {
    const toolset = new McpToolset({
      transport: { url: front.url },
      oauth: { clientCredentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, issuer: 'https://auth.reports.example' },
    });
    try {
      const failure = (await toolset.getTools(toolContext()).then(() => undefined, (error: unknown) => error)) as Error & { code: string };
      expect(failure).toMatchObject({ code: 'MCP_AUTHORIZATION_FAILED', message: expect.stringContaining('not the expected "https://auth.reports.example"; no token was asked for') });
      expect(failure.message).not.toContain('refused');
      expect(oauth.tokenRequests).toEqual({});
    } finally {
      await toolset.close();
    }
  });

  it('a call refused with 403 insufficient_scope steps up: one token for the granted and the required scopes, and the call goes through', async () => {
    const scoped = await startProtectedResourceFront(mcp.url!, oauth.url, { callScope: { scope: 'reports.write', scopeOf: (token) => oauth.introspect(token)?.scope } });
    const toolset = new McpToolset({ transport: { url: scoped.url }, oauth: { clientCredentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, scope: 'reports.read' } });
    const model = new ScriptedModel([{ calls: [{ name: 'whoami' }] }, 'done', { calls: [{ name: 'whoami' }] }, 'done']);
    const runner = new Runner({ appName: 'reports', agent: new LlmAgent({ name: 'a', model, tools: [toolset] }) });
    try {
      const first = await send(runner, 'alice', 'who am I?');
      const second = await send(runner, 'bob', 'and me?');

      for (const events of [first, second]) {
        expect(events.flatMap((event) => event.functionResponses()).map((response) => response.response)).toEqual([{ userId: CLIENT_ID }]);
      }
      // The listing's token (reports.read), then one step-up; the second call carries the wider token.
      expect(oauth.tokenRequests).toEqual({ client_credentials: 2 });
      const scopes = [...tokenRequests.secretsFor(scoped.url)].map((token) => oauth.introspect(token)?.scope);
      expect(scopes).toEqual(['reports.read', 'reports.read reports.write']);
      expect(scoped.authorizations.at(-1)).toBe(`Bearer ${[...tokenRequests.secretsFor(scoped.url)][1]}`);
    } finally {
      await runner.close();
      await scoped.close();
    }
  });

  it('parallel calls all refused with the old token: one step-up, and the calls refused after it are sent again with its token', async () => {
    // Every call reaches the server with the listing's token; the first refusal is answered at once, the
    // others only after the first call went through with the stepped-up token (so they come back after the step-up).
    const calls = 3;
    const gate = parallelRefusals(calls);
    const scoped = await startProtectedResourceFront(mcp.url!, oauth.url, { callScope: { scope: 'reports.write', scopeOf: (token) => oauth.introspect(token)?.scope, ...gate } });
    const toolset = new McpToolset({ transport: { url: scoped.url }, oauth: { clientCredentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, scope: 'reports.read' } });
    const model = new ScriptedModel([{ calls: Array.from({ length: calls }, () => ({ name: 'whoami' })) }, 'done']);
    const runner = new Runner({ appName: 'reports', agent: new LlmAgent({ name: 'a', model, tools: [toolset] }) });
    try {
      const events = await send(runner, 'alice', 'who am I, thrice?');

      expect(events.flatMap((event) => event.functionResponses()).map((response) => response.response)).toEqual(Array.from({ length: calls }, () => ({ userId: CLIENT_ID })));
      expect(oauth.tokenRequests).toEqual({ client_credentials: 2 });
      const [, wider] = [...tokenRequests.secretsFor(scoped.url)];
      expect(oauth.introspect(wider)?.scope).toBe('reports.read reports.write');
      expect(scoped.authorizations.slice(-calls)).toEqual(Array.from({ length: calls }, () => `Bearer ${wider}`));
    } finally {
      await runner.close();
      await scoped.close();
    }
  });

  it('a server that still refuses the stepped-up token with 403 insufficient_scope: MCP_AUTHORIZATION_FAILED naming the scope, one step-up only', async () => {
    const scoped = await startProtectedResourceFront(mcp.url!, oauth.url, { insufficientScope: 'reports.write' });
    const toolset = new McpToolset({ transport: { url: scoped.url }, oauth: { clientCredentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } } });
    try {
      const refused = {
        code: 'MCP_AUTHORIZATION_FAILED',
        message: expect.stringContaining('refused the token for lack of scope "reports.write" (403 insufficient_scope)'),
      };
      await expect(toolset.getTools(toolContext())).rejects.toMatchObject(refused);
      expect(oauth.tokenRequests).toEqual({ client_credentials: 2 });
      expect(oauth.introspect([...tokenRequests.secretsFor(scoped.url)][1])?.scope).toBe('reports.write');

      // Asked again, nothing wider can be asked for: no token request.
      await expect(toolset.getTools(toolContext())).rejects.toMatchObject(refused);
      expect(oauth.tokenRequests).toEqual({ client_credentials: 2 });
    } finally {
      await toolset.close();
      await scoped.close();
    }
  });

  it('a scope: the configured one with the 401’s added, else the resource metadata’s scopes_supported', async () => {
    const challenging = await startProtectedResourceFront(mcp.url!, oauth.url, { challengeScope: 'reports.audit', scopesSupported: ['reports.read', 'reports.write'] });
    const configured = new McpToolset({ transport: { url: challenging.url }, oauth: { clientCredentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, scope: 'reports.read' } });
    const listed = await startProtectedResourceFront(mcp.url!, oauth.url, { scopesSupported: ['reports.read', 'reports.write'] });
    const unconfigured = new McpToolset({ transport: { url: listed.url }, oauth: { clientCredentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } } });
    try {
      await configured.getTools(toolContext());
      await unconfigured.getTools(toolContext());

      const scopeOf = (url: string) => oauth.introspect([...tokenRequests.secretsFor(url)][0])?.scope;
      expect(scopeOf(challenging.url)).toBe('reports.read reports.audit');
      expect(scopeOf(listed.url)).toBe('reports.read reports.write');
    } finally {
      await configured.close();
      await unconfigured.close();
      await challenging.close();
      await listed.close();
    }
  });

  it('a token past its expires_in is not sent: the server’s 401 gets a new one', async () => {
    const toolset = new McpToolset({ transport: { url: front.url }, oauth: { clientCredentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } } });
    const now = Date.now.bind(Date);
    try {
      await toolset.getTools(toolContext());
      const before = front.authorizations.length;
      // Two hours on (the token lives one): for the toolset and the authorization server alike.
      const later = jest.spyOn(Date, 'now').mockImplementation(() => now() + 2 * 3600_000);

      await toolset.getTools(toolContext());
      later.mockRestore();

      expect(front.authorizations[before]).toBeUndefined(); // the expired token was not sent
      expect(oauth.tokenRequests).toEqual({ client_credentials: 2 });
    } finally {
      jest.restoreAllMocks();
      await toolset.close();
    }
  });

  describe('an authorization server that refuses', () => {
    let server: Server;
    let refusingFront: ProtectedResourceFront | undefined;
    /** Token requests it got. */
    let asked: number;
    /** Its metadata, besides the issuer and endpoints. */
    let metadata: Record<string, unknown>;
    /** When set, the token request's answer: 200 with a JSON body this large (over the 1 MiB limit). */
    let hugeToken: number | undefined;
    /** When set, the metadata carries a padding field this large. */
    let hugeMetadata: number | undefined;
    beforeEach(async () => {
      asked = 0;
      hugeToken = undefined;
      hugeMetadata = undefined;
      metadata = { grant_types_supported: ['client_credentials'] };
      // Refuses every token request, echoing the client's Basic credentials back.
      server = createServer((request, response) => {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        response.setHeader('content-type', 'application/json');
        if (request.url === '/.well-known/oauth-authorization-server') {
          const padding = hugeMetadata ? { padding: 'x'.repeat(hugeMetadata) } : {};
          response.end(JSON.stringify({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, response_types_supported: ['code'], ...metadata, ...padding }));
          return;
        }
        asked++;
        if (hugeToken) {
          response.end(JSON.stringify({ access_token: 'x'.repeat(hugeToken), token_type: 'Bearer' }));
          return;
        }
        const basic = Buffer.from((request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          response.statusCode = 401;
          // Also `id:secret` and the form body as one base64 blob.
          response.end(JSON.stringify({ error: 'invalid_client', error_description: `no client matches ${basic} (b64: ${Buffer.from(`${basic}&${body}`).toString('base64')})` }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterEach(async () => {
      await refusingFront?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const failureOf = async (options: { resource?: string } = {}) => {
      refusingFront = await startProtectedResourceFront(mcp.url!, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options);
      const toolset = new McpToolset({ transport: { url: refusingFront.url }, oauth: { clientCredentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } } });
      try {
        return (await toolset.getTools(toolContext()).then(() => undefined, (error: unknown) => error)) as (Error & { code: string }) | undefined;
      } finally {
        await toolset.close();
      }
    };

    it('the token request: MCP_AUTHORIZATION_FAILED with its error text, its echo of the secret redacted', async () => {
      const failure = await failureOf();

      expect(failure?.code).toBe('MCP_AUTHORIZATION_FAILED');
      // The server echoed `id:secret`: the pair goes whole.
      expect(failure?.message).toContain('no client matches [redacted]');
      expect(failure?.message).not.toContain(CLIENT_SECRET);
      // The blob holding it lost the secret's characters: decoded, what is left does not hold it.
      const blob = /b64: (\S+)\)/.exec(failure?.message ?? '')?.[1];
      expect(blob).toContain('[redacted]');
      expect(Buffer.from(blob!.replace('[redacted]', ''), 'base64').toString('latin1')).not.toContain(CLIENT_SECRET);
      expect(asked).toBe(1);
    });

    it('a token answer over 1 MiB: MCP_AUTHORIZATION_FAILED, not read further', async () => {
      hugeToken = 2 * 1024 * 1024;

      const failure = await failureOf();

      expect(failure).toMatchObject({ code: 'MCP_AUTHORIZATION_FAILED', message: expect.stringContaining('an answer was too large') });
      expect(asked).toBe(1);
    });

    it('authorization server metadata over 1 MiB: MCP_AUTHORIZATION_FAILED before any credential is sent', async () => {
      hugeMetadata = 2 * 1024 * 1024;

      const failure = await failureOf();

      expect(failure).toMatchObject({ code: 'MCP_AUTHORIZATION_FAILED', message: expect.stringContaining('an answer was too large') });
      expect(asked).toBe(0);
    });

    it.each([
      ['no client_credentials grant', { grant_types_supported: ['authorization_code'] }, {}, 'does not offer the client_credentials grant'],
      ['a token endpoint neither https nor loopback', { token_endpoint: 'http://auth.reports.example/token' }, {}, 'is neither https nor loopback'],
      ['resource metadata naming another resource', {}, { resource: 'https://evil.example/mcp' }, 'names resource https://evil.example/mcp, which is not this server'],
      [
        'a token endpoint with a user name and password',
        { token_endpoint: 'http://user:USERINFO-PASS@127.0.0.1:9/token?api_key=QUERY-SECRET' },
        {},
        'its token endpoint http://127.0.0.1:9/token has a user name or password in its URL; no request was sent to it',
      ],
    ])('%s: MCP_AUTHORIZATION_FAILED before any credential is sent', async (_case, overrides, frontOptions, reason) => {
      Object.assign(metadata, overrides);

      const failure = await failureOf(frontOptions);

      expect(failure).toMatchObject({ code: 'MCP_AUTHORIZATION_FAILED', message: expect.stringContaining(reason) });
      // What an endpoint's URL may hold besides its origin and path is not echoed.
      expect(failure?.message).not.toMatch(/USERINFO-PASS|QUERY-SECRET/);
      expect(asked).toBe(0);
    });
  });
});
