import { createHash, randomUUID } from 'node:crypto';

/**
 * Creates a new unique function-call id (`call_<32 hex>`), for providers whose function calls come
 * without one. Generate it once, when the response is read, and keep it with the call: the same id
 * must then be used for the call and its response in every later request.
 */
export function generateCallId(prefix = 'call'): string {
  return `${prefix}_${randomUUID().replace(/-/g, '')}`;
}

/**
 * Derives a function-call id deterministically from `seed` (e.g. response id + position + name), so
 * that reading the same provider response twice (a retried stream, a replayed fixture) gives the same
 * id. Different seeds give different ids with overwhelming probability.
 */
export function stableCallId(seed: string, prefix = 'call'): string {
  return `${prefix}_${createHash('sha256').update(seed).digest('hex').slice(0, 24)}`;
}
