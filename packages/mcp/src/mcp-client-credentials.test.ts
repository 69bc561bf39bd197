import { generateKeyPairSync } from 'node:crypto';
import { InMemoryCredentialService, ToolsmithError } from '@toolsmith/core';
import { McpToolset, type McpToolsetOptions } from './index';

const url = 'http://127.0.0.1:1/mcp';
const pem = (key: ReturnType<typeof generateKeyPairSync>['privateKey']) => key.export({ type: 'pkcs8', format: 'pem' }).toString();
const ecKey = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
const rsaKey = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);

/** The construction error of a toolset with `oauth`, as code and message. */
function refusal(oauth: unknown, transport: McpToolsetOptions['transport'] = { url }): { code: string; message: string } | undefined {
  try {
    new McpToolset({ transport, oauth: oauth as McpToolsetOptions['oauth'] });
    return undefined;
  } catch (error) {
    if (!(error instanceof ToolsmithError)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe('McpToolset with the app’s client credentials: construction', () => {
  it('accepts a client secret, or a PKCS#8 PEM or JWK private key of the algorithm’s family', () => {
    expect(refusal({ clientCredentials: { clientId: 'app', clientSecret: 's3cret' }, scope: 'notes.read', issuer: 'https://auth.example' })).toBeUndefined();
    expect(refusal({ clientCredentials: { clientId: 'app', privateKey: ecKey, algorithm: 'ES256' } })).toBeUndefined();
    expect(refusal({ clientCredentials: { clientId: 'app', privateKey: rsaKey, algorithm: 'PS384' } })).toBeUndefined();
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'jwk' });
    expect(refusal({ clientCredentials: { clientId: 'app', privateKey: jwk, algorithm: 'ES384' } })).toBeUndefined();
  });

  it.each([
    ['no client id', { clientCredentials: { clientSecret: 's3cret' } }, 'needs a non-empty "clientId"'],
    ['neither a secret nor a key', { clientCredentials: { clientId: 'app' } }, 'needs exactly one of "clientSecret" (client_secret_basic) and "privateKey" (private_key_jwt)'],
    ['both a secret and a key', { clientCredentials: { clientId: 'app', clientSecret: 's', privateKey: ecKey, algorithm: 'ES256' } }, 'needs exactly one of'],
    ['an empty secret', { clientCredentials: { clientId: 'app', clientSecret: '' } }, 'needs "clientSecret" to be a non-empty string'],
    ['an unknown algorithm', { clientCredentials: { clientId: 'app', privateKey: ecKey, algorithm: 'HS256' } }, 'has "algorithm" "HS256"; it must be one of RS256'],
    ['a key of another family', { clientCredentials: { clientId: 'app', privateKey: ecKey, algorithm: 'RS256' } }, 'has a "privateKey" that cannot sign RS256: it is a ec key, which cannot sign RS256'],
    ['a key on another curve', { clientCredentials: { clientId: 'app', privateKey: ecKey, algorithm: 'ES384' } }, 'it is an EC key on curve prime256v1, and ES384 needs secp384r1'],
    ['a key that is no private key', { clientCredentials: { clientId: 'app', privateKey: 'not a key', algorithm: 'ES256' } }, 'it is neither a PKCS#8 PEM private key'],
    ['a public JWK', { clientCredentials: { clientId: 'app', privateKey: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }, algorithm: 'ES256' } }, 'it is neither a PKCS#8 PEM private key'],
    ['a scope that is no string', { clientCredentials: { clientId: 'app', clientSecret: 's' }, scope: ['a'] }, '"oauth.scope" must be a string'],
    ['an issuer that is no URL', { clientCredentials: { clientId: 'app', clientSecret: 's' }, issuer: 'auth server' }, `"oauth.issuer" must be the authorization server's issuer URL`],
    ['the per-user options too', { clientCredentials: { clientId: 'app', clientSecret: 's' }, credentialService: new InMemoryCredentialService(), redirectUri: 'https://app.example/cb' }, 'takes no "credentialService", "redirectUri"'],
  ])('refuses %s with MCP_OAUTH_CONFIG_INVALID, naming the field and never the key', (_case, oauth, expected) => {
    const refused = refusal(oauth);
    expect(refused?.code).toBe('MCP_OAUTH_CONFIG_INVALID');
    expect(refused?.message).toContain(expected);
    expect(refused?.message).not.toContain(ecKey.split('\n')[1]);
  });

  it('refuses client credentials for a stdio server, which takes no token', () => {
    expect(refusal({ clientCredentials: { clientId: 'app', clientSecret: 's' } }, { command: 'node', args: ['server.js'] })?.code).toBe('INVALID_MCP_TRANSPORT');
  });

  it('needs no run context: the token is the app’s', async () => {
    const toolset = new McpToolset({ transport: { url: 'http://127.0.0.1:9/mcp' }, oauth: { clientCredentials: { clientId: 'app', clientSecret: 's' } }, connectTimeoutMs: 5_000 });
    // Nothing listens there: the listing fails to connect, not for want of a context (MCP_CONTEXT_REQUIRED).
    await expect(toolset.listPrompts()).rejects.toMatchObject({ code: 'MCP_CONNECTION_FAILED' });
    await toolset.close();
  });
});

describe('McpToolset with cross-app access: construction', () => {
  const access = { clientId: 'assistant', clientSecret: 's3cret', idp: { tokenEndpoint: 'https://idp.example/token', clientId: 'assistant-at-idp' }, idToken: () => 'id-token' };

  it('accepts a client, an identity provider and an idToken function', () => {
    expect(refusal({ crossAppAccess: access, scope: 'crm.read' })).toBeUndefined();
  });

  it.each([
    ['no client secret', { ...access, clientSecret: '' }, 'needs a non-empty "clientId" and "clientSecret"'],
    ['an identity provider without a token endpoint URL', { ...access, idp: { tokenEndpoint: 'idp', clientId: 'x' } }, 'needs "idp" with the identity provider\'s "tokenEndpoint" URL'],
    ['no idToken function', { ...access, idToken: 'id-token' }, 'needs "idToken", a function'],
  ])('refuses %s with MCP_OAUTH_CONFIG_INVALID', (_case, crossAppAccess, expected) => {
    const refused = refusal({ crossAppAccess });
    expect(refused?.code).toBe('MCP_OAUTH_CONFIG_INVALID');
    expect(refused?.message).toContain(expected);
  });

  it('needs the run’s context: the token is the user’s', async () => {
    const toolset = new McpToolset({ transport: { url }, oauth: { crossAppAccess: access } });
    await expect(toolset.listPrompts()).rejects.toMatchObject({ code: 'MCP_CONTEXT_REQUIRED' });
  });
});
