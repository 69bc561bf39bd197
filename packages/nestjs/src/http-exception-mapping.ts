import { HttpException } from '@nestjs/common';
import { type BaseTool, ToolsmithError } from '@toolsmith/core';
import type { ToolContext } from '@toolsmith/core';
import { HttpToolError } from './http-tool-error';

/**
 * Wraps a tool so that a Nest `HttpException` it throws becomes an {@link HttpToolError}: the model then
 * gets an error response with the status and the client-facing message (`HTTP_EXCEPTION`), and
 * `onToolError` callbacks see the typed error. Other errors pass through unchanged.
 *
 * The wrapper inherits from the tool it wraps (prototype delegation) and defines only `run`, so
 * everything else the runner reads — name, schemas, `requireConfirmation`, `confirmationHint`,
 * `processRequest`, and whatever `BaseTool` gains later — is the inner tool's own and cannot be
 * forgotten by a hand-written field copy.
 */
export function mapHttpExceptions(tool: BaseTool): BaseTool {
  const mapped = Object.create(tool) as BaseTool;
  Object.defineProperty(mapped, 'run', {
    value: async (args: Record<string, unknown>, context: ToolContext): Promise<unknown> => {
      try {
        return await tool.run(args, context);
      } catch (thrown) {
        const exception = findHttpException(thrown);
        throw exception ? HttpToolError.fromException(tool.name, exception) : thrown;
      }
    },
  });
  return mapped;
}

/** The thrown `HttpException`, also when the scanner already wrapped it (as the error's `cause`). */
export function findHttpException(thrown: unknown): HttpException | undefined {
  if (thrown instanceof HttpException) return thrown;
  if (ToolsmithError.isInstance(thrown) && thrown.cause instanceof HttpException) return thrown.cause;
  return undefined;
}
