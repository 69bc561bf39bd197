/**
 * `url` without its query, fragment or user info (its scheme, host and path): what an error may name.
 * Total and idempotent: a URL of any scheme (`https:`, `urn:…`, `file:///…`, `custom-scheme://host/…`)
 * keeps its scheme, host and path, and `endpointOf(endpointOf(url))` is `endpointOf(url)`.
 */
export function endpointOf(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.href;
  } catch {
    return '(an invalid URL)';
  }
}
