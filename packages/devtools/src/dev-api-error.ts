import { ToolsmithError } from '@toolsmith/core';

/** Codes of {@link DevApiError}. */
export type DevApiErrorCode = 'BAD_REQUEST' | 'NOT_FOUND' | 'SESSION_NOT_FOUND' | 'NOT_PENDING';

const STATUS: Record<DevApiErrorCode, number> = { BAD_REQUEST: 400, NOT_FOUND: 404, SESSION_NOT_FOUND: 404, NOT_PENDING: 409 };

/**
 * A request the dev server's API refuses: a malformed body, an unknown route or session, an answer to
 * a call the session is not waiting for. Sent as `{ error: { code, message } }` with {@link DevApiError.status}.
 */
export class DevApiError extends ToolsmithError {
  /** What is wrong with the request. */
  declare readonly code: DevApiErrorCode;

  constructor(code: DevApiErrorCode, message: string) {
    super(code, message);
  }

  /** The HTTP status this error is answered with. */
  get status(): number {
    return STATUS[this.code];
  }
}
