import { InMemoryCredentialService, LlmAgent, type AuthConfig, Runner, authConfigId, credentialRequests, credentialResponse, type Content, type Event } from '@toolsmith/core';
import { type OAuth2TestServer, ScriptedModel, startOAuth2TestServer } from '@toolsmith/core/testing';
import { McpToolset } from './mcp-toolset';
import { serveWhoamiBehindOAuth } from './__fixtures__/whoami-behind-oauth';
import type { McpServerHandle } from './serve-mcp';

/** An MCP server behind OAuth: serveMcp's authenticate hook accepts the authorization server's live bearer tokens. */
let oauth: OAuth2TestServer;
let mcp: McpServerHandle;

beforeEach(async () => {
  oauth = await startOAuth2TestServer({ subject: 'alice' });
  mcp = await serveWhoamiBehindOAuth(oauth);
});
afterEach(async () => {
  await mcp.close();
  await oauth.close();
});

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
async function send(runner: Runner, newMessage: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage })) events.push(event);
  return events;
}

describe('McpToolset with an MCP server that requires OAuth', () => {
  it('offers a sign-in tool, pauses for the user, exchanges the code, then lists and calls the server tools with the user token', async () => {
    const authConfig: AuthConfig = {
      scheme: 'oauth2AuthorizationCode',
      oauth2: {
        clientId: oauth.clientId,
        clientSecret: oauth.clientSecret,
        authorizationUrl: oauth.authorizationUrl,
        tokenUrl: oauth.tokenUrl,
        scopes: ['mcp'],
        redirectUri: 'https://app.example/callback',
      },
    };
    const credentialService = new InMemoryCredentialService();
    const toolset = new McpToolset({ transport: { url: mcp.url! }, prefix: 'notes_', oauth: { authConfig, credentialService } });
    const model = new ScriptedModel([{ calls: [{ id: 's-1', name: 'notes_sign_in' }] }, { calls: [{ id: 'w-1', name: 'notes_whoami' }] }, 'You are alice.', 'Please sign in first.']);
    const runner = new Runner({ appName: 'notes', agent: new LlmAgent({ name: 'a', model, tools: [toolset] }), credentialService });
    try {
      const paused = await send(runner, user('who am I on the notes server?'));

      expect(model.requests[0].tools.map((t) => t.name)).toEqual(['notes_sign_in']);
      const [request] = paused.flatMap((e) => credentialRequests(e));
      expect(request.originalFunctionCall.name).toBe('notes_sign_in');
      const redirect = await fetch(request.authConfig.authUri!, { redirect: 'manual' });

      const events = await send(runner, credentialResponse(request, { redirectUrl: redirect.headers.get('location')! }));

      expect(oauth.tokenRequests).toEqual({ authorization_code: 1 });
      const responses = events.flatMap((e) => e.functionResponses());
      expect(responses.map((r) => [r.name, r.response])).toEqual([
        ['notes_sign_in', { status: 'signed_in', note: "The server's tools are available from the next step." }],
        ['notes_whoami', { userId: 'alice' }], // the MCP server saw alice's token
      ]);
      expect(events.at(-1)!.text()).toBe('You are alice.');

      // Another user of the same toolset has no token: they are offered the sign-in tool, never alice's session.
      const bob: Event[] = [];
      for await (const event of runner.run({ userId: 'bob', sessionId: 'b1', newMessage: user('and me?') })) bob.push(event);
      expect(model.requests.at(-1)!.tools.map((t) => t.name)).toEqual(['notes_sign_in']);
    } finally {
      await runner.close();
    }
  });

  it('an expired token: the sign-in tool is offered again and refreshes it without asking the user', async () => {
    const authConfig: AuthConfig = {
      scheme: 'oauth2AuthorizationCode',
      oauth2: { clientId: oauth.clientId, clientSecret: oauth.clientSecret, authorizationUrl: oauth.authorizationUrl, tokenUrl: oauth.tokenUrl, redirectUri: 'https://app.example/callback' },
    };
    const credentialService = new InMemoryCredentialService();
    const toolset = new McpToolset({ transport: { url: mcp.url! }, prefix: 'notes_', oauth: { authConfig, credentialService } });
    const model = new ScriptedModel([
      { calls: [{ id: 's-1', name: 'notes_sign_in' }] },
      'signed in',
      { calls: [{ id: 's-2', name: 'notes_sign_in' }] },
      { calls: [{ id: 'w-2', name: 'notes_whoami' }] },
      'still alice',
    ]);
    const runner = new Runner({ appName: 'notes', agent: new LlmAgent({ name: 'a', model, tools: [toolset] }), credentialService });
    try {
      const [request] = (await send(runner, user('sign me in'))).flatMap((e) => credentialRequests(e));
      await send(runner, credentialResponse(request, { redirectUrl: (await fetch(request.authConfig.authUri!, { redirect: 'manual' })).headers.get('location')! }));
      const key = { appName: 'notes', userId: 'u1', authConfigId: authConfigId(authConfig) };
      oauth.expireAccessTokens();
      await credentialService.saveCredential(key, { ...(await credentialService.loadCredential(key))!, expiresAt: Date.now() - 1000 });

      const events = await send(runner, user('who am I now?'));

      expect(events.flatMap((e) => credentialRequests(e))).toEqual([]); // nobody was asked
      expect(oauth.tokenRequests).toEqual({ authorization_code: 1, refresh_token: 1 });
      expect(events.flatMap((e) => e.functionResponses()).map((r) => r.response)).toEqual([
        { status: 'signed_in', note: "The server's tools are available from the next step." },
        { userId: 'alice' },
      ]);
    } finally {
      await runner.close();
    }
  });
});
