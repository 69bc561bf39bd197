import { InvalidMessageError } from '../errors/invalid-message-error';
import { callerSignalProblem } from './caller-signal';
import { thrownMessage } from '../errors/thrown-message';
import { unfitIdentifierCharacter } from '../identifiers/identifier-characters';

/**
 * What is wrong with the values `Runner.run` read from its input, as the `INVALID_MESSAGE` error the run
 * ends on, or `undefined` when they are what a run takes: `userId` and `sessionId` ids ({@link runIdProblem}), `signal` an
 * `AbortSignal` or absent, `streaming` a boolean or absent. (`newMessage` and `messageId` are checked by
 * the run itself.)
 */
export function runInputProblem(userId: unknown, sessionId: unknown, signal: unknown, streaming: unknown): InvalidMessageError | undefined {
  const idProblem = runIdProblem('userId', userId) ?? runIdProblem('sessionId', sessionId);
  if (idProblem) return new InvalidMessageError(`the run's ${idProblem}`);
  if (signal !== undefined) {
    const problem = callerSignalProblem(signal);
    if (problem) return new InvalidMessageError(`the run's signal is ${signal instanceof AbortSignal ? problem : `${kind(signal)}, not an AbortSignal`}`);
  }
  if (streaming !== undefined && typeof streaming !== 'boolean') return new InvalidMessageError(`the run's streaming is ${kind(streaming)}, not a boolean`);
  return undefined;
}

/** Longest `userId` or `sessionId` a run takes, in UTF-16 code units (as a message id). */
export const MAX_RUN_ID_LENGTH = 256;

/**
 * Why `value` cannot be a run's `userId` or `sessionId` (`field`), worded after the field's name, or `undefined`: a
 * string of at most {@link MAX_RUN_ID_LENGTH} characters with no control character and no lone surrogate, so every
 * store keeps it as given (PostgreSQL refuses NUL; a lone surrogate would be stored as U+FFFD, and two ids would
 * name one session). (The artifact services take less: no empty id, no `.` or `..`, at most 255 characters once
 * URI-encoded: artifact-scope.ts.) Servers that take ids from a request check them here.
 */
export function runIdProblem(field: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return `${field} is ${kind(value)}, not a string`;
  if (value.length > MAX_RUN_ID_LENGTH) return `${field} is longer than ${MAX_RUN_ID_LENGTH} characters`;
  const unfit = unfitIdentifierCharacter(value);
  return unfit ? `${field} has a ${unfit}` : undefined;
}

/** The run's input could not be read: a getter or Proxy trap of it threw. */
export function unreadableRunInput(thrown: unknown): InvalidMessageError {
  return new InvalidMessageError(`reading the run's input threw (${thrownMessage(thrown)})`);
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
