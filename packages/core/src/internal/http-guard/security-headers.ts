import type { ServerResponse } from 'node:http';

/**
 * Headers every response of a guarded server carries: no page may frame it (`frame-ancestors 'none'`
 * and the older `X-Frame-Options: DENY`), and browsers must not guess content types.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
};

/** Sets {@link SECURITY_HEADERS} on a response (before its head is written). */
export function setSecurityHeaders(response: ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
}
