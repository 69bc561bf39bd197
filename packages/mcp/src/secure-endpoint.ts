import { assertSecureTokenEndpoint } from '@modelcontextprotocol/client';

/**
 * Why an authorization server's endpoint must not be used (`its <which> endpoint <url> is neither https
 * nor loopback`), or `undefined` when it is https, or http on a loopback host (the MCP spec requires
 * https; loopback serves local development). The SDK's check, with a message naming the endpoint's
 * role (the SDK's calls every endpoint a token endpoint).
 */
export function insecureEndpointReason(which: 'authorization' | 'token' | 'registration', url: string): string | undefined {
  try {
    assertSecureTokenEndpoint(url);
    return undefined;
  } catch {
    return `its ${which} endpoint ${url} is neither https nor loopback`;
  }
}
