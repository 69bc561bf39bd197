import { HttpException } from '@nestjs/common';
import { BaseTool, ToolsmithError } from '@toolsmith/core';
import type { FunctionDeclaration, JsonSchema, LlmRequest, RequireConfirmation, ToolContext } from '@toolsmith/core';
import { HttpToolError } from './http-tool-error';

/**
 * Wraps a tool so that a Nest `HttpException` it throws becomes an {@link HttpToolError}: the model then
 * gets an error response with the status and the client-facing message (`HTTP_EXCEPTION`), and
 * `onToolError` callbacks see the typed error. Other errors pass through unchanged.
 */
export function mapHttpExceptions(tool: BaseTool): BaseTool {
  return new HttpExceptionMappingTool(tool);
}

/** The thrown `HttpException`, also when the scanner already wrapped it (as the error's `cause`). */
export function findHttpException(thrown: unknown): HttpException | undefined {
  if (thrown instanceof HttpException) return thrown;
  if (ToolsmithError.isInstance(thrown) && thrown.cause instanceof HttpException) return thrown.cause;
  return undefined;
}

class HttpExceptionMappingTool extends BaseTool {
  override readonly name: string;
  override readonly description: string;
  override readonly parameters: JsonSchema;
  override readonly responseSchema?: JsonSchema;
  override readonly isLongRunning: boolean;
  override readonly requireConfirmation?: RequireConfirmation;
  override readonly processRequest?: (context: ToolContext, request: LlmRequest) => void | Promise<void>;

  constructor(private readonly inner: BaseTool) {
    super();
    this.name = inner.name;
    this.description = inner.description;
    this.parameters = inner.parameters;
    this.responseSchema = inner.responseSchema;
    this.isLongRunning = inner.isLongRunning;
    this.requireConfirmation = inner.requireConfirmation;
    // Only present when the inner tool has it: the runner detects the hook by its presence.
    if (typeof inner.processRequest === 'function') this.processRequest = inner.processRequest.bind(inner);
  }

  override declaration(): FunctionDeclaration {
    return this.inner.declaration();
  }

  override async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    try {
      return await this.inner.run(args, context);
    } catch (thrown) {
      const exception = findHttpException(thrown);
      throw exception ? HttpToolError.fromException(this.name, exception) : thrown;
    }
  }
}
