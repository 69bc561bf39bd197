import { LlmAgent } from '../agents/llm-agent';
import { type AuthConfig, authConfigId } from '../auth/auth-config';
import type { AuthCredential } from '../auth/auth-credential';
import type { CredentialKey } from '../auth/credential-service';
import { InMemoryCredentialService } from '../auth/in-memory-credential-service';
import { REQUEST_CREDENTIAL } from '../auth/request-credential';
import { type CredentialRequest, credentialRequests } from '../confirmation/credential-requests';
import { credentialResponse } from '../confirmation/credential-response';
import { findPendingCalls } from '../confirmation/pending-calls';
import { Param } from '../decorators/param.decorator';
import type { Event } from '../events/event';
import { functionTool } from '../function-tool/function-tool';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { type OAuth2TestServer, startOAuth2TestServer } from '../testing/oauth2-test-server';
import { invokeTool } from '../testing/invoke-tool';
import { ScriptedModel, type Script } from '../testing/scripted-model';
import { Tool } from '../tools/tool';
import { ToolContext } from '../tools/tool-context';
import { Toolset } from '../tools/toolset';
import { send } from './__fixtures__/confirmation-fixtures';
import { user } from './__fixtures__/test-tools';
import { Runner } from './runner';

let server: OAuth2TestServer;
let refreshGate: Promise<void> | undefined;

beforeEach(async () => {
  refreshGate = undefined;
  server = await startOAuth2TestServer({ beforeRefresh: () => refreshGate ?? Promise.resolve() });
});
afterEach(() => server.close());

const REDIRECT_URI = 'https://app.example/oauth/callback';
const calendarAuth = (): AuthConfig => ({
  scheme: 'oauth2AuthorizationCode',
  oauth2: {
    clientId: server.clientId,
    clientSecret: server.clientSecret,
    authorizationUrl: server.authorizationUrl,
    tokenUrl: server.tokenUrl,
    scopes: ['calendar.read'],
    redirectUri: REDIRECT_URI,
  },
});

/** The protected API, called with the credential the runner injected. */
async function callApi(credential: AuthCredential | undefined): Promise<Record<string, unknown>> {
  const response = await fetch(server.apiUrl, { headers: { authorization: `Bearer ${credential?.accessToken ?? ''}` } });
  return { status: response.status, ...((await response.json()) as Record<string, unknown>) };
}

const calendarTool = () =>
  functionTool({
    name: 'listEvents',
    description: 'Lists the user calendar events.',
    auth: calendarAuth(),
    execute: async (_args: Record<string, never>, ctx: ToolContext) => ({ ...(await callApi(ctx.credential)), token: ctx.credential?.accessToken }),
  });

function setup(script: Script, options: { credentialService?: InMemoryCredentialService; sessionService?: InMemorySessionService } = {}) {
  const model = new ScriptedModel(script);
  const credentialService = options.credentialService ?? new InMemoryCredentialService();
  const sessionService = options.sessionService ?? new InMemorySessionService();
  const runner = new Runner({ appName: 'cal', agent: new LlmAgent({ name: 'assistant', model, tools: [calendarTool()] }), sessionService, credentialService });
  return { model, runner, credentialService, sessionService };
}

const listCall = (id = 'call-1') => ({ calls: [{ id, name: 'listEvents', args: {} }] });

/** The user's browser: opens the authorization URL and returns where the server redirected it. */
async function consent(request: CredentialRequest): Promise<string> {
  const response = await fetch(request.authConfig.authUri!, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return response.headers.get('location')!;
}

function onlyCredentialRequest(events: readonly Event[]): CredentialRequest {
  const requests = events.flatMap((event) => credentialRequests(event));
  if (requests.length !== 1) throw new Error(`expected one credential request, got ${requests.length}`);
  return requests[0];
}

const key = (): CredentialKey => ({ appName: 'cal', userId: 'u1', authConfigId: '' });

describe('tool authentication: @Tool({ auth }) / functionTool({ auth }) with OAuth2 authorization code + PKCE', () => {
  it('pauses with a credential request, exchanges the redirect for tokens, and runs the original call with the token', async () => {
    const { model, runner, credentialService } = setup([listCall(), 'You have events.']);

    const paused = await send(runner, user('what is on my calendar?'));

    expect(server.apiCalls).toEqual([]); // the tool did not run
    expect(paused).toHaveLength(2);
    const [call] = paused[1].functionCalls();
    expect(call.name).toBe(REQUEST_CREDENTIAL);
    expect(paused[1].longRunningToolIds).toEqual([call.id]);
    const request = onlyCredentialRequest(paused);
    expect(request.originalFunctionCall).toEqual({ id: 'call-1', name: 'listEvents', args: {} });
    const authUri = new URL(request.authConfig.authUri!);
    expect(Object.fromEntries(authUri.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: server.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'calendar.read',
      code_challenge_method: 'S256',
    });
    // What the client and the session see: no client secret, no PKCE verifier.
    const pending = await credentialService.takePendingAuthorization(authUri.searchParams.get('state')!);
    await credentialService.savePendingAuthorization(pending!);
    const visible = JSON.stringify(paused);
    expect(visible).not.toContain(server.clientSecret);
    expect(visible).not.toContain(pending!.codeVerifier);
    expect(authUri.searchParams.get('code_challenge')).not.toBe(pending!.codeVerifier);

    const resumed = await send(runner, credentialResponse(request, { redirectUrl: await consent(request) }));

    expect(server.tokenRequests).toEqual({ authorization_code: 1 });
    const [response] = resumed[0].functionResponses();
    expect(response).toMatchObject({ id: 'call-1', name: 'listEvents', response: { status: 200, subject: 'alice', scope: 'calendar.read' } });
    expect(server.introspect(response.response.token as string)).toMatchObject({ subject: 'alice' });
    expect(resumed.at(-1)!.text()).toBe('You have events.');
    // The model saw its call and the result, never the credential protocol.
    expect(JSON.stringify(model.requests[1].contents)).not.toContain(REQUEST_CREDENTIAL);
    expect(model.requests[1].contents.flatMap((c) => c.parts.filter((p) => p.functionResponse).map((p) => p.functionResponse!.id))).toEqual(['call-1']);
  });

  it('uses the stored credential on later calls without asking again', async () => {
    const { runner } = setup([listCall(), 'first', listCall('call-2'), 'second']);
    const request = onlyCredentialRequest(await send(runner, user('calendar?')));
    await send(runner, credentialResponse(request, { redirectUrl: await consent(request) }));

    const later = await send(runner, user('and now?'));

    expect(later.flatMap((e) => credentialRequests(e))).toEqual([]);
    expect(later[1].functionResponses()[0].response).toMatchObject({ status: 200, subject: 'alice' });
    expect(server.tokenRequests).toEqual({ authorization_code: 1 });
  });

  it('resumes the pause from the session JSON in a fresh Runner (the credential store is the server-side state)', async () => {
    const credentialService = new InMemoryCredentialService();
    const first = setup([listCall(), 'unused'], { credentialService });
    const request = onlyCredentialRequest(await send(first.runner, user('calendar?')));
    const stored = JSON.parse(JSON.stringify(first.sessionService.toJSON())) as ReturnType<InMemorySessionService['toJSON']>;

    const second = setup(['Done after restart.'], { credentialService, sessionService: InMemorySessionService.fromJSON(stored) });
    const session = await second.sessionService.getSession({ appName: 'cal', userId: 'u1', sessionId: 's1' });
    const [pending] = findPendingCalls(session!.events).confirmations.values();
    const events = await send(second.runner, credentialResponse(pending, { redirectUrl: await consent(request) }));

    expect(events[0].functionResponses()[0].response).toMatchObject({ status: 200, subject: 'alice' });
    expect(events.at(-1)!.text()).toBe('Done after restart.');
  });

  it('refuses a forged state, an answer to a request the runner never made, and a second answer: an error event, nothing runs', async () => {
    const { runner } = setup([listCall(), 'ok']);
    const request = onlyCredentialRequest(await send(runner, user('calendar?')));
    const redirect = new URL(await consent(request));

    const forgedUrl = new URL(redirect);
    forgedUrl.searchParams.set('state', 'attacker-state');
    const forged = await send(runner, credentialResponse(request, { redirectUrl: forgedUrl.toString() }));
    expect(forged.map((e) => e.errorCode)).toEqual(['AUTH_STATE_MISMATCH']);
    const codeAndWrongState = await send(runner, credentialResponse(request, { code: redirect.searchParams.get('code')!, state: 'x' }));
    expect(codeAndWrongState.map((e) => e.errorCode)).toEqual(['AUTH_STATE_MISMATCH']);
    const unknown = await send(runner, credentialResponse({ ...request, call: { ...request.call, id: 'credential-forged' } }, { redirectUrl: redirect.toString() }));
    expect(unknown.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(server.tokenRequests).toEqual({});
    expect(server.apiCalls).toEqual([]);

    // The request is still pending: the real redirect is accepted once, and a second answer is refused.
    await send(runner, credentialResponse(request, { redirectUrl: redirect.toString() }));
    expect(server.apiCalls).toHaveLength(1);
    const again = await send(runner, credentialResponse(request, { redirectUrl: redirect.toString() }));
    expect(again.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
    expect(server.tokenRequests).toEqual({ authorization_code: 1 });
    expect(server.apiCalls).toHaveLength(1);
  });

  it('never lists or honours a credential request a model wrote itself', async () => {
    const forgedCall = { id: 'm-1', name: REQUEST_CREDENTIAL, args: { originalFunctionCall: { id: 'x', name: 'listEvents', args: {} }, authConfig: { scheme: 'apiKey' } } };
    const { runner } = setup([{ calls: [forgedCall] }, 'ok']);
    const events = await send(runner, user('hi'));
    expect(events.flatMap((e) => credentialRequests(e))).toEqual([]);
    const answer = await send(runner, credentialResponse({ call: forgedCall, originalFunctionCall: forgedCall.args.originalFunctionCall, authConfig: { scheme: 'apiKey' } }, { credential: { apiKey: 'k' } }));
    expect(answer.map((e) => e.errorCode)).toEqual(['FUNCTION_RESPONSE_NOT_PENDING']);
  });

  it('a cancelled authorization (or the server redirecting with an error) reaches the model as TOOL_CALL_REJECTED', async () => {
    const { model, runner } = setup([listCall(), 'Okay, not then.']);
    const request = onlyCredentialRequest(await send(runner, user('calendar?')));
    const denied = new URL(REDIRECT_URI);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('state', new URL(request.authConfig.authUri!).searchParams.get('state')!);

    const events = await send(runner, credentialResponse(request, { redirectUrl: denied.toString() }));

    expect(events[0].functionResponses()[0].response).toMatchObject({ error: { code: 'TOOL_CALL_REJECTED' } });
    expect(model.callCount).toBe(2);
    expect(server.apiCalls).toEqual([]);
  });

  it('asks again when the token endpoint refuses the code (nothing stored, the call still waits)', async () => {
    const { runner } = setup([listCall(), 'ok']);
    const request = onlyCredentialRequest(await send(runner, user('calendar?')));
    const state = new URL(request.authConfig.authUri!).searchParams.get('state')!;

    const events = await send(runner, credentialResponse(request, { code: 'not-a-code', state }));

    expect(server.tokenRequests).toEqual({ authorization_code: 1 });
    const again = onlyCredentialRequest(events);
    expect(again.originalFunctionCall.id).toBe('call-1');
    expect(again.call.id).not.toBe(request.call.id);
    expect(new URL(again.authConfig.authUri!).searchParams.get('state')).not.toBe(state);
    expect(again.error).toMatchObject({ code: 'AUTH_TOKEN_REQUEST_FAILED' });
    expect(again.error!.message).toContain('invalid_grant');
    expect(again.call.args).toMatchObject({ error: { code: 'AUTH_TOKEN_REQUEST_FAILED' } });
    await send(runner, credentialResponse(again, { redirectUrl: await consent(again) }));
    expect(server.apiCalls).toHaveLength(1);
  });
});

describe('tool authentication: stored tokens, refresh and refresh failure', () => {
  async function signedIn(script: Script) {
    const context = setup([listCall('call-0'), 'signed in', ...(Array.isArray(script) ? script : [])]);
    const request = onlyCredentialRequest(await send(context.runner, user('sign in')));
    await send(context.runner, credentialResponse(request, { redirectUrl: await consent(request) }));
    const id = { ...key(), authConfigId: authConfigId(calendarAuth()) };
    const stored = await context.credentialService.loadCredential(id);
    // The access token dies (on the server and in the store); the refresh token still works.
    server.expireAccessTokens();
    await context.credentialService.saveCredential(id, { ...stored!, expiresAt: Date.now() - 1000 });
    return { ...context, id, stored: stored! };
  }

  it('refreshes an expired token ONCE for 10 parallel calls: all 10 started before the refresh answers', async () => {
    const calls = Array.from({ length: 10 }, (_, index) => ({ id: `p-${index}`, name: 'listEvents', args: {} }));
    const { runner, credentialService, stored } = await signedIn([{ calls }, 'ten done']);
    let loads = 0;
    let allStarted!: () => void;
    refreshGate = new Promise<void>((resolve) => (allStarted = resolve));
    const load = credentialService.loadCredential.bind(credentialService);
    credentialService.loadCredential = async (k) => {
      if (++loads === 10) allStarted(); // the barrier: every call has asked for its credential
      return load(k);
    };

    const events = await send(runner, user('ten at once'));

    expect(loads).toBe(10);
    expect(server.tokenRequests.refresh_token).toBe(1);
    const responses = events.flatMap((e) => e.functionResponses());
    expect(responses).toHaveLength(10);
    const tokens = new Set(responses.map((r) => r.response.token));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).not.toBe(stored.accessToken);
    for (const r of responses) expect(r.response).toMatchObject({ status: 200, subject: 'alice' });
  });

  it('a token endpoint that never answers cannot hold the call past its timeout: TOOL_TIMEOUT, the credential kept', async () => {
    const { model, credentialService, sessionService, id, stored } = await signedIn([listCall('call-2'), 'gave up']);
    let release!: () => void;
    refreshGate = new Promise<void>((resolve) => (release = resolve)); // the endpoint holds the refresh until the end
    const runner = new Runner({ appName: 'cal', agent: new LlmAgent({ name: 'assistant', model, tools: [calendarTool()] }), sessionService, credentialService, toolTimeoutMs: 50 });
    try {
      const events = await send(runner, user('calendar again'));
      expect(events.flatMap((e) => e.functionResponses()).map((r) => r.response)).toEqual([{ error: expect.objectContaining({ code: 'TOOL_TIMEOUT' }) }]);
      expect(events.at(-1)!.text()).toBe('gave up');
      expect(await credentialService.loadCredential(id)).toMatchObject({ accessToken: stored.accessToken, refreshToken: stored.refreshToken });
    } finally {
      release();
    }
  });

  it('a revoked refresh token asks the user again, and the new authorization works', async () => {
    const { runner, credentialService, id } = await signedIn([listCall('call-2'), 'after re-auth']);
    server.revokeRefreshTokens();

    const events = await send(runner, user('calendar again'));

    expect(server.tokenRequests.refresh_token).toBe(1);
    expect(await credentialService.loadCredential(id)).toBeUndefined(); // forgotten, not retried forever
    const request = onlyCredentialRequest(events);
    expect(request.originalFunctionCall.id).toBe('call-2');
    const resumed = await send(runner, credentialResponse(request, { redirectUrl: await consent(request) }));
    expect(resumed[0].functionResponses()[0].response).toMatchObject({ status: 200, subject: 'alice' });
    expect(server.tokenRequests.authorization_code).toBe(2);
  });
});

describe('tool authentication: ctx.requestCredential / ctx.getAuthResponse, other schemes', () => {
  const apiKeyAuth: AuthConfig = { scheme: 'apiKey', name: 'weather-key' };

  @Toolset()
  class WeatherTools {
    readonly seen: Array<string | undefined> = [];

    @Tool({ description: 'Weather from a keyed API.' })
    async forecast(@Param('city') city: string, ctx: ToolContext) {
      const credential = await ctx.getAuthResponse(apiKeyAuth);
      if (!credential) return ctx.requestCredential(apiKeyAuth);
      return { city, key: credential.apiKey };
    }
  }

  it('an API key the user types in: the request carries no authUri, the answer is stored and the call re-runs', async () => {
    const model = new ScriptedModel([{ calls: [{ id: 'w-1', name: 'forecast', args: { city: 'Oslo' } }] }, 'Sunny.']);
    const credentialService = new InMemoryCredentialService();
    const runner = new Runner({ appName: 'wx', agent: new LlmAgent({ name: 'a', model, tools: [WeatherTools] }), credentialService });

    const request = onlyCredentialRequest(await send(runner, user('weather in Oslo')));
    expect(request.authConfig).toEqual({ scheme: 'apiKey', name: 'weather-key' });
    const wrong = await send(runner, credentialResponse(request, { credential: { token: 'not a key' } }));
    expect(wrong.map((e) => e.errorCode)).toEqual(['INVALID_CREDENTIAL_ANSWER']);

    const events = await send(runner, credentialResponse(request, { credential: { apiKey: 'k-123' } }));

    expect(events[0].functionResponses()[0].response).toEqual({ city: 'Oslo', key: 'k-123' });
    expect(await credentialService.loadCredential({ appName: 'wx', userId: 'u1', authConfigId: 'weather-key' })).toEqual({ apiKey: 'k-123' });
  });

  it('client credentials need no user: the token is fetched, stored and reused', async () => {
    const auth: AuthConfig = { scheme: 'oauth2ClientCredentials', oauth2: { clientId: server.clientId, clientSecret: server.clientSecret, tokenUrl: server.tokenUrl } };
    const tool = functionTool({ name: 'svc', description: 'Calls a service API.', auth, execute: async (_a: Record<string, never>, ctx: ToolContext) => callApi(ctx.credential) });
    const model = new ScriptedModel([{ calls: [{ name: 'svc' }] }, 'one', { calls: [{ name: 'svc' }] }, 'two']);
    const runner = new Runner({ appName: 'svc', agent: new LlmAgent({ name: 'a', model, tools: [tool] }), credentialService: new InMemoryCredentialService() });

    const first = await send(runner, user('go'));
    const second = await send(runner, user('again'));

    expect(first[1].functionResponses()[0].response).toMatchObject({ status: 200, subject: server.clientId });
    expect(second[1].functionResponses()[0].response).toMatchObject({ status: 200 });
    expect(server.tokenRequests).toEqual({ client_credentials: 1 });
  });

  it('without a credentialService the tool fails with CREDENTIAL_SERVICE_MISSING and says how to fix it', async () => {
    const model = new ScriptedModel([listCall(), 'ok']);
    const runner = new Runner({ appName: 'cal', agent: new LlmAgent({ name: 'a', model, tools: [calendarTool()] }) });
    const events = await send(runner, user('calendar?'));
    expect(events[1].functionResponses()[0].response).toMatchObject({ error: { code: 'CREDENTIAL_SERVICE_MISSING' } });
  });
});

describe('tool authentication under invokeTool', () => {
  it('runs a tool with auth with the stored credential, and reports the credential request when there is none', async () => {
    const credentialService = new InMemoryCredentialService();
    const waiting = await invokeTool([calendarTool()], 'listEvents', {}, { credentialService, appName: 'cal', userId: 'u1' });
    expect(waiting.confirmationRequested).toBe(true);
    expect(waiting.actions.requestedToolConfirmations?.['call-1']?.auth?.authConfig.authUri).toContain('code_challenge_method=S256');

    const request = { authConfig: waiting.actions.requestedToolConfirmations!['call-1'].auth!.authConfig } as CredentialRequest;
    const { code, state } = Object.fromEntries(new URL(await consent(request)).searchParams);
    const pending = await credentialService.takePendingAuthorization(state);
    const stored = await fetch(server.tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: pending!.codeVerifier, redirect_uri: REDIRECT_URI, client_id: server.clientId, client_secret: server.clientSecret }),
    });
    const tokens = (await stored.json()) as { access_token: string };
    await credentialService.saveCredential({ appName: 'cal', userId: 'u1', authConfigId: authConfigId(calendarAuth()) }, { accessToken: tokens.access_token });

    const ran = await invokeTool([calendarTool()], 'listEvents', {}, { credentialService, appName: 'cal', userId: 'u1' });
    expect(ran.response).toMatchObject({ status: 200, subject: 'alice', token: tokens.access_token });
  });
});
