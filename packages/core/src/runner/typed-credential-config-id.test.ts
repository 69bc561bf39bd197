import { LlmAgent } from '../agents/llm-agent';
import { type AuthConfig, authConfigId, publicAuthConfig } from '../auth/auth-config';
import { InMemoryCredentialService } from '../auth/in-memory-credential-service';
import { credentialRequests } from '../confirmation/credential-requests';
import { credentialResponse } from '../confirmation/credential-response';
import { functionTool } from '../function-tool/function-tool';
import type { Content } from '../model/content';
import { collect } from '../testing/collect';
import { ScriptedModel } from '../testing/scripted-model';
import type { ToolContext } from '../tools/tool-context';
import { Runner } from './runner';

const noParams = { type: 'object', properties: {}, additionalProperties: false } as const;

// An unnamed config is stored under a hash of its client; a typed-in credential is saved under the config
// the request showed (publicAuthConfig: the token URL's origin and path only), and the tool looks it up under its own.
describe('an unnamed typed-in config whose oauth2.tokenUrl has a query, fragment or user info', () => {
  const tokenUrl = 'https://id.example/token?tenant=acme&k=Q-9f8e#frag';
  it.each<[AuthConfig, Record<string, string>]>([
    [{ scheme: 'apiKey', oauth2: { clientId: 'c', tokenUrl } }, { apiKey: 'key-typed-1234' }],
    [{ scheme: 'httpBearer', oauth2: { clientId: 'c', tokenUrl: 'https://u:p@id.example/token?x=1' } }, { token: 'tok-typed-1234' }],
    [{ scheme: 'httpBasic', oauth2: { clientId: 'c', tokenUrl } }, { username: 'bob', password: 'pw-typed-1234' }],
    // Not a web scheme (its URL origin is "null"): shown as scheme and path, the same id either way.
    [{ scheme: 'apiKey', oauth2: { clientId: 'c', tokenUrl: 'urn:example:token' } }, { apiKey: 'key-typed-1234' }],
    [{ scheme: 'apiKey', oauth2: { clientId: 'c', tokenUrl: 'file:///etc/token' } }, { apiKey: 'key-typed-1234' }],
    [{ scheme: 'httpBearer', oauth2: { clientId: 'c', tokenUrl: 'custom-scheme://u:p@host/path?x=1#f' } }, { token: 'tok-typed-1234' }],
  ])('%j: answered once, the tool runs with it, and the next call finds it without asking', async (auth, credential) => {
    expect(authConfigId(publicAuthConfig(auth))).toBe(authConfigId(auth));
    const tool = functionTool({ name: 'svc', description: 'S.', parameters: noParams, auth, execute: (_args: Record<string, never>, ctx: ToolContext) => ({ with: ctx.credential }) });
    const model = new ScriptedModel((request) => (request.contents.at(-1)?.parts[0]?.functionResponse?.name === 'svc' ? 'done' : { calls: [{ id: `c${request.contents.length}`, name: 'svc', args: {} }] }));
    const runner = new Runner({ appName: 'wx', agent: new LlmAgent({ name: 'a', model, tools: [tool] }), credentialService: new InMemoryCredentialService() });
    const run = (newMessage: Content) => collect(runner.run({ userId: 'u', sessionId: 's', newMessage }));
    const [request] = (await run({ role: 'user', parts: [{ text: 'hi' }] })).flatMap((event) => credentialRequests(event));

    const answered = await run(credentialResponse(request, { credential }));

    expect(answered.map((event) => credentialRequests(event).length > 0 ? 'asked again' : (event.errorCode ?? event.functionResponses()[0]?.response ?? event.text()))).toEqual([{ with: credential }, 'done']);
    const next = await run({ role: 'user', parts: [{ text: 'again' }] });
    expect(next.flatMap((event): unknown[] => (credentialRequests(event).length > 0 ? ['asked again'] : event.functionResponses().map((response) => response.response)))).toEqual([{ with: credential }]);
  });
});
