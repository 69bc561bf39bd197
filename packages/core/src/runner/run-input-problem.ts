import { InvalidMessageError } from '../errors/invalid-message-error';
import { callerSignalProblem } from './caller-signal';
import { thrownMessage } from '../errors/thrown-message';

/**
 * What is wrong with the values `Runner.run` read from its input, as the `INVALID_MESSAGE` error the run
 * ends on, or `undefined` when they are what a run takes: `userId` and `sessionId` strings, `signal` an
 * `AbortSignal` or absent, `streaming` a boolean or absent. (`newMessage` and `messageId` are checked by
 * the run itself.)
 */
export function runInputProblem(userId: unknown, sessionId: unknown, signal: unknown, streaming: unknown): InvalidMessageError | undefined {
  if (typeof userId !== 'string') return new InvalidMessageError(`the run's userId is ${kind(userId)}, not a string`);
  if (typeof sessionId !== 'string') return new InvalidMessageError(`the run's sessionId is ${kind(sessionId)}, not a string`);
  if (signal !== undefined) {
    const problem = callerSignalProblem(signal);
    if (problem) return new InvalidMessageError(`the run's signal is ${signal instanceof AbortSignal ? problem : `${kind(signal)}, not an AbortSignal`}`);
  }
  if (streaming !== undefined && typeof streaming !== 'boolean') return new InvalidMessageError(`the run's streaming is ${kind(streaming)}, not a boolean`);
  return undefined;
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
