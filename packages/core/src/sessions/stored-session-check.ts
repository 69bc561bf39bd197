import { SessionCorruptError } from '../errors/session-errors';

/**
 * What a store reads back from rows it wrote, checked before it becomes a session: rows edited by hand (an
 * event's data `null`, `{}` or a string, state an array or a string, a number past the largest double) are
 * refused with {@link SessionCorruptError} naming the row, never read as an invented event or as state keys
 * `"0"`, `"1"`. Every store reading stored text uses these.
 */
export function checkStoredEvent(sessionId: string, sequence: number, data: unknown): void {
  const problem = storedEventProblem(data);
  if (problem) throw new SessionCorruptError(sessionId, `event ${sequence}`, problem);
}

/**
 * Why a store would refuse to append `event`, or `undefined`: what it could not read back ({@link checkStoredEvent}'s
 * rules), and a timestamp that is not a whole number of milliseconds (PostgreSQL keeps it as a `bigint`). Checked
 * before anything is stored, by every store's public `appendEvent`, so one malformed event never makes its
 * session unreadable. (The runner's own events are made well formed; its in-process fast path skips this.)
 */
export function appendedEventProblem(event: unknown): string | undefined {
  const problem = storedEventProblem(event);
  if (problem) return problem;
  const { timestamp } = event as { timestamp: number };
  return Number.isSafeInteger(timestamp) ? undefined : `its timestamp is ${timestamp}, not a whole number of milliseconds`;
}

/** Checks a stored state (`row`: `sessions.state`, `user_state`, `app_state`): a JSON object whose numbers are all finite. */
export function checkStoredState(sessionId: string, row: string, state: unknown): void {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) throw new SessionCorruptError(sessionId, row, `the state is ${kind(state)}, not an object`);
  if (hasNonFiniteNumber(state, 0)) throw new SessionCorruptError(sessionId, row, 'the state holds a number past the largest finite one');
}

function storedEventProblem(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return `its data is ${kind(data)}, not an event object`;
  const event = data as Record<string, unknown>;
  for (const field of ['id', 'invocationId', 'author']) if (typeof event[field] !== 'string') return `its ${field} is ${kind(event[field])}, not a string`;
  if (typeof event.timestamp !== 'number' || !Number.isFinite(event.timestamp)) return `its timestamp is ${kind(event.timestamp)}, not a finite number`;
  const { actions, content } = event;
  if (actions !== undefined) {
    if (!isRecord(actions)) return `its actions are ${kind(actions)}, not an object`;
    for (const field of ['stateDelta', 'artifactDelta']) {
      const value = (actions as Record<string, unknown>)[field];
      if (value !== undefined && !isRecord(value)) return `its actions.${field} is ${kind(value)}, not an object`;
    }
  }
  if (content !== undefined && content !== null && (!isRecord(content) || !Array.isArray((content as { parts?: unknown }).parts))) return 'its content is not an object with an array of parts';
  return undefined;
}

function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasNonFiniteNumber(value: unknown, depth: number): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'object' || value === null || depth > 100) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasNonFiniteNumber(item, depth + 1)) return true;
    return false;
  }
  for (const key in value) if (hasNonFiniteNumber((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
