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

/**
 * What a provider takes as a function-call id in a request: at most `maxLength` characters, and (`pattern`) only
 * ids the expression matches. OpenAI Chat Completions: 40 characters; the Responses API: 64; Anthropic:
 * `^[a-zA-Z0-9_-]+$`. A session that began with another provider (or a model of the user's own) holds ids made
 * by other rules.
 */
export interface CallIdRule {
  /** The most characters an id may have. */
  maxLength?: number;
  /** What a whole id must match (anchored: `^…$`). */
  pattern?: RegExp;
}

/**
 * `id` when `rule` takes it, else a stable id of 29 characters (`call_` and 24 hex digits) derived from it: the
 * call and its response, each converted on its own, get the same id in every request, and the ids a session
 * stores stay as they were.
 */
export function fitCallId(id: string, rule: CallIdRule): string {
  return (rule.maxLength === undefined || id.length <= rule.maxLength) && (rule.pattern === undefined || rule.pattern.test(id)) ? id : stableCallId(id);
}
