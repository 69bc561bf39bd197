import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type OAuth2TestServer, startOAuth2TestServer } from '../testing/oauth2-test-server';
import type { AuthConfig } from './auth-config';
import { CredentialManager, credentialKey } from './credential-manager';
import { InMemoryCredentialService } from './in-memory-credential-service';
import { parseRedirectUrl, requestToken } from './oauth2-client';

// A token endpoint that accepts the request and then stalls: it sends the headers and one byte of the
// body (`trickle`), or nothing at all (`silent`), and never ends. Every stalled answer is released when
// the client drops its connection (recorded in `dropped`) or when the test ends.
let oauth: OAuth2TestServer;
let stalled: ReturnType<typeof createServer>;
let stallUrl: string;
let mode: 'trickle' | 'silent';
let dropped: Promise<void>;
let drop: () => void;
const held: ServerResponse[] = [];

beforeEach(async () => {
  oauth = await startOAuth2TestServer();
  mode = 'trickle';
  dropped = new Promise((resolve) => (drop = resolve));
  stalled = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    held.push(res);
    res.on('close', () => drop());
    if (mode === 'trickle') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
    }
  });
  await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
  stallUrl = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}/token`;
});
afterEach(async () => {
  for (const res of held.splice(0)) res.destroy();
  await new Promise<void>((resolve) => {
    stalled.closeAllConnections();
    stalled.close(() => resolve());
  });
  await oauth.close();
});

const alice = { appName: 'app', userId: 'alice' };
const config = (tokenUrl: string): AuthConfig => ({
  scheme: 'oauth2AuthorizationCode',
  oauth2: { clientId: oauth.clientId, clientSecret: oauth.clientSecret, authorizationUrl: oauth.authorizationUrl, tokenUrl, redirectUri: 'https://app.example/cb', requestTimeoutMs: 200 },
});

async function signIn(manager: CredentialManager, withConfig: AuthConfig) {
  const authUri = (await manager.begin(alice, withConfig)).authConfig.authUri!;
  const { code, state } = parseRedirectUrl((await fetch(authUri, { redirect: 'manual' })).headers.get('location')!)!;
  return manager.completeCode(alice, code!, state!);
}

describe('oauth2.requestTimeoutMs: the deadline of a token request, its answer read in full', () => {
  it('a code exchange whose answer trickles: AUTH_TOKEN_REQUEST_FAILED with cause AUTH_RESPONSE_TIMEOUT naming the endpoint; the connection is dropped, nothing stored', async () => {
    const service = new InMemoryCredentialService();
    const manager = new CredentialManager(service);

    const error = await signIn(manager, config(`${stallUrl}?tenant=acme`)).catch((thrown: unknown) => thrown);

    expect(error).toMatchObject({
      code: 'AUTH_TOKEN_REQUEST_FAILED',
      status: undefined,
      message: expect.stringContaining('did not answer within 200 ms'),
      cause: expect.objectContaining({ code: 'AUTH_RESPONSE_TIMEOUT', url: stallUrl, timeoutMs: 200 }),
    });
    // The message names the endpoint's origin and path only, like its cause: not the query.
    expect((error as Error).message).toContain(`The token endpoint ${stallUrl} could not be reached`);
    expect((error as Error).message).not.toContain('tenant=acme');
    // So do its details, which the model reads and the session stores.
    expect((error as { details: unknown }).details).toMatchObject({ tokenUrl: stallUrl, grantType: 'authorization_code' });
    expect(JSON.stringify((error as { details: unknown }).details)).not.toContain('tenant=acme');
    await dropped; // the client aborted the request: the server's answer is closed
    expect(await service.loadCredential(credentialKey(alice, config(stallUrl)))).toBeUndefined();
  });

  it('a refresh the endpoint never answers: the retriable AUTH_TOKEN_ENDPOINT_UNAVAILABLE, the credential kept', async () => {
    mode = 'silent';
    const service = new InMemoryCredentialService();
    const signedIn = (await signIn(new CredentialManager(service), config(oauth.tokenUrl)))!;
    const expired = { ...signedIn, expiresAt: Date.now() - 1 };
    const stalling = config(stallUrl);
    await service.saveCredential(credentialKey(alice, stalling), expired);

    const error = await new CredentialManager(service).current(alice, stalling).catch((thrown: unknown) => thrown);

    expect(error).toMatchObject({ code: 'AUTH_TOKEN_ENDPOINT_UNAVAILABLE', isRetryable: true, cause: expect.objectContaining({ cause: expect.objectContaining({ code: 'AUTH_RESPONSE_TIMEOUT' }) }) });
    await dropped;
    expect(await service.loadCredential(credentialKey(alice, stalling))).toEqual(expired);
  });

  it('a client credentials request the endpoint never answers: AUTH_TOKEN_REQUEST_FAILED with cause AUTH_RESPONSE_TIMEOUT', async () => {
    mode = 'silent';
    const machine: AuthConfig = { scheme: 'oauth2ClientCredentials', oauth2: { clientId: 'app', clientSecret: 'app-secret', tokenUrl: stallUrl, requestTimeoutMs: 200 } };

    const error = await new CredentialManager(new InMemoryCredentialService()).current(alice, machine).catch((thrown: unknown) => thrown);

    expect(error).toMatchObject({ code: 'AUTH_TOKEN_REQUEST_FAILED', status: undefined, cause: expect.objectContaining({ code: 'AUTH_RESPONSE_TIMEOUT', url: stallUrl }) });
    await dropped;
  });

  it('a token request that answers in time is unaffected; a deadline that is not a number above 0 and at most 2147483647 is AUTH_CONFIG_INVALID, saying so', async () => {
    const client = { clientId: oauth.clientId, clientSecret: oauth.clientSecret, tokenUrl: oauth.tokenUrl, requestTimeoutMs: 60_000 };
    await expect(requestToken(client, { grant_type: 'client_credentials' })).resolves.toMatchObject({ tokenType: 'Bearer' });
    const machine = (requestTimeoutMs: unknown): AuthConfig => ({ scheme: 'oauth2ClientCredentials', oauth2: { ...client, requestTimeoutMs: requestTimeoutMs as number } });
    for (const [invalid, shown] of [[0, '0'], [-1, '-1'], [Number.NaN, 'NaN'], [Number.POSITIVE_INFINITY, 'Infinity'], [2 ** 31, '2147483648'], ['200', '"200"']] as const) {
      const refused = new CredentialManager(new InMemoryCredentialService()).current(alice, machine(invalid));
      await expect(refused).rejects.toMatchObject({
        code: 'AUTH_CONFIG_INVALID',
        message: `The auth config is invalid: "oauth2.requestTimeoutMs" must be a number of milliseconds above 0 and at most 2147483647; got ${shown}. Fix: give "oauth2.requestTimeoutMs" a number of milliseconds in that range, or leave it out for no deadline.`,
      });
    }
    // The largest value Node's timers hold is accepted.
    await expect(new CredentialManager(new InMemoryCredentialService()).current(alice, machine(2 ** 31 - 1))).resolves.toMatchObject({ tokenType: 'Bearer' });
  });
});
