import { InMemoryCredentialService, type ToolsmithError } from '@toolsmith/core';
import { McpToolset, type McpToolsetOptions } from './mcp-toolset';

// The `oauth` option is a union whose members exclude each other's fields: a config the toolset refuses at
// construction (MCP_OAUTH_CONFIG_INVALID) is also a compile error. `tsc -p tsconfig.jest.json` checks the
// expected-error directives below: a config that compiled would leave one unused, which fails the compile.
type OAuth = NonNullable<McpToolsetOptions['oauth']>;
const url = 'http://127.0.0.1:1/mcp';

function refusal(oauth: OAuth): ToolsmithError | undefined {
  try {
    new McpToolset({ transport: { url }, oauth });
    return undefined;
  } catch (error) {
    return error as ToolsmithError;
  }
}

describe('McpToolset "oauth": a config it refuses does not compile', () => {
  it('client credentials with both a secret and a private key', () => {
    const both: OAuth = {
      // @ts-expect-error -- a client authenticates with a secret or a private key, not both
      clientCredentials: { clientId: 'app', clientSecret: 's', privateKey: 'k', algorithm: 'ES256' },
    };
    expect(refusal(both)).toMatchObject({ code: 'MCP_OAUTH_CONFIG_INVALID', message: expect.stringContaining('needs exactly one of') });
  });

  it('client credentials with the per-user options (credentialService, redirectUri)', () => {
    // @ts-expect-error -- the app's own token takes no per-user options
    const mixed: OAuth = { clientCredentials: { clientId: 'app', clientSecret: 's' }, credentialService: new InMemoryCredentialService(), redirectUri: 'https://app.example/cb' };
    expect(refusal(mixed)).toMatchObject({ code: 'MCP_OAUTH_CONFIG_INVALID', message: expect.stringContaining('takes no "credentialService", "redirectUri"') });
  });

  it('the configs it accepts compile', () => {
    const secret: OAuth = { clientCredentials: { clientId: 'app', clientSecret: 's' }, scope: 'reports.read', issuer: 'https://auth.example' };
    const perUser: OAuth = { credentialService: new InMemoryCredentialService(), redirectUri: 'https://app.example/cb' };
    expect([refusal(secret), refusal(perUser)]).toEqual([undefined, undefined]);
  });
});
