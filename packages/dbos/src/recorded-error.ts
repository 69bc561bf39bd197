import { ProviderError, ToolsmithError, type ProviderErrorCode, reportableError, thrownMessage } from '@toolsmith/core';

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
  // A Toolsmith error is recorded as it is only when it can be (see reportableError); anything else by its text.
  const reported = reportableError(thrown);
  if (reported) {
    let provider: unknown;
    let statusCode: unknown;
    try {
      ({ provider, statusCode } = reported as Partial<ProviderError>);
    } catch {
      provider = statusCode = undefined;
    }
    return {
      code: reported.code,
      message: reported.message,
      ...(typeof provider === 'string' ? { provider } : {}),
      ...(typeof statusCode === 'number' ? { statusCode } : {}),
    };
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
