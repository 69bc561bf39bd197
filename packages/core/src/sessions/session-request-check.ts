import { InvalidSessionRequestError } from '../errors/session-errors';
import { unfitIdentifierCharacter } from '../identifiers/identifier-characters';
import type { GetSessionRequest, ListSessionsRequest, SessionKey } from './session-service';
import { appendedEventProblem } from './stored-session-check';

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
 * Why `value` cannot name a session to read, delete or page past (`field`), or `undefined`: a string with no
 * lone surrogate and no NUL. Looser than {@link storeIdProblem}: another control character names one session in
 * every store, and sessions stored by earlier releases may have one (they can still be read, listed past and
 * deleted); a lone surrogate would read another id's session on PostgreSQL, which cannot take a NUL at all.
 */
export function readIdProblem(field: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return `${field} is ${kind(value)}, not a string`;
  const unfit = unfitIdentifierCharacter(value);
  if (unfit === 'lone surrogate') return `${field} has a lone surrogate`;
  // A second pass only for an id that has a control character (NUL is one).
  return unfit && value.includes('\u0000') ? `${field} has a control character (NUL)` : undefined;
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

/** Throws {@link InvalidSessionRequestError} unless the key's three ids can name a stored session ({@link readIdProblem}): `getSession`, `deleteSession`. */
export function checkReadSessionKey(key: SessionKey): void {
  const problem = readIdProblem('appName', key.appName) ?? readIdProblem('userId', key.userId) ?? readIdProblem('sessionId', key.sessionId);
  if (problem) throw new InvalidSessionRequestError(problem);
}

/** Checks what `appendEvent` is given: the session's ids, and an event (not a partial one, which is never stored) the store could read back ({@link appendedEventProblem}). */
export function checkAppendRequest(session: { appName: string; userId: string; id: string }, event: { partial?: boolean }): void {
  checkSessionKey({ appName: session.appName, userId: session.userId, sessionId: session.id });
  if (event.partial) return;
  const problem = appendedEventProblem(event);
  if (problem) throw new InvalidSessionRequestError(`the event cannot be stored: ${problem}`);
}

/** Checks `createSession`'s request: its ids (`sessionId` may be missing: the store makes one). */
export function checkCreateSessionRequest(request: { appName: string; userId: string; sessionId?: string }): void {
  const problem =
    storeIdProblem('appName', request.appName) ?? storeIdProblem('userId', request.userId) ?? (request.sessionId === undefined ? undefined : storeIdProblem('sessionId', request.sessionId));
  if (problem) throw new InvalidSessionRequestError(problem);
}

/** Checks `getSession`'s request: its key ({@link checkReadSessionKey}), `numRecentEvents` a whole number, 0 or more, `afterTimestamp` a finite number (each may be missing). */
export function checkGetSessionRequest(request: GetSessionRequest): void {
  checkReadSessionKey(request);
  const { numRecentEvents, afterTimestamp } = request;
  if (numRecentEvents !== undefined && !(Number.isSafeInteger(numRecentEvents) && numRecentEvents >= 0)) {
    throw new InvalidSessionRequestError(`numRecentEvents is ${shown(numRecentEvents)}, not a whole number, 0 or more`);
  }
  if (afterTimestamp !== undefined && !(typeof afterTimestamp === 'number' && Number.isFinite(afterTimestamp))) {
    throw new InvalidSessionRequestError(`afterTimestamp is ${shown(afterTimestamp)}, not a finite number of milliseconds`);
  }
}

/** Checks `listSessions`' request: its ids and `after` ({@link readIdProblem}) and `limit` a whole number, 0 or more (each may be missing). */
export function checkListSessionsRequest(request: ListSessionsRequest): void {
  const problem = readIdProblem('appName', request.appName) ?? readIdProblem('userId', request.userId) ?? (request.after === undefined ? undefined : readIdProblem('after', request.after));
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
