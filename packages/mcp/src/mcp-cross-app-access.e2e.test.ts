import { type Content, type Event, LlmAgent, type LlmRequest, Runner } from '@toolsmith/core';
import { type OAuth2TestServer, ScriptedModel, startOAuth2TestServer } from '@toolsmith/core/testing';
import { watchTokenRequests } from './__fixtures__/conformance-auth-driver';
import { type CrossAppIdp, startCrossAppIdp } from './__fixtures__/cross-app-idp';
import { type ProtectedResourceFront, parallelRefusals, startProtectedResourceFront } from './__fixtures__/protected-resource-front';
import { serveWhoamiBehindOAuth } from './__fixtures__/whoami-behind-oauth';
import { McpToolset } from './mcp-toolset';
import type { McpServerHandle } from './serve-mcp';

// Cross-app access (SEP-990) against real components: the identity provider (token exchange of each
// user's ID token for an ID-JAG), the local OAuth2 server as the MCP server's authorization server
// (the jwt-bearer grant, its tokens for the ID-JAG's user), and serveMcp's whoami behind the protected
// resource metadata naming it. whoami answers the user of the token the request carried.
const CLIENT_ID = 'assistant';
const CLIENT_SECRET = 'assistant-secret-5d1e';
let idp: CrossAppIdp;
let oauth: OAuth2TestServer;
let mcp: McpServerHandle;
let front: ProtectedResourceFront;
let tokenRequests: ReturnType<typeof watchTokenRequests>;

beforeEach(async () => {
  tokenRequests = watchTokenRequests();
  idp = await startCrossAppIdp(['alice', 'bob']);
  oauth = await startOAuth2TestServer({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, jwtBearer: (assertion) => idp.userOf(assertion) });
  mcp = await serveWhoamiBehindOAuth(oauth);
});
afterEach(async () => {
  tokenRequests.restore();
  await front.close();
  await mcp.close();
  await oauth.close();
  await idp.close();
});

const crossApp = (url: string, scope?: string) =>
  new McpToolset({
    transport: { url },
    oauth: {
      crossAppAccess: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, idp: { tokenEndpoint: idp.tokenEndpoint, clientId: idp.clientId }, idToken: (context) => idp.idTokenOf(context.userId) },
      ...(scope ? { scope } : {}),
    },
  });

/** Calls whoami once per run, then answers: whatever order the runs' requests come in. */
const model = () => new ScriptedModel((request: LlmRequest) => (request.contents.at(-1)?.parts.some((part) => part.functionResponse) ? 'done' : { calls: [{ name: 'whoami' }] }));

async function whoami(runner: Runner, userId: string, sessionId: string): Promise<unknown[]> {
  const events: Event[] = [];
  const message: Content = { role: 'user', parts: [{ text: 'who am I?' }] };
  for await (const event of runner.run({ userId, sessionId, newMessage: message })) events.push(event);
  return events.flatMap((event) => event.functionResponses()).map((response) => response.response);
}

describe('McpToolset with cross-app access', () => {
  it('two users of one toolset get their own tokens, each from an exchange of their own ID token, even at once', async () => {
    front = await startProtectedResourceFront(mcp.url!, oauth.url);
    const runner = new Runner({ appName: 'crm', agent: new LlmAgent({ name: 'a', model: model(), tools: [crossApp(front.url)] }) });
    try {
      const [alice, bob] = await Promise.all([whoami(runner, 'alice', 'a1'), whoami(runner, 'bob', 'b1')]);
      const aliceAgain = await whoami(runner, 'alice', 'a2');

      expect(alice).toEqual([{ userId: 'alice' }]);
      expect(bob).toEqual([{ userId: 'bob' }]);
      expect(aliceAgain).toEqual([{ userId: 'alice' }]); // her own token, kept
      // One exchange per user, each with that user's ID token, for this server at its authorization server.
      expect(idp.exchanges.map(({ user, idToken, audience, resource }) => ({ user, idToken, audience, resource })).sort((a, b) => a.user.localeCompare(b.user))).toEqual(
        ['alice', 'bob'].map((user) => ({ user, idToken: idp.idTokenOf(user), audience: oauth.url, resource: front.url })),
      );
      expect(oauth.tokenRequests).toEqual({ 'urn:ietf:params:oauth:grant-type:jwt-bearer': 2 });
      // Every token the MCP server got is one of the two users', and each request's token is the caller's (whoami says whose).
      const subjects = [...new Set(front.authorizations.filter(Boolean))].map((header) => oauth.introspect(header!.replace(/^Bearer /, ''))?.subject);
      expect(subjects.sort()).toEqual(['alice', 'bob']);
    } finally {
      await runner.close();
    }
  });

  it('a call refused with 403 insufficient_scope steps up for that user: a new exchange for the wider scope, and the call goes through', async () => {
    front = await startProtectedResourceFront(mcp.url!, oauth.url, { callScope: { scope: 'crm.write', scopeOf: (token) => oauth.introspect(token)?.scope } });
    const runner = new Runner({ appName: 'crm', agent: new LlmAgent({ name: 'a', model: model(), tools: [crossApp(front.url, 'crm.read')] }) });
    try {
      expect(await whoami(runner, 'alice', 'a1')).toEqual([{ userId: 'alice' }]);

      expect(idp.exchanges.map((exchange) => exchange.user)).toEqual(['alice', 'alice']);
      const scopes = [...tokenRequests.secretsFor(front.url)].map((secret) => oauth.introspect(secret)?.scope).filter(Boolean);
      expect(scopes).toEqual(['crm.read', 'crm.read crm.write']);
    } finally {
      await runner.close();
    }
  });

  it('parallel calls of one user all refused with the old token: one step-up, and the calls refused after it are sent again with its token', async () => {
    const calls = 4;
    front = await startProtectedResourceFront(mcp.url!, oauth.url, { callScope: { scope: 'crm.write', scopeOf: (token) => oauth.introspect(token)?.scope, ...parallelRefusals(calls) } });
    const parallel = new ScriptedModel((request: LlmRequest) => (request.contents.at(-1)?.parts.some((part) => part.functionResponse) ? 'done' : { calls: Array.from({ length: calls }, () => ({ name: 'whoami' })) }));
    const runner = new Runner({ appName: 'crm', agent: new LlmAgent({ name: 'a', model: parallel, tools: [crossApp(front.url, 'crm.read')] }) });
    try {
      expect(await whoami(runner, 'alice', 'a1')).toEqual(Array.from({ length: calls }, () => ({ userId: 'alice' })));

      expect(idp.exchanges.map((exchange) => exchange.user)).toEqual(['alice', 'alice']);
      const tokens = [...tokenRequests.secretsFor(front.url)].filter((secret) => oauth.introspect(secret)?.scope);
      expect(tokens.map((token) => oauth.introspect(token)?.scope)).toEqual(['crm.read', 'crm.read crm.write']);
      expect(front.authorizations.slice(-calls)).toEqual(Array.from({ length: calls }, () => `Bearer ${tokens[1]}`));
    } finally {
      await runner.close();
    }
  });
});
