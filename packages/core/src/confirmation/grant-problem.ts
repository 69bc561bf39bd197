import { validatorFor } from '../validation/schema-validator';
import type { NewGrant } from './grant-service';
import { isRecord } from './request-confirmation';
import { thrownMessage } from '../errors/thrown-message';

/**
 * What is wrong with a grant a store is asked to keep, or `undefined` when nothing is: every store
 * checks a grant with this before storing it, so all refuse the same grants (`INVALID_GRANT`).
 * `expiresAt` must be a whole number of ms since the epoch (0 to `Number.MAX_SAFE_INTEGER`).
 */
export function grantProblem(grant: NewGrant): string | undefined {
  if (!isRecord(grant)) return 'a grant must be an object';
  const { appName, scope, userId, sessionId, toolName, schemaHash, condition, expiresAt } = grant;
  if (scope !== 'session' && scope !== 'user' && scope !== 'app') return `"scope" must be "session", "user" or "app", got ${JSON.stringify(scope) ?? 'nothing'}`;
  if (scope !== 'app' && userId === undefined) return `a "${scope}" grant needs a "userId"`;
  if (scope === 'session' && sessionId === undefined) return 'a "session" grant needs a "sessionId"';
  const texts: Array<[string, unknown]> = [['appName', appName], ['userId', userId], ['sessionId', sessionId], ['toolName', toolName], ['schemaHash', schemaHash]];
  for (const [field, value] of texts) {
    if (value === undefined && (field === 'userId' || field === 'sessionId')) continue;
    if (typeof value !== 'string' || value.length === 0) return `"${field}" must be a non-empty string`;
    // PostgreSQL refuses NUL; a lone surrogate is not well-formed Unicode: no store could keep either.
    if (value.includes('\u0000') || LONE_SURROGATE.test(value)) return `"${field}" has a NUL or a lone surrogate`;
  }
  if (expiresAt !== undefined) {
    const problem = expiresAtProblem(expiresAt);
    if (problem) return problem;
  }
  if (condition !== undefined) return conditionProblem(condition);
  return undefined;
}

/** What is wrong with a grant's `expiresAt`: it must be a whole number of ms since the epoch, 0 to `Number.MAX_SAFE_INTEGER`. */
export function expiresAtProblem(expiresAt: unknown): string | undefined {
  if (typeof expiresAt !== 'number' || !Number.isSafeInteger(expiresAt) || expiresAt < 0) {
    return `"expiresAt" must be a whole number of ms since the epoch (0 to ${Number.MAX_SAFE_INTEGER}), got ${JSON.stringify(expiresAt) ?? String(expiresAt)}`;
  }
  return undefined;
}

/** What is wrong with a grant's `condition`: it must be a JSON Schema object that compiles. */
export function conditionProblem(condition: unknown): string | undefined {
  if (!isRecord(condition)) return '"condition" must be a JSON Schema object';
  // A store keeps it as JSON text: a lone surrogate is not well-formed Unicode, and PostgreSQL refuses it.
  if (LONE_SURROGATE_ESCAPE.test(JSON.stringify(condition))) return '"condition" has a lone surrogate';
  try {
    validatorFor(condition);
  } catch (thrown) {
    return `"condition" is not a usable JSON Schema (${thrownMessage(thrown)})`;
  }
  return undefined;
}

/** A lone surrogate as `JSON.stringify` writes it (an unpaired `\u` escape, not an escaped backslash before `ud800`). */
const LONE_SURROGATE_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\ud[89a-f][0-9a-f]{2}/i;
const LONE_SURROGATE = new RegExp('[\\ud800-\\udfff]', 'u');
