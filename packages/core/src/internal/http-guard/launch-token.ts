import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A new per-launch secret: 32 random bytes, base64url (43 characters, safe in a URL). */
export function newLaunchToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * True when the request carries `Authorization: Bearer <token>`. A browser sends that header only from
 * a script of a page allowed to set it (a form, an image or a "simple" cross-site request cannot), and
 * the comparison takes the same time whatever the header holds.
 */
export function hasBearerToken(request: IncomingMessage, token: string): boolean {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer (\S+)$/i.exec(header.trim()) : null;
  if (!match) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
