import type { HttpException } from '@nestjs/common';
import { ToolsmithError, type ToolsmithErrorOptions } from '@toolsmith/core';

/**
 * A tool threw a Nest `HttpException`. Carries the HTTP status and the exception's client-facing
 * message (never its stack), so the model gets the same answer an HTTP client would.
 */
export class HttpToolError extends ToolsmithError {
  constructor(
    toolName: string,
    /** HTTP status of the exception, e.g. 404. */
    readonly status: number,
    message: string,
    cause: HttpException,
  ) {
    const options: ToolsmithErrorOptions<{ status: number }> = { cause, details: { status }, statedDetails: [['status']] };
    // The message states the status: the model reads it there, not again in the details.
    super('HTTP_EXCEPTION', `Tool "${toolName}" failed with HTTP ${status}: ${message}`, options);
  }

  /** Builds the error from a thrown `HttpException`, reading its message the way Nest's exception filter does. */
  static fromException(toolName: string, exception: HttpException): HttpToolError {
    return new HttpToolError(toolName, exception.getStatus(), clientMessage(exception), exception);
  }
}

/** The message a Nest HTTP client would see: the response string, or the `message` of the response body. */
function clientMessage(exception: HttpException): string {
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  // ValidationPipe-style bodies list one message per problem.
  if (Array.isArray(message) && message.every((m) => typeof m === 'string')) return message.join('; ');
  return exception.message;
}
