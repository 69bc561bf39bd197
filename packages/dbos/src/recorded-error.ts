import { ProviderError, ToolsmithError, type ProviderErrorCode, thrownMessage } from '@toolsmith/core';

/** A failure as a step records it: plain JSON, so a replay can throw it again. */
export interface RecordedError {
  code: string;
  message: string;
  /** The provider, for a model call's `ProviderError`. */
  provider?: string;
  statusCode?: number;
}

/** What a step records of `thrown`. */
export function recordError(thrown: unknown): RecordedError {
  if (ToolsmithError.isInstance(thrown)) {
    const { provider, statusCode } = thrown as Partial<ProviderError>;
    return { code: thrown.code, message: thrown.message, ...(provider === undefined ? {} : { provider }), ...(statusCode === undefined ? {} : { statusCode }) };
  }
  return { code: 'INTERNAL_ERROR', message: thrownMessage(thrown) };
}

/** The error a replay throws for a recorded failure: the same code and message (a `ProviderError` when it was one). */
export function replayedError(recorded: RecordedError): ToolsmithError {
  if (recorded.provider !== undefined) {
    return new ProviderError(recorded.code as ProviderErrorCode, recorded.message, { provider: recorded.provider, statusCode: recorded.statusCode });
  }
  return new ToolsmithError(recorded.code, recorded.message);
}
