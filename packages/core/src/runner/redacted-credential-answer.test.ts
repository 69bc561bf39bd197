import type { AuthConfig } from '../auth/auth-config';
import { InMemoryCredentialService } from '../auth/in-memory-credential-service';
import { credentialRequests } from '../confirmation/credential-requests';
import { credentialResponse } from '../confirmation/credential-response';
import { findPendingCalls } from '../confirmation/pending-calls';
import { credentialToolRunner } from './__fixtures__/credential-tool-runner';

function setup(auth: AuthConfig) {
  return credentialToolRunner(auth, new InMemoryCredentialService(), (_args, ctx) => ({ with: ctx.credential }));
}

describe('a typed-in credential answer with a value "[redacted]" (read back from the stored session)', () => {
  it.each<[string, AuthConfig, Record<string, string>, string]>([
    ['every value, apiKey', { scheme: 'apiKey', name: 'k' }, { apiKey: '[redacted]' }, '"credential.apiKey" is "[redacted]"'],
    ['every value, httpBasic', { scheme: 'httpBasic', name: 'b' }, { username: '[redacted]', password: '[redacted]' }, '"credential.username", "credential.password" are "[redacted]"'],
    ['one value of two', { scheme: 'httpBasic', name: 'b' }, { username: 'bob', password: '[redacted]' }, '"credential.password" is "[redacted]"'],
  ])('is refused (%s): INVALID_CREDENTIAL_ANSWER naming the fields, nothing stored or saved, the request still pending', async (_label, auth, credential, named) => {
    const s = setup(auth);
    const [request] = (await s.run({ role: 'user', parts: [{ text: 'hi' }] })).flatMap((event) => credentialRequests(event));
    const before = (await s.session()).events.length;

    const refused = await s.run(credentialResponse(request, { credential }));

    expect(refused.map((event) => event.errorCode)).toEqual(['INVALID_CREDENTIAL_ANSWER']);
    expect(refused[0].errorMessage).toContain(named);
    const session = await s.session();
    expect(session.events.length).toBe(before);
    expect(findPendingCalls(session.events).confirmations.has(request.call.id)).toBe(true);
    expect(await s.credentialService.loadCredential({ appName: 'wx', userId: 'u', authConfigId: auth.name! })).toBeUndefined();

    // The key itself is then taken.
    const key = Object.fromEntries(Object.keys(credential).map((field) => [field, `${field}-typed-1234`]));
    const typed = await s.run(credentialResponse(request, { credential: key }));
    expect(typed.map((event) => event.errorCode ?? event.functionResponses()[0]?.response ?? event.text())).toEqual([{ with: key }, 'done']);
  });

  it('a replay of the answer the session stored is refused after a typed answer was taken', async () => {
    const s = setup({ scheme: 'apiKey', name: 'k' });
    const [first] = (await s.run({ role: 'user', parts: [{ text: 'hi' }] })).flatMap((event) => credentialRequests(event));
    await s.run(credentialResponse(first, { credential: { apiKey: 'key-typed-1234' } }));
    const stored = (await s.session()).events.find((event) => event.content?.parts[0]?.functionResponse?.id === first.call.id)!;
    expect(stored.content!.parts[0].functionResponse!.response).toEqual({ credential: { apiKey: '[redacted]' } });
    await s.credentialService.deleteCredential({ appName: 'wx', userId: 'u', authConfigId: 'k' });
    const [second] = (await s.run({ role: 'user', parts: [{ text: 'again' }] })).flatMap((event) => credentialRequests(event));

    const replayed = await s.run(credentialResponse(second, stored.content!.parts[0].functionResponse!.response as { credential: { apiKey: string } }));

    expect(replayed.map((event) => event.errorCode)).toEqual(['INVALID_CREDENTIAL_ANSWER']);
    expect(await s.credentialService.loadCredential({ appName: 'wx', userId: 'u', authConfigId: 'k' })).toBeUndefined();
  });
});
