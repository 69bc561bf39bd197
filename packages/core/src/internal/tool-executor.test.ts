import { BaseTool } from '../tools/base-tool';
import type { ToolContext } from '../tools/tool-context';
import type { JsonSchema } from '../model/json-schema';
import { testToolContext } from '../testing/test-tool-context';
import { type ToolCallOutcome, errorResponse, executeToolCall, runToolCall } from './tool-executor';
import type { ToolCallbackChain } from '../agents/callbacks';
import { ToolsmithError } from '../errors/toolsmith-error';
import { InvalidArgumentsError } from '../errors/tool-call-errors';
import { DEFAULT_TOOL_CALL_POLICY } from '../tools/tool-call-policy';
import { invokeTool } from '../testing/invoke-tool';

class EchoTool extends BaseTool {
  readonly name = 'echo';
  readonly description = 'Echoes';
  readonly parameters: JsonSchema = {
    type: 'object',
    properties: { text: { type: 'string' }, times: { type: 'integer', minimum: 1 } },
    required: ['text'],
    additionalProperties: false,
  };
  constructor(private readonly impl: (args: Record<string, unknown>, ctx: ToolContext) => unknown = (a) => a.text) {
    super();
  }
  run(args: Record<string, unknown>, ctx: ToolContext): unknown {
    return this.impl(args, ctx);
  }
}

const context = (callId = 'c1'): ToolContext => testToolContext({ functionCallId: callId });

const run = (args: Record<string, unknown> | string, tool: BaseTool | undefined = new EchoTool(), ctx = context()) =>
  executeToolCall({ call: { id: 'c1', name: 'echo', args }, tool, availableToolNames: () => ['echo', 'other'], context: ctx });

describe('executeToolCall', () => {
  it('parses JSON text, validates, calls and wraps a non-object result', async () => {
    const out = await run('{"text":"hi"}');
    expect(out.response).toEqual({ id: 'c1', name: 'echo', response: { result: 'hi' } });
    expect(out.error).toBeUndefined();
  });

  it('returns a plain object result as the response', async () => {
    const out = await run({ text: 'x' }, new EchoTool(() => ({ status: 'ok' })));
    expect(out.response.response).toEqual({ status: 'ok' });
  });

  it('treats an empty string as no arguments', async () => {
    const out = await run('', new EchoTool(() => 'ran'));
    expect(out.error?.code).toBe('INVALID_ARGUMENTS');
    expect(out.error?.message).toContain('text: missing, expected a value (required)');
  });

  it('reports malformed JSON as an error response, not a throw', async () => {
    const out = await run('{"text": ');
    expect(out.response.isError).toBe(true);
    expect(out.error?.code).toBe('MALFORMED_ARGUMENTS');
  });

  it('lists available tools for an unknown tool', async () => {
    const out = await executeToolCall({
      call: { id: 'c1', name: 'missing', args: {} }, tool: undefined, availableToolNames: () => ['echo', 'other'], context: context(),
    });
    expect(out.error?.code).toBe('TOOL_NOT_FOUND');
    expect((out.response.response.error as { message: string }).message).toContain('echo, other');
  });

  it('answers invalid arguments as the error would, and makes the error itself when it is read', async () => {
    const out = await run({ text: 3, times: 0, extra: true });
    const error = out.error!;
    expect(error).toBeInstanceOf(InvalidArgumentsError);
    expect(ToolsmithError.isInstance(error)).toBe(true);
    // The response is the one errorResponse makes of the error: code and message, the problems said once.
    expect(out.response).toEqual(errorResponse({ id: 'c1', name: 'echo' }, error, DEFAULT_TOOL_CALL_POLICY.maxResultChars));
    // Without the tool's name, which the response carries; the error names it.
    expect(out.response.response.error).toEqual({ code: 'INVALID_ARGUMENTS', message: error.message.replace('Invalid arguments for tool "echo": ', 'Invalid arguments: ') });
    expect(error.details).toEqual({ problems: (error as InvalidArgumentsError).problems });
    expect(out.error).toBe(error); // made once
  });

  it('answers invalid arguments no repair can fix with no promise, as the full path answers them; repairable ones go the full path', async () => {
    const input = (args: Record<string, unknown>, callbacks?: ToolCallbackChain) => ({ call: { id: 'c1', name: 'echo', args }, tool: new EchoTool(), availableToolNames: ['echo'], context: context(), callbacks });
    const outcome = runToolCall(input({ times: 0, extra: true }));
    expect(outcome).not.toBeInstanceOf(Promise);
    // A beforeTool callback that returns nothing sends the call down the full path, which answers it the same.
    const full = await runToolCall(input({ times: 0, extra: true }, { beforeTool: [() => undefined], afterTool: [], onToolError: [] }));
    expect((outcome as ToolCallOutcome).response).toEqual(full.response);
    expect((outcome as ToolCallOutcome).error?.message).toBe(full.error?.message);
    // `null` for a string may be repaired: the full path decides.
    expect(runToolCall(input({ text: null }))).toBeInstanceOf(Promise);
  });

  it('answers a list of problems cut short as the error would too', async () => {
    const names = Array.from({ length: 60 }, (_, i) => `property_with_a_long_name_${i}`);
    class Wide extends EchoTool {
      override readonly parameters: JsonSchema = { type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])), required: names };
    }
    const out = await run({}, new Wide());
    const error = out.error!;
    expect(error.message).toMatch(/…and \d+ more problems\.$/);
    expect(out.response).toEqual(errorResponse({ id: 'c1', name: 'echo' }, error, DEFAULT_TOOL_CALL_POLICY.maxResultChars));
  });

  it('turns each ajv problem into one readable sentence', async () => {
    const out = await run({ text: 3, times: 0, extra: true });
    expect(out.error?.code).toBe('INVALID_ARGUMENTS');
    const messages = (out.error as unknown as { problems: { message: string }[] }).problems.map((p) => p.message);
    expect(messages).toEqual(
      expect.arrayContaining(['text: got 3, expected string', 'times: got 0, expected >= 1', 'extra: unknown property, expected it left out']),
    );
  });

  it('keeps the thrown error but shows the model only its message', async () => {
    const boom = new Error('db down');
    const out = await run({ text: 'x' }, new EchoTool(() => { throw boom; }));
    expect(out.error?.code).toBe('TOOL_EXECUTION_FAILED');
    expect(out.error?.cause).toBe(boom);
    expect(JSON.stringify(out.response)).not.toContain('at ');
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses the key %s anywhere in arguments', async (key) => {
    const out = await run(`{"text":"x","nested":{"${key}":{"polluted":true}}}`);
    expect(out.error?.code).toBe('MALFORMED_ARGUMENTS');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('enforces size and depth limits', async () => {
    const tool = new EchoTool();
    const big = await executeToolCall({
      call: { id: 'c', name: 'echo', args: JSON.stringify({ text: 'x'.repeat(200) }) },
      tool, availableToolNames: () => [], context: context(), limits: { maxChars: 100, maxDepth: 64 },
    });
    expect(big.error?.code).toBe('ARGUMENTS_TOO_LARGE');
    const deep = await executeToolCall({
      call: { id: 'c', name: 'echo', args: { text: 'x', d: { d: { d: { d: {} } } } } },
      tool, availableToolNames: () => [], context: context(), limits: { maxChars: 1000, maxDepth: 3 },
    });
    expect(deep.error?.code).toBe('ARGUMENTS_TOO_DEEP');
  });

  it('runs callbacks in order; the first returned value short-circuits', async () => {
    const calls: string[] = [];
    let ran = false;
    const out = await executeToolCall({
      call: { id: 'c1', name: 'echo', args: { text: 'x' } },
      tool: new EchoTool(() => { ran = true; }),
      availableToolNames: () => [],
      context: context(),
      callbacks: {
        beforeTool: [() => { calls.push('a'); }, () => { calls.push('b'); return { cached: 1 }; }, () => { calls.push('c'); }],
        afterTool: [],
        onToolError: [],
      },
    });
    expect(calls).toEqual(['a', 'b']);
    expect(ran).toBe(false);
    expect(out.response.response).toEqual({ cached: 1 });
  });

  it('lets onToolError recover a failure', async () => {
    const out = await executeToolCall({
      call: { id: 'c1', name: 'echo', args: { text: 'x' } },
      tool: new EchoTool(() => { throw new Error('nope'); }),
      availableToolNames: () => [],
      context: context(),
      callbacks: { beforeTool: [], afterTool: [], onToolError: [({ error }) => ({ recovered: error.code })] },
    });
    expect(out.response).toEqual({ id: 'c1', name: 'echo', response: { recovered: 'TOOL_EXECUTION_FAILED' } });
  });
});

describe('validation feedback', () => {
  it('names the failing branches of anyOf/oneOf, not the umbrella "must match a schema in anyOf"', async () => {
    const { functionTool } = jest.requireActual<typeof import('../function-tool/function-tool')>('../function-tool/function-tool');
    const { invokeTool } = jest.requireActual<typeof import('../testing/invoke-tool')>('../testing/invoke-tool');
    const tool = functionTool({
      name: 'pick',
      description: 'Picks.',
      parameters: { type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, mode: { oneOf: [{ const: 'a' }, { const: 'b' }] } } },
      execute: () => ({}),
    });
    const out = await invokeTool(tool, 'pick', { id: true, mode: 'c' });
    const problems = (out.error!.details as { problems: Array<{ message: string; keyword: string }> }).problems;
    expect(problems.map((p) => p.keyword)).not.toContain('anyOf');
    expect(problems.map((p) => p.keyword)).not.toContain('oneOf');
    expect(problems.map((p) => p.message)).toEqual(expect.arrayContaining(['id: got true, expected string or integer']));
    expect(out.error!.message).not.toContain('must match a schema');
  });

  it('says each problem once to the model: the message lists them, the error keeps them structured', async () => {
    const { functionTool } = jest.requireActual<typeof import('../function-tool/function-tool')>('../function-tool/function-tool');
    const { invokeTool } = jest.requireActual<typeof import('../testing/invoke-tool')>('../testing/invoke-tool');
    const tool = functionTool({
      name: 'create_task',
      description: 'Creates a task.',
      parameters: {
        type: 'object',
        properties: { title: { type: 'string', minLength: 1 }, priority: { enum: ['low', 'medium', 'high'] } },
        required: ['title', 'priority'],
        additionalProperties: false,
      },
      execute: () => ({}),
    });
    const out = await invokeTool(tool, 'create_task', { title: '', priority: 'urgent' });
    const problems = 'title: got "", expected at least 1 character; priority: got "urgent", expected one of "low" | "medium" | "high".';
    // The model reads no tool name (the response carries it); the error, for developers, names the tool.
    expect(out.response).toEqual({ error: { code: 'INVALID_ARGUMENTS', message: `Invalid arguments: ${problems}` } });
    expect(out.error!.message).toBe(`Invalid arguments for tool "create_task": ${problems}`);
    expect(out.error!.details).toEqual({
      problems: [
        { path: '/title', message: 'title: got "", expected at least 1 character', keyword: 'minLength' },
        { path: '/priority', message: 'priority: got "urgent", expected one of "low" | "medium" | "high"', keyword: 'enum' },
      ],
    });
  });

  it("answers a thrown InvalidArgumentsError without the tool's name, which the response carries; another call's error keeps its message", () => {
    const problems = [{ path: '/a', message: 'a: got 1, expected string', keyword: 'type' }];
    const thrown = new InvalidArgumentsError('t', problems);
    expect(errorResponse({ id: 'c', name: 't' }, thrown)).toEqual({
      id: 'c',
      name: 't',
      response: { error: { code: 'INVALID_ARGUMENTS', message: 'Invalid arguments: a: got 1, expected string.' } },
      isError: true,
    });
    expect(thrown.message).toBe('Invalid arguments for tool "t": a: got 1, expected string.');
    expect(errorResponse({ id: 'c', name: 'other' }, thrown).response).toEqual({ error: { code: 'INVALID_ARGUMENTS', message: thrown.message } });
  });

  it('still sends details that say more than the message', () => {
    const error = new ToolsmithError('TOOL_EXECUTION_FAILED', 'It failed.', { details: { problems: [{ path: '/a', message: 'not in the message', keyword: 'x' }], retryable: true } });
    expect(errorResponse({ id: 'c', name: 't' }, error).response).toEqual({
      error: { code: 'TOOL_EXECUTION_FAILED', message: 'It failed.', details: { problems: [{ path: '/a', message: 'not in the message', keyword: 'x' }], retryable: true } },
    });
    const repeated = new ToolsmithError('TOOL_EXECUTION_FAILED', 'It failed: a is bad.', { details: { problems: [{ path: '/a', message: 'a is bad', keyword: 'x' }], retryable: true } });
    expect(errorResponse({ id: 'c', name: 't' }, repeated).response).toEqual({ error: { code: 'TOOL_EXECUTION_FAILED', message: 'It failed: a is bad.', details: { retryable: true } } });
  });
});

describe('a result that throws when read', () => {
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const thenThrows = () => Object.defineProperty({}, 'then', { get: () => { throw new Error('no then'); } });

  it.each([['a revoked Proxy', revoked], ['an object whose then getter throws', thenThrows]])('%s is TOOL_EXECUTION_FAILED, on the small frame and the full path alike', async (_, make) => {
    for (const callbacks of [undefined, { beforeTool: [], afterTool: [() => undefined], onToolError: [] }]) {
      const ctx = context();
      const out = await executeToolCall({ call: { id: 'c1', name: 'echo', args: { text: 'x' } }, tool: new EchoTool(make), availableToolNames: ['echo'], context: ctx, callbacks });
      expect(out.error?.code).toBe('TOOL_EXECUTION_FAILED');
      expect(out.response.isError).toBe(true);
    }
  });

  it('invokeTool answers it too (it does not reject)', async () => {
    const out = await invokeTool(new EchoTool(revoked), 'echo', { text: 'x' });
    expect(out.error?.code).toBe('TOOL_EXECUTION_FAILED');
    expect(out.isError).toBe(true);
  });
});
