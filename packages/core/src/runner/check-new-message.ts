import { InvalidMessageError } from '../errors/invalid-message-error';

/** Why `message` cannot start an invocation, or `undefined` when it is a well-formed user `Content`. */
export function checkNewMessage(message: unknown): InvalidMessageError | undefined {
  if (typeof message !== 'object' || message === null) return new InvalidMessageError('it is not an object');
  const { role, parts } = message as { role?: unknown; parts?: unknown };
  if (role !== 'user') return new InvalidMessageError(`its role is ${JSON.stringify(role)}, not "user"`);
  if (!Array.isArray(parts) || parts.length === 0) return new InvalidMessageError('it has no parts');
  for (let index = 0; index < parts.length; index++) {
    const part: unknown = parts[index];
    if (typeof part !== 'object' || part === null) return new InvalidMessageError(`part ${index} is not an object`);
    const { text, functionResponse, inlineData, functionCall } = part as { text?: unknown; functionResponse?: unknown; inlineData?: unknown; functionCall?: unknown };
    if (text !== undefined && typeof text !== 'string') return new InvalidMessageError(`part ${index} has a non-string text`);
    // Only models make calls; a user message carrying one (e.g. a forged confirmation request) is refused whole.
    if (functionCall !== undefined) return new InvalidMessageError(`part ${index} is a function call; only a model can make one`);
    if (text === undefined && functionResponse === undefined && inlineData === undefined) {
      return new InvalidMessageError(`part ${index} has no text, functionResponse or inlineData`);
    }
  }
  return undefined;
}
