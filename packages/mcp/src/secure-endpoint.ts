import { assertSecureTokenEndpoint } from '@modelcontextprotocol/client';

/**
 * Why an authorization server's endpoint must not be used, or `undefined` when it is https, or http on
 * a loopback host (the MCP spec requires https; loopback serves local development), and has no user
 * info (a URL with a user name or password cannot be fetched, and names a credential). The reason
 * names the endpoint's role and its URL without user info, query or fragment: `its <which>
 * endpoint <url> is neither https nor loopback` or `… has a user name or password in its URL; no request was sent to it`.
 */
export function insecureEndpointReason(which: 'authorization' | 'token' | 'registration', url: string): string | undefined {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed && (parsed.username || parsed.password)) return `its ${which} endpoint ${shown(parsed)} has a user name or password in its URL; no request was sent to it`;
  try {
    assertSecureTokenEndpoint(url);
    return undefined;
  } catch {
    return `its ${which} endpoint ${parsed ? shown(parsed) : url} is neither https nor loopback`;
  }
}

/** `url` without its user info, query or fragment. */
function shown(url: URL): string {
  const copy = new URL(url);
  copy.username = copy.password = copy.search = copy.hash = '';
  return copy.href;
}
