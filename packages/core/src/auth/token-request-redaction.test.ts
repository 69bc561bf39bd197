import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TokenRequestError } from '../errors/auth-errors';
import type { OAuth2ClientConfig } from './auth-config';
import { requestToken } from './oauth2-client';

/** A token endpoint that refuses every request and echoes it (its Authorization header and form body) in `error_description`. */
async function startEchoingTokenEndpoint(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.writeHead(400, { 'content-type': 'application/json' });
      // Also as one base64 blob (the form body) and one base64url blob (`id:secret` and the form body).
      const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      const blobs = `b64: ${Buffer.from(body).toString('base64')} b64url: ${Buffer.from(`${basic}&${body}`).toString('base64url')}`;
      res.end(JSON.stringify({ error: 'invalid_grant', error_description: `echo: ${req.headers.authorization ?? ''} ${body} ${decodeURIComponent(body)} ${blobs}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`, server };
}

/** Whether some run of base64 or base64url characters in `text`, decoded from any of its first 4 characters, holds `value`. */
function decodesTo(text: string, value: string): boolean {
  for (const run of text.match(/[A-Za-z0-9+/_=-]{4,}/g) ?? []) {
    for (let start = 0; start < 4; start++) {
      for (const encoding of ['base64', 'base64url'] as const) if (Buffer.from(run.slice(start), encoding).toString('latin1').includes(value)) return true;
    }
  }
  return false;
}

/** None of `values` is in `message`, as it is or inside any base64 run of it. */
function expectNoneShown(message: string, values: string[]): void {
  for (const value of values) {
    expect(message).not.toContain(value);
    expect(decodesTo(message, value)).toBe(false);
  }
}

async function refusal(client: OAuth2ClientConfig, params: Record<string, string>): Promise<TokenRequestError> {
  const error = await requestToken(client, params).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TokenRequestError);
  return error as TokenRequestError;
}

describe('a refused token request', () => {
  let endpoint: { url: string; server: Server };
  beforeAll(async () => (endpoint = await startEchoingTokenEndpoint()));
  afterAll(() => new Promise((resolve) => endpoint.server.close(resolve)));

  const secret = 'p@ss w0rd+/=SECRET';
  const forms = (value: string) => [value, encodeURIComponent(value), new URLSearchParams({ s: value }).toString().slice(2)];

  it.each(['client_secret_post', 'client_secret_basic'] as const)('echoed by the server (%s) keeps none of the code exchange secrets in its error', async (method) => {
    const verifier = 'verifier-+/=value-0123456789';
    const code = 'the code+/=abc';
    const error = await refusal(
      { clientId: 'app id', clientSecret: secret, tokenUrl: endpoint.url, tokenEndpointAuthMethod: method },
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: 'https://app.example/cb' },
    );
    expect(error.code).toBe('AUTH_TOKEN_REQUEST_FAILED');
    expect(error.message).toContain('echo:');
    expect(error.message).toContain('[redacted]');
    const basic = Buffer.from(`${encodeURIComponent('app id')}:${encodeURIComponent(secret)}`).toString('base64');
    expectNoneShown(error.message, [...forms(secret), ...forms(verifier), ...forms(code), basic]);
    // What is not secret stays readable.
    expect(error.message).toContain('authorization_code');
  });

  it('keeps neither the refresh token nor the client secret of a refresh in its error', async () => {
    const refreshToken = 'refresh+/=token value';
    const error = await refusal({ clientId: 'app', clientSecret: secret, tokenUrl: endpoint.url }, { grant_type: 'refresh_token', refresh_token: refreshToken });
    expectNoneShown(error.message, [...forms(secret), ...forms(refreshToken)]);
    expect(error.message).toContain('refresh_token');
  });

  it('keeps neither the client secret nor the assertion of a client credentials request in its error', async () => {
    const assertion = 'assertion+/=value.with.dots';
    const error = await refusal({ clientId: 'app', clientSecret: secret, tokenUrl: endpoint.url }, { grant_type: 'client_credentials', client_assertion: assertion });
    expectNoneShown(error.message, [...forms(secret), ...forms(assertion)]);
    expect(error.message).toContain('client_credentials');
  });
});
