import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { BaseTool, type ToolContext } from '@toolsmith/core';
import { executeToolCall } from '@toolsmith/core/internal';
import type { JsonSchema, LlmRequest, ToolsmithError } from '@toolsmith/core';
import { testToolContext } from '@toolsmith/core/testing';
import { mapHttpExceptions } from './http-exception-mapping';
import { HttpToolError } from './http-tool-error';

class ThrowingTool extends BaseTool {
  readonly name = 'orders_get';
  readonly description = 'Gets an order.';
  readonly parameters: JsonSchema = { type: 'object', properties: {} };
  override readonly isLongRunning = true;
  override readonly requireConfirmation = true;
  override readonly confirmationHint = 'Show order details?';
  constructor(private readonly thrown: unknown) {
    super();
  }
  run(): unknown {
    throw this.thrown;
  }
  override processRequest(_context: ToolContext, request: LlmRequest) {
    request.systemInstruction = 'orders';
  }
}

const context = (): ToolContext => testToolContext({ functionCallId: 'c1', toolConfirmation: { confirmed: true } });

async function call(thrown: unknown, onToolError: ((input: { error: ToolsmithError }) => void)[] = []) {
  const tool = mapHttpExceptions(new ThrowingTool(thrown));
  return executeToolCall({
    call: { id: 'c1', name: 'orders_get', args: {} },
    tool,
    availableToolNames: () => [tool.name],
    context: context(),
    callbacks: { beforeTool: [], afterTool: [], onToolError },
  });
}

describe('mapHttpExceptions', () => {
  it("asks the tool's own confirmation hint, not the generic question", async () => {
    const tool = mapHttpExceptions(new ThrowingTool(null));
    const toolContext = testToolContext({ functionCallId: 'c1' });
    const out = await executeToolCall({ call: { id: 'c1', name: 'orders_get', args: {} }, tool, availableToolNames: () => [tool.name], context: toolContext });
    expect(out.response.response).toMatchObject({ error: { code: 'CONFIRMATION_REQUIRED' } });
    expect(toolContext.actions.requestedToolConfirmations?.c1).toMatchObject({ hint: 'Show order details?' });
  });

  it('turns a thrown HttpException into an error response with status and message, no stack', async () => {
    const out = await call(new NotFoundException('Order A-1 was not found.'));
    expect(out.response).toEqual({
      id: 'c1',
      name: 'orders_get',
      isError: true,
      response: {
        // The message states the status: the model reads it once, and the error keeps it in its details.
        error: {
          code: 'HTTP_EXCEPTION',
          message: 'The tool failed with HTTP 404: Order A-1 was not found.',
        },
      },
    });
    expect(JSON.stringify(out.response)).not.toContain('at ');
    expect(out.error).toBeInstanceOf(HttpToolError);
    expect(out.error!.details).toEqual({ status: 404 });
    expect(out.error!.toJSON()).toEqual({ name: 'HttpToolError', code: 'HTTP_EXCEPTION', message: 'Tool "orders_get" failed with HTTP 404: Order A-1 was not found.', details: { status: 404 } });
  });

  it('reads validation-style bodies and custom statuses the way Nest answers HTTP clients', async () => {
    const listed = await call(new BadRequestException(['orderId must be a string', 'note is too long']));
    expect(listed.error?.message).toBe('Tool "orders_get" failed with HTTP 400: orderId must be a string; note is too long');
    const custom = await call(new HttpException({ reason: 'quota' }, 429));
    expect(custom.error).toMatchObject({ code: 'HTTP_EXCEPTION', status: 429, details: { status: 429 } });
  });

  it('lets onToolError callbacks see the typed error', async () => {
    const seen: ToolsmithError[] = [];
    await call(new NotFoundException('gone'), [({ error }) => void seen.push(error)]);
    expect(seen[0]).toBeInstanceOf(HttpToolError);
    expect((seen[0] as HttpToolError).status).toBe(404);
  });

  it('leaves other errors to the executor', async () => {
    const out = await call(new Error('database down'));
    expect(out.response.response).toEqual({ error: { code: 'TOOL_EXECUTION_FAILED', message: 'The tool failed: database down' } });
  });

  it('keeps what the runner reads from the tool', () => {
    const inner = new ThrowingTool(null);
    const tool = mapHttpExceptions(inner);
    expect(tool.declaration()).toEqual(inner.declaration());
    expect(tool).toMatchObject({ isLongRunning: true, requireConfirmation: true, confirmationHint: 'Show order details?', parameters: inner.parameters });
    // Every field the inner tool has, today's and any BaseTool gains later, reads the same through the wrapper.
    for (const key of Object.keys(inner) as (keyof BaseTool)[]) expect(tool[key]).toEqual(inner[key]);
    expect(tool).toBeInstanceOf(BaseTool);
    const request = { contents: [], tools: [] } as LlmRequest;
    void tool.processRequest?.(context(), request);
    expect(request.systemInstruction).toBe('orders');
  });
});
