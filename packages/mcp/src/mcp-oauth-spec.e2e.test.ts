import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CredentialRequestRecord, InMemoryCredentialService, LlmAgent, Runner, credentialRequests, credentialResponse, type Content, type Event } from '@toolsmith/core';
import { MAX_AUTH_RESPONSE_BYTES } from '@toolsmith/core/internal';
import { type OAuth2TestServer, ScriptedModel, startOAuth2TestServer, testToolContext } from '@toolsmith/core/testing';
import { type ProtectedMcpServer, startProtectedMcpServer } from './__fixtures__/protected-mcp-server';
import { McpToolset } from './mcp-toolset';

// McpToolset in the MCP authorization spec's mode (discovery, dynamic registration, resource, step-up)
// against a local authorization server and an MCP server that is its resource server.

const REDIRECT_URI = 'https://app.example/callback';
const SIGNED_IN = { status: 'signed_in', note: "The server's tools are available from the next step." };
const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });

async function send(runner: Runner, newMessage: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage })) events.push(event);
  return events;
}

/** The person: opens the request's authorization URL (the test server consents at once) and comes back with the redirect. */
async function consent(request: CredentialRequestRecord & { authConfig: { authUri?: string } }): Promise<string> {
  const redirect = await fetch(request.authConfig.authUri!, { redirect: 'manual' });
  return redirect.headers.get('location')!;
}

describe('McpToolset following the MCP authorization spec', () => {
  let oauth: OAuth2TestServer;
  let mcp: ProtectedMcpServer;
  let runner: Runner | undefined;
  afterEach(async () => {
    await runner?.close();
    runner = undefined;
    await mcp.close();
    await oauth.close();
  });

  function notesRunner(model: ScriptedModel, credentialService = new InMemoryCredentialService()): { runner: Runner; credentialService: InMemoryCredentialService } {
    const toolset = new McpToolset({ transport: { url: mcp.url }, prefix: 'notes_', oauth: { credentialService, redirectUri: REDIRECT_URI } });
    runner = new Runner({ appName: 'notes', agent: new LlmAgent({ name: 'a', model, tools: [toolset] }), credentialService });
    return { runner, credentialService };
  }

  it('step-up asks for the scopes granted so far plus the new one when token responses omit scope (RFC 6749 §5.1)', async () => {
    oauth = await startOAuth2TestServer({ omitScope: true, dynamicRegistration: true });
    mcp = await startProtectedMcpServer(oauth, { scope: 'notes.read', toolScopes: { write_note: 'notes.write' } });
    const model = new ScriptedModel([{ calls: [{ name: 'notes_sign_in' }] }, { calls: [{ name: 'notes_write_note', args: { text: 'milk' } }] }, 'written']);
    const { runner } = notesRunner(model);

    const [signIn] = (await send(runner, user('note: milk'))).flatMap((e) => credentialRequests(e));
    expect(signIn.authConfig.oauth2!.scopes).toEqual(['notes.read']);
    expect(signIn.authConfig.oauth2!.requestTimeoutMs).toBe(30_000); // oauth.requestTimeoutMs's default, for the code exchange and refreshes
    const stepped = await send(runner, credentialResponse(signIn, { redirectUrl: await consent(signIn) }));

    const [stepUp] = stepped.flatMap((e) => credentialRequests(e));
    expect(stepUp.originalFunctionCall.name).toBe('notes_write_note');
    expect(stepUp.authConfig.oauth2!.scopes).toEqual(['notes.read', 'notes.write']);
    expect(new URL(stepUp.authConfig.authUri!).searchParams.get('scope')).toBe('notes.read notes.write');
    const events = await send(runner, credentialResponse(stepUp, { redirectUrl: await consent(stepUp) }));

    expect(events.flatMap((e) => e.functionResponses()).map((r) => [r.name, r.response])).toEqual([['notes_write_note', { output: 'wrote: milk' }]]);
    expect(mcp.calls).toEqual([{ tool: 'write_note', scope: 'notes.read notes.write' }]);
    expect(oauth.registrations).toHaveLength(1);
  });

  it('an expired token is refreshed without asking, with the resource and the same client authentication; a refused refresh forgets it and asks again', async () => {
    oauth = await startOAuth2TestServer({ dynamicRegistration: true });
    mcp = await startProtectedMcpServer(oauth, { scope: 'notes.read' });
    const model = new ScriptedModel([
      { calls: [{ name: 'notes_sign_in' }] },
      'signed in',
      { calls: [{ name: 'notes_sign_in' }] }, // the token expired: the listing was refused, only the sign-in tool is offered
      { calls: [{ name: 'notes_read_notes' }] },
      'buy milk',
      { calls: [{ name: 'notes_sign_in' }] }, // expired again, and the refresh token revoked
      { calls: [{ name: 'notes_read_notes' }] },
      'still milk',
    ]);
    const { runner, credentialService } = notesRunner(model);
    const key = { appName: 'notes', userId: 'u1', authConfigId: `mcp:${mcp.url}` };
    const expire = async () => {
      oauth.expireAccessTokens();
      await credentialService.saveCredential(key, { ...(await credentialService.loadCredential(key))!, expiresAt: Date.now() - 1000 });
    };
    const [signIn] = (await send(runner, user('sign me in'))).flatMap((e) => credentialRequests(e));
    await send(runner, credentialResponse(signIn, { redirectUrl: await consent(signIn) }));
    expect(oauth.tokenRequestLog).toHaveLength(1);
    const [exchange] = oauth.tokenRequestLog;
    expect(exchange).toEqual({ grantType: 'authorization_code', clientId: expect.stringMatching(/^client-/), clientAuth: 'client_secret_basic', resource: mcp.url });
    await expire();

    const refreshed = await send(runner, user('read my notes'));

    expect(refreshed.flatMap((e) => credentialRequests(e))).toEqual([]); // nobody was asked
    expect(refreshed.flatMap((e) => e.functionResponses()).map((r) => r.response)).toEqual([SIGNED_IN, { output: 'buy milk' }]);
    expect(oauth.tokenRequestLog.slice(1)).toEqual([{ grantType: 'refresh_token', clientId: exchange.clientId, clientAuth: exchange.clientAuth, resource: mcp.url }]);

    await expire();
    oauth.revokeRefreshTokens();
    const asked = await send(runner, user('read them again'));

    expect(oauth.tokenRequestLog.slice(2).map((r) => r.grantType)).toEqual(['refresh_token']); // refused: invalid_grant
    expect(await credentialService.loadCredential(key)).toBeUndefined(); // forgotten
    const [again] = asked.flatMap((e) => credentialRequests(e));
    expect(again.originalFunctionCall.name).toBe('notes_sign_in');
    const events = await send(runner, credentialResponse(again, { redirectUrl: await consent(again) }));
    expect(events.flatMap((e) => e.functionResponses()).map((r) => r.response)).toEqual([SIGNED_IN, { output: 'buy milk' }]);
    expect(oauth.registrations).toHaveLength(1); // the client registered once, for the toolset's life
  });
});

/** An authorization server that answers whatever a test says: for the checks and limits a client must apply to it. */
async function startHostileServer(route: (path: string, response: ServerResponse, base: string) => void): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  let base = '';
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => route(request.url ?? '/', response, base));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/** Metadata of an authorization server at `base` (endpoints at its origin unless `endpoints` says otherwise). */
const metadataOf = (base: string, endpoints: Record<string, string> = {}) => ({
  issuer: base,
  authorization_endpoint: `${base}/authorize`,
  token_endpoint: `${base}/token`,
  registration_endpoint: `${base}/register`,
  response_types_supported: ['code'],
  code_challenge_methods_supported: ['S256'],
  ...endpoints,
});

/**
 * Answers with a JSON body that never ends (64 KiB chunks, as fast as the client reads): resolves with
 * the bytes written once the client dropped the connection.
 */
function endlessJson(response: ServerResponse): Promise<number> {
  return new Promise((resolve) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, ' ');
    let written = 0;
    const pump = () => {
      while (!response.destroyed && response.write(chunk)) written += chunk.length;
    };
    response.on('drain', pump);
    response.on('close', () => resolve(written));
    response.write('{"padding":"');
    pump();
  });
}

describe('McpToolset refuses an unsafe or oversized authorization server', () => {
  let hostile: Awaited<ReturnType<typeof startHostileServer>>;
  let oauth: OAuth2TestServer;
  let mcp: ProtectedMcpServer;
  afterEach(async () => {
    await mcp.close();
    await oauth.close();
    await hostile.close();
  });

  /** The protected MCP server, its 401 pointing at the hostile server's resource metadata (which names the hostile server). */
  async function serveBehind(route: (path: string, response: ServerResponse, base: string) => void): Promise<McpToolset> {
    oauth = await startOAuth2TestServer();
    hostile = await startHostileServer((path, response, base) => {
      if (path === '/resource-metadata') return json(response, 200, { resource: mcp.url, authorization_servers: [base] });
      route(path, response, base);
    });
    mcp = await startProtectedMcpServer(oauth, { scope: 'notes.read', resourceMetadataUrl: `${hostile.url}/resource-metadata` });
    return new McpToolset({ transport: { url: mcp.url }, oauth: { credentialService: new InMemoryCredentialService(), redirectUri: REDIRECT_URI } });
  }

  it.each([
    ['token', { token_endpoint: 'http://tokens.example/token' }],
    ['authorization', { authorization_endpoint: 'http://login.example/authorize' }],
    ['registration', { registration_endpoint: 'http://register.example/register' }],
  ])('metadata with a plain-http %s endpoint elsewhere than loopback: MCP_AUTHORIZATION_FAILED before any registration', async (which, endpoints) => {
    const toolset = await serveBehind((path, response, base) => {
      if (path === '/.well-known/oauth-authorization-server') return json(response, 200, metadataOf(base, endpoints));
      json(response, 201, { client_id: 'registered' });
    });

    const failure = (await toolset.getTools(testToolContext()).then(() => undefined, (error: unknown) => error)) as Error & { code: string };
    expect(failure).toMatchObject({
      code: 'MCP_AUTHORIZATION_FAILED',
      message: expect.stringContaining(`its ${which} endpoint ${Object.values(endpoints)[0]} is neither https nor loopback`),
    });
    // Only the endpoint at fault is named (not the SDK's check, which calls every endpoint a token endpoint).
    if (which !== 'token') expect(failure.message.toLowerCase()).not.toContain('token endpoint');
    expect(hostile.requests).toEqual(['GET /resource-metadata', 'GET /.well-known/oauth-authorization-server']); // no POST /register
    await toolset.close();
  });

  it('metadata with a token endpoint holding a user name and password: MCP_AUTHORIZATION_FAILED before any registration, naming neither them nor the query', async () => {
    const toolset = await serveBehind((path, response, base) => {
      const tokenEndpoint = `http://user:USERINFO-PASS@${new URL(base).host}/token?api_key=QUERY-SECRET`;
      if (path === '/.well-known/oauth-authorization-server') return json(response, 200, metadataOf(base, { token_endpoint: tokenEndpoint }));
      json(response, 201, { client_id: 'registered' });
    });

    const failure = (await toolset.getTools(testToolContext()).then(() => undefined, (error: unknown) => error)) as Error & { code: string };
    expect(failure).toMatchObject({ code: 'MCP_AUTHORIZATION_FAILED', message: expect.stringMatching(/its token endpoint http:\/\/127\.0\.0\.1:\d+\/token has a user name or password in its URL; no request was sent to it/) });
    expect(failure.message).not.toMatch(/USERINFO-PASS|QUERY-SECRET|user:/);
    expect(hostile.requests).toEqual(['GET /resource-metadata', 'GET /.well-known/oauth-authorization-server']); // no POST /register
    await toolset.close();
  });

  it('metadata with a javascript: authorization endpoint: MCP_AUTHORIZATION_FAILED in one readable sentence', async () => {
    const toolset = await serveBehind((path, response, base) => {
      if (path === '/.well-known/oauth-authorization-server') return json(response, 200, metadataOf(base, { authorization_endpoint: 'javascript:alert(document.cookie)//' }));
      json(response, 201, { client_id: 'registered' });
    });

    const failure = (await toolset.getTools(testToolContext()).then(() => undefined, (error: unknown) => error)) as Error & { code: string };
    expect(failure.code).toBe('MCP_AUTHORIZATION_FAILED');
    expect(failure.message).toMatch(/could not be discovered: its metadata is invalid \(authorization_endpoint: .*javascript:.*\)$/);
    expect(failure.message).not.toContain('\n');
    await toolset.close();
  });

  it.each(['resource metadata', 'authorization server metadata', 'registration'])(
    'an endless %s answer: read up to 1 MiB, the connection dropped, MCP_AUTHORIZATION_FAILED naming the limit',
    async (which) => {
      let written: Promise<number> | undefined;
      oauth = await startOAuth2TestServer();
      hostile = await startHostileServer((path, response, base) => {
        if (path === '/resource-metadata') {
          if (which === 'resource metadata') return void (written = endlessJson(response));
          return json(response, 200, { resource: mcp.url, authorization_servers: [base] });
        }
        if (path === '/.well-known/oauth-authorization-server') {
          if (which === 'authorization server metadata') return void (written = endlessJson(response));
          return json(response, 200, metadataOf(base));
        }
        if (path === '/register') return void (written = endlessJson(response));
        json(response, 404, {});
      });
      mcp = await startProtectedMcpServer(oauth, { scope: 'notes.read', resourceMetadataUrl: `${hostile.url}/resource-metadata` });
      const toolset = new McpToolset({ transport: { url: mcp.url }, oauth: { credentialService: new InMemoryCredentialService(), redirectUri: REDIRECT_URI } });

      await expect(toolset.getTools(testToolContext())).rejects.toMatchObject({
        code: 'MCP_AUTHORIZATION_FAILED',
        message: expect.stringContaining(`is larger than ${MAX_AUTH_RESPONSE_BYTES} bytes`),
        cause: expect.objectContaining({ code: 'AUTH_RESPONSE_TOO_LARGE' }),
      });
      // The server saw the client go away after about the limit (what sat in socket buffers aside), not read to the end.
      expect(await written).toBeLessThan(16 * MAX_AUTH_RESPONSE_BYTES);
      await toolset.close();
    },
  );

  it('an endless token response: the code exchange stops at 1 MiB, and the user is asked again with AUTH_TOKEN_REQUEST_FAILED naming the limit', async () => {
    let written: Promise<number> | undefined;
    oauth = await startOAuth2TestServer();
    hostile = await startHostileServer((path, response, base) => {
      if (path === '/resource-metadata') return json(response, 200, { resource: mcp.url, authorization_servers: [base] });
      if (path === '/.well-known/oauth-authorization-server') return json(response, 200, metadataOf(base));
      if (path === '/register') return json(response, 201, { client_id: 'registered', redirect_uris: [REDIRECT_URI] });
      if (path === '/token') return void (written = endlessJson(response));
      json(response, 404, {});
    });
    mcp = await startProtectedMcpServer(oauth, { scope: 'notes.read', resourceMetadataUrl: `${hostile.url}/resource-metadata` });
    const credentialService = new InMemoryCredentialService();
    const toolset = new McpToolset({ transport: { url: mcp.url }, prefix: 'notes_', oauth: { credentialService, redirectUri: REDIRECT_URI } });
    const model = new ScriptedModel([{ calls: [{ name: 'notes_sign_in' }] }, 'could not sign in']);
    const runner = new Runner({ appName: 'notes', agent: new LlmAgent({ name: 'a', model, tools: [toolset] }), credentialService });
    try {
      const [request] = (await send(runner, user('sign me in'))).flatMap((e) => credentialRequests(e));
      const authUri = new URL(request.authConfig.authUri!);
      const redirectUrl = `${REDIRECT_URI}?code=a-code&state=${authUri.searchParams.get('state')}`;

      const events = await send(runner, credentialResponse(request, { redirectUrl }));

      // The user is asked again, the request saying why.
      const [again] = events.flatMap((e) => credentialRequests(e));
      expect(again.originalFunctionCall.name).toBe('notes_sign_in');
      expect(again.error).toMatchObject({ code: 'AUTH_TOKEN_REQUEST_FAILED', message: expect.stringContaining(`is larger than ${MAX_AUTH_RESPONSE_BYTES} bytes`) });
      expect(await written).toBeLessThan(16 * MAX_AUTH_RESPONSE_BYTES);
      expect(await credentialService.loadCredential({ appName: 'notes', userId: 'u1', authConfigId: `mcp:${mcp.url}` })).toBeUndefined();
    } finally {
      await runner.close();
    }
  });
});
