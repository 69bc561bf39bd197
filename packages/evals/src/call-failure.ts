import type { FunctionResponse } from '@toolsmith/core';

/** Why a call failed: the code and message of its error response. */
export interface CallFailure {
  /** The error's code (`TOOL_EXECUTION_FAILED`, `INVALID_ARGUMENTS`, `TOOL_NOT_FOUND`, `TOOL_CALL_REJECTED`, …). */
  code: string;
  /** The error's message, as the model was sent it. */
  message: string;
}

/**
 * Each call's final response among `responses` (in order), by call id: the last one that is not an
 * intermediate update of a long-running call (`willContinue`).
 */
export function finalResponses(responses: Iterable<FunctionResponse>): Map<string, FunctionResponse> {
  const final = new Map<string, FunctionResponse>();
  for (const response of responses) if (!response.willContinue) final.set(response.id, response);
  return final;
}

/**
 * How a call failed, from its final response: its error when the response is one (`isError`), except a
 * call waiting for confirmation (`CONFIRMATION_REQUIRED`), which has not failed but paused; else nothing.
 */
export function callFailure(response: FunctionResponse | undefined): CallFailure | undefined {
  if (!response?.isError) return undefined;
  const error = response.response.error as { code?: unknown; message?: unknown } | undefined;
  const code = typeof error?.code === 'string' ? error.code : 'ERROR';
  if (code === 'CONFIRMATION_REQUIRED') return undefined;
  return { code, message: typeof error?.message === 'string' ? error.message : '' };
}
