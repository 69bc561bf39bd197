/** `url` without its query, fragment or user info (its origin and path): what an error may name. */
export function endpointOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}
