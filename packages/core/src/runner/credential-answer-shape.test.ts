import type { AuthConfig } from '../auth/auth-config';
import { InMemoryCredentialService } from '../auth/in-memory-credential-service';
import { REQUEST_CREDENTIAL } from '../auth/request-credential';
import { credentialRequests } from '../confirmation/credential-requests';
import { findPendingCalls } from '../confirmation/pending-calls';
import type { Content } from '../model/content';
import { credentialToolRunner } from './__fixtures__/credential-tool-runner';

const SECRET = 'SECRETVALUE-9f8e7d6c5b4a';

function setup(auth: AuthConfig) {
  const { run, session, credentialService } = credentialToolRunner(auth, new InMemoryCredentialService(), () => ({ ok: true }));
  const answer = (id: string, response: Record<string, unknown>): Content => ({ role: 'user', parts: [{ functionResponse: { id, name: REQUEST_CREDENTIAL, response } }] });
  return { run, session, answer, credentialService };
}

describe('a credential answer with members outside its documented shape', () => {
  it.each<[string, AuthConfig, Record<string, unknown>, string[]]>([
    ['a password beside the credential (a sign-in form posted whole)', { scheme: 'httpBasic', name: 'b' }, { credential: { username: 'bob', password: SECRET }, password: SECRET, passwordConfirm: SECRET }, ['"password", "passwordConfirm"']],
    ['a note beside the credential', { scheme: 'apiKey', name: 'k' }, { credential: { apiKey: 'k1234567' }, note: SECRET }, ['"note"']],
    ['"cancelled": false and a reason', { scheme: 'apiKey', name: 'k' }, { credential: { apiKey: 'k1234567' }, cancelled: false, reason: SECRET }, ['"cancelled", "reason"']],
    ['a field the scheme does not take, inside the credential', { scheme: 'apiKey', name: 'k' }, { credential: { apiKey: 'k1234567', meta: { hint: SECRET } } }, ['fields the apiKey scheme does not take ("meta")']],
    ['a member named like a secret', { scheme: 'httpBearer', name: 't' }, { credential: { token: 'tok-1234' }, [SECRET]: 1 }, ['1 member whose name is not shown']],
    ['a cancellation with a reason', { scheme: 'apiKey', name: 'k' }, { cancelled: true, reason: SECRET }, ['outside { "cancelled": true } ("reason")']],
  ])('is refused, every such member named and no value quoted: %s; nothing is stored, the request stays pending', async (_label, auth, response, named) => {
    const s = setup(auth);
    const [request] = (await s.run({ role: 'user', parts: [{ text: 'hi' }] })).flatMap((event) => credentialRequests(event));
    const before = (await s.session()).events.length;

    const refused = await s.run(s.answer(request.call.id, response));

    expect(refused.map((event) => event.errorCode)).toEqual(['INVALID_CREDENTIAL_ANSWER']);
    for (const name of named) expect(refused[0].errorMessage).toContain(name);
    expect(JSON.stringify(refused)).not.toContain(SECRET);
    const session = await s.session();
    expect(session.events.length).toBe(before);
    expect(JSON.stringify(session)).not.toContain(SECRET);
    expect(findPendingCalls(session.events).confirmations.has(request.call.id)).toBe(true);
    expect(await s.credentialService.loadCredential({ appName: 'wx', userId: 'u', authConfigId: auth.name! })).toBeUndefined();
  });

  it('names every problem of one answer at once', async () => {
    const s = setup({ scheme: 'httpBasic', name: 'b' });
    const [request] = (await s.run({ role: 'user', parts: [{ text: 'hi' }] })).flatMap((event) => credentialRequests(event));
    const [refused] = await s.run(s.answer(request.call.id, { credential: { username: 'bob', pin: SECRET }, remember: true }));
    expect(refused.errorMessage).toContain('beside "credential" ("remember")');
    expect(refused.errorMessage).toContain('"credential.password" must be a non-empty string');
    expect(refused.errorMessage).toContain('does not take ("pin")');
    expect(refused.errorMessage).not.toContain(SECRET);
  });

  it('an OAuth2 answer with a member beside "redirectUrl" or "code" and "state" is refused too; members that are null count as absent', async () => {
    const auth: AuthConfig = { scheme: 'oauth2AuthorizationCode', name: 'o', oauth2: { clientId: 'c', authorizationUrl: 'https://id.example/a', tokenUrl: 'https://id.example/t', redirectUri: 'https://app.example/cb' } };
    const s = setup(auth);
    const [request] = (await s.run({ role: 'user', parts: [{ text: 'hi' }] })).flatMap((event) => credentialRequests(event));
    const state = new URL(request.authConfig.authUri!).searchParams.get('state')!;
    const withUrl = await s.run(s.answer(request.call.id, { redirectUrl: `https://app.example/cb?state=${state}&error=access_denied`, password: SECRET }));
    expect(withUrl.map((event) => event.errorCode)).toEqual(['INVALID_CREDENTIAL_ANSWER']);
    expect(withUrl[0].errorMessage).toContain('outside { "redirectUrl": "..." } ("password")');
    const withCode = await s.run(s.answer(request.call.id, { code: 'abc', state, note: SECRET }));
    expect(withCode[0].errorMessage).toContain('outside { "code": "...", "state": "..." } ("note")');
    // The user declining, with a null a JSON client wrote for an absent field: accepted.
    const declined = await s.run(s.answer(request.call.id, { redirectUrl: `https://app.example/cb?state=${state}&error=access_denied`, code: null }));
    expect(declined[0].functionResponses()[0].response).toMatchObject({ error: { code: 'TOOL_CALL_REJECTED' } });
  });

  it('the same answer without the extra members is taken', async () => {
    const s = setup({ scheme: 'httpBasic', name: 'b' });
    const [request] = (await s.run({ role: 'user', parts: [{ text: 'hi' }] })).flatMap((event) => credentialRequests(event));
    await s.run(s.answer(request.call.id, { credential: { username: 'bob', password: SECRET }, passwordConfirm: SECRET }));
    const taken = await s.run(s.answer(request.call.id, { credential: { username: 'bob', password: SECRET } }));
    expect(taken.map((event) => event.errorCode ?? event.functionResponses()[0]?.response ?? event.text())).toEqual([{ ok: true }, 'done']);
    expect(await s.credentialService.loadCredential({ appName: 'wx', userId: 'u', authConfigId: 'b' })).toEqual({ username: 'bob', password: SECRET });
    expect(JSON.stringify(await s.session())).not.toContain(SECRET);
  });
});
