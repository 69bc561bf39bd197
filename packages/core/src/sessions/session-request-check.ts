import { InvalidSessionRequestError } from '../errors/session-errors';
import { unfitIdentifierCharacter } from '../identifiers/identifier-characters';
import type { GetSessionRequest, ListSessionsRequest, SessionKey } from './session-service';

/**
 * The longest claim lease, in milliseconds: the runner renews a claim every third of its lease with a
 * timer, and Node's timers take at most 2^31 - 1 ms (a longer delay fires at once: a renewal every ms).
 */
export const MAX_LEASE_MS = 3 * (2 ** 31 - 1);

/**
 * Why `value` cannot be an id a session store keys on (`field`: `appName`, `userId`, `sessionId`,
 * `after`), or `undefined`: a string with no control character and no lone surrogate. PostgreSQL refuses
 * NUL and stores a lone surrogate as U+FFFD, so two ids differing in one would name one session (and share
 * `user:` or `app:` state); every store refuses them alike.
 */
export function storeIdProblem(field: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return `${field} is ${kind(value)}, not a string`;
  const unfit = unfitIdentifierCharacter(value);
  return unfit ? `${field} has a ${unfit}` : undefined;
}

/**
 * Why `value` cannot be a claim's lease (`leaseMs`), or `undefined`: a whole number of milliseconds from
 * `min` to {@link MAX_LEASE_MS}. A store takes 0 (a claim that lapses at once); a runner's lease is at least 1.
 */
export function leaseMsProblem(value: unknown, min: number): string | undefined {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= MAX_LEASE_MS ? undefined : `leaseMs is ${shown(value)}, not a whole number of milliseconds from ${min} to ${MAX_LEASE_MS}`;
}

/** Throws {@link InvalidSessionRequestError} unless the key's three ids are ids every store keeps as given ({@link storeIdProblem}). */
export function checkSessionKey(key: SessionKey): void {
  const problem = storeIdProblem('appName', key.appName) ?? storeIdProblem('userId', key.userId) ?? storeIdProblem('sessionId', key.sessionId);
  if (problem) throw new InvalidSessionRequestError(problem);
}

/** Checks `createSession`'s request: its ids (`sessionId` may be missing: the store makes one). */
export function checkCreateSessionRequest(request: { appName: string; userId: string; sessionId?: string }): void {
  const problem =
    storeIdProblem('appName', request.appName) ?? storeIdProblem('userId', request.userId) ?? (request.sessionId === undefined ? undefined : storeIdProblem('sessionId', request.sessionId));
  if (problem) throw new InvalidSessionRequestError(problem);
}

/** Checks `getSession`'s request: its key, `numRecentEvents` a whole number, 0 or more, `afterTimestamp` a finite number (each may be missing). */
export function checkGetSessionRequest(request: GetSessionRequest): void {
  checkSessionKey(request);
  const { numRecentEvents, afterTimestamp } = request;
  if (numRecentEvents !== undefined && !(Number.isSafeInteger(numRecentEvents) && numRecentEvents >= 0)) {
    throw new InvalidSessionRequestError(`numRecentEvents is ${shown(numRecentEvents)}, not a whole number, 0 or more`);
  }
  if (afterTimestamp !== undefined && !(typeof afterTimestamp === 'number' && Number.isFinite(afterTimestamp))) {
    throw new InvalidSessionRequestError(`afterTimestamp is ${shown(afterTimestamp)}, not a finite number of milliseconds`);
  }
}

/** Checks `listSessions`' request: its ids, `after` an id ({@link storeIdProblem}) and `limit` a whole number, 0 or more (each may be missing). */
export function checkListSessionsRequest(request: ListSessionsRequest): void {
  const problem = storeIdProblem('appName', request.appName) ?? storeIdProblem('userId', request.userId) ?? (request.after === undefined ? undefined : storeIdProblem('after', request.after));
  if (problem) throw new InvalidSessionRequestError(problem);
  const { limit } = request;
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 0)) throw new InvalidSessionRequestError(`limit is ${shown(limit)}, not a whole number, 0 or more`);
}

/** Checks a claim's key and `leaseMs` ({@link leaseMsProblem}: 0 or more), as `claimSession` and `renewClaim` take them. */
export function checkClaimRequest(key: SessionKey, leaseMs: unknown): void {
  checkSessionKey(key);
  const problem = leaseMsProblem(leaseMs, 0);
  if (problem) throw new InvalidSessionRequestError(problem);
}

/** Checks a fencing number as `renewClaim` and `releaseClaim` take it: a whole number, 1 or more. */
export function checkFence(fence: unknown): void {
  if (!(Number.isSafeInteger(fence) && (fence as number) >= 1)) throw new InvalidSessionRequestError(`fence is ${shown(fence)}, not a whole number, 1 or more`);
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A number as written, anything else by its kind (never a string's text: it may be what cannot be shown). */
function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : kind(value);
}
