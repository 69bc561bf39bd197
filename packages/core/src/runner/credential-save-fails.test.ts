import type { AuthConfig } from '../auth/auth-config';
import type { AuthCredential } from '../auth/auth-credential';
import type { CredentialKey } from '../auth/credential-service';
import { InMemoryCredentialService } from '../auth/in-memory-credential-service';
import { credentialRequests } from '../confirmation/credential-requests';
import { credentialResponse } from '../confirmation/credential-response';
import { findPendingCalls } from '../confirmation/pending-calls';
import { type OAuth2TestServer, startOAuth2TestServer } from '../testing/oauth2-test-server';
import { credentialToolRunner } from './__fixtures__/credential-tool-runner';

const SECRET = 'SECRETVALUE-9f8e7d6c5b4a';

/** A credential service whose next `failures` saves fail with an error that quotes every value of the credential, as it is and in base64. */
class FailingSaves extends InMemoryCredentialService {
  failures = 1;
  readonly failed: AuthCredential[] = [];
  override async saveCredential(key: CredentialKey, credential: AuthCredential): Promise<void> {
    if (this.failures-- > 0) {
      this.failed.push(credential);
      const values = Object.values(credential).filter((value): value is string => typeof value === 'string');
      throw new Error(`connection reset while writing ${values.join(' ')} (${values.map((value) => Buffer.from(value).toString('base64')).join(' ')})`);
    }
    return super.saveCredential(key, credential);
  }
}

function setup(auth: AuthConfig) {
  let ran = 0;
  const runner = credentialToolRunner(auth, new FailingSaves(), (_args, ctx) => ({ ran: ++ran, user: ctx.credential?.username ?? null }));
  return { ...runner, ran: () => ran };
}

describe('a credential service whose save fails', () => {
  it('a typed-in credential: CREDENTIAL_SAVE_FAILED without its values, nothing stored, the request still pending; the same answer then works', async () => {
    const s = setup({ scheme: 'httpBasic', name: 'b' });
    const [request] = (await s.run({ role: 'user', parts: [{ text: 'hi' }] })).flatMap((event) => credentialRequests(event));
    const before = (await s.session()).events.length;
    const answer = credentialResponse(request, { credential: { username: 'bobby', password: SECRET } });

    const failed = await s.run(answer);

    expect(failed.map((event) => event.errorCode)).toEqual(['CREDENTIAL_SAVE_FAILED']);
    expect(failed[0].errorMessage).toMatch(/could not be saved for "b": the credential service failed \(connection reset while writing \[redacted\] \[redacted\] \(\[redacted\] \[redacted\]\)\)\. Nothing of the answer was stored and the request is still pending: send the same answer again\./);
    expect(failed[0].errorDetails).toEqual({ requestId: request.call.id, authConfigId: 'b' });
    const session = await s.session();
    expect(session.events.length).toBe(before);
    expect(JSON.stringify(session)).not.toContain(SECRET);
    expect(JSON.stringify(failed)).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(findPendingCalls(session.events).confirmations.has(request.call.id)).toBe(true);
    expect(s.ran()).toBe(0);

    const again = await s.run(answer);
    expect(again.map((event) => event.errorCode ?? event.functionResponses()[0]?.response ?? event.text())).toEqual([{ ran: 1, user: 'bobby' }, 'done']);
    expect(await s.credentialService.loadCredential({ appName: 'wx', userId: 'u', authConfigId: 'b' })).toEqual({ username: 'bobby', password: SECRET });
    // Nothing was left half-done: the next message interrupts no call.
    const next = await s.run({ role: 'user', parts: [{ text: 'and now?' }] });
    expect(next.map((event) => event.errorCode ?? (event.functionResponses()[0]?.response as { error?: { code: string } } | undefined)?.error?.code)).not.toContain('TOOL_INTERRUPTED');
    expect(JSON.stringify(await s.session())).not.toContain(SECRET);
  });

  describe('after an authorization code was exchanged (the code is spent)', () => {
    let server: OAuth2TestServer;
    beforeEach(async () => {
      server = await startOAuth2TestServer();
    });
    afterEach(() => server.close());

    it('the call asks again at once, its new request saying CREDENTIAL_SAVE_FAILED without the tokens; that sign-in works', async () => {
      const s = setup({
        scheme: 'oauth2AuthorizationCode',
        name: 'cal',
        oauth2: { clientId: server.clientId, clientSecret: server.clientSecret, authorizationUrl: server.authorizationUrl, tokenUrl: server.tokenUrl, scopes: ['calendar.read'], redirectUri: 'https://app.example/cb' },
      });
      const consent = async (authUri: string) => (await fetch(authUri, { redirect: 'manual' })).headers.get('location')!;
      const [request] = (await s.run({ role: 'user', parts: [{ text: 'hi' }] })).flatMap((event) => credentialRequests(event));

      const failed = await s.run(credentialResponse(request, { redirectUrl: await consent(request.authConfig.authUri!) }));

      const [asked] = failed.flatMap((event) => credentialRequests(event));
      expect(asked.originalFunctionCall.id).toBe('c1');
      expect(asked.error).toEqual({ code: 'CREDENTIAL_SAVE_FAILED', message: expect.stringMatching(/^The tokens for "cal" could not be saved: the credential service failed \(connection reset while writing \[redacted\]/) });
      expect(server.tokenRequests.authorization_code).toBe(1);
      const stored = JSON.stringify(await s.session());
      const [lost] = s.credentialService.failed;
      expect(lost.accessToken).toBeDefined();
      for (const token of [lost.accessToken!, lost.refreshToken!]) {
        expect(stored).not.toContain(token);
        expect(JSON.stringify(failed)).not.toContain(token);
      }
      expect(await s.credentialService.loadCredential({ appName: 'wx', userId: 'u', authConfigId: 'cal' })).toBeUndefined();

      const signedIn = await s.run(credentialResponse(asked, { redirectUrl: await consent(asked.authConfig.authUri!) }));
      expect(signedIn.map((event) => event.errorCode ?? event.functionResponses()[0]?.response ?? event.text())).toEqual([{ ran: 1, user: null }, 'done']);
    });
  });
});
