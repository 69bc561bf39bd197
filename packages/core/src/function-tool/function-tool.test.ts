import { IsInt, IsString, Min } from 'class-validator';
import { z } from 'zod';
import { invokeTool } from '../testing/invoke-tool';
import { BaseTool } from '../tools/base-tool';
import { allowTools, filterToolset } from '../tools/filter-toolset';
import { functionTool } from './function-tool';
import { ToolContext } from '../tools/tool-context';

class GreetDto {
  @IsString() name!: string;
  @IsInt() @Min(1) times!: number;
  greeting() {
    return `hi ${this.name}`.repeat(this.times);
  }
}

describe('functionTool', () => {
  it('runs a plain function with a JSON Schema, validated and wrapped like any tool', async () => {
    const add = functionTool({
      name: 'add',
      description: 'Adds two numbers.',
      parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      execute: ({ a, b }: { a: number; b: number }, ctx: ToolContext) => {
        ctx.state.set('temp:sum', a + b);
        return a + b;
      },
    });
    expect(add).toBeInstanceOf(BaseTool);
    expect(add.declaration()).toEqual({ name: 'add', description: 'Adds two numbers.', parameters: add.parameters });
    expect(await invokeTool(add, 'add', '{"a":1,"b":2}')).toMatchObject({ response: { result: 3 }, stateDelta: { 'temp:sum': 3 } });
    const bad = await invokeTool(add, 'add', { a: 1 });
    expect(bad.error?.message).toBe('Invalid arguments for tool "add": b: missing, expected a value (required).');
  });

  it('takes a DTO class: the schema comes from it and execute gets an instance', async () => {
    const greet = functionTool({ name: 'greet', description: 'Greets.', parameters: GreetDto, execute: (dto: GreetDto) => dto.greeting() });
    expect(greet.parameters).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, times: { type: 'integer', minimum: 1 } },
      required: ['name', 'times'],
      additionalProperties: false,
    });
    expect((await invokeTool(greet, 'greet', { name: 'x', times: 2 })).response).toEqual({ result: 'hi xhi x' });
    expect((await invokeTool(greet, 'greet', { name: 'x', times: 0 })).error?.code).toBe('INVALID_ARGUMENTS');
  });

  it('defaults to no parameters and carries the flags', async () => {
    const ping = functionTool({ name: 'ping', description: '', execute: () => ({ pong: true }), isLongRunning: true, requireConfirmation: true });
    expect(ping.parameters).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(ping.isLongRunning).toBe(true);
    expect((await invokeTool(ping, 'ping', { x: 1 })).error?.message).toBe('Invalid arguments for tool "ping": x: unknown property, expected it left out.');
    expect((await invokeTool(ping, 'ping', {})).confirmationRequested).toBe(true);
  });

  it('rejects a bad name or schema at creation', () => {
    expect(() => functionTool({ name: 'no spaces', description: '', execute: () => 1 })).toThrow('tool name "no spaces" is invalid');
    expect(() => functionTool({ name: 'x', description: '', parameters: { type: 'array' }, execute: () => 1 })).toThrow(
      'functionTool.x: the explicit schema is not usable: its type is "array", not "object".',
    );
    // A zod union at the root converts to anyOf, with no type: the error says what it is, not "its type is undefined".
    const union = z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]);
    expect(() => functionTool({ name: 'x', description: '', parameters: union as never, execute: () => 1 })).toThrow(
      'functionTool.x: the explicit schema is not usable: the root must be an object schema (type "object"), and it is a union (anyOf of 2 schemas);',
    );
    for (const [schema, what] of [[{ oneOf: [] }, 'a union (oneOf of 0 schemas)'], [{ allOf: [] }, 'an intersection (allOf)'], [{ $ref: '#/$defs/A' }, 'a reference ("#/$defs/A")'], [{}, 'a schema without a type']] as const) {
      expect(() => functionTool({ name: 'x', description: '', parameters: schema as never, execute: () => 1 })).toThrow(`and it is ${what};`);
    }
  });

  it('a Standard Schema that fails with no issue: the model hears that the schema refused without naming a problem', async () => {
    const json = { type: 'object', properties: { a: { type: 'string' } } };
    const refusing = { '~standard': { version: 1 as const, vendor: 'test', validate: () => ({ issues: [] }), jsonSchema: { input: () => json, output: () => json } } };
    let ran = false;
    const tool = functionTool({ name: 'refuses', description: '', parameters: refusing as never, execute: () => ((ran = true), { ok: true }) });
    const out = await invokeTool(tool, 'refuses', { a: 'x' });
    expect(out.response).toEqual({ error: { code: 'INVALID_ARGUMENTS', message: "Invalid arguments: arguments: refused by the schema's library, which named no problem." } });
    expect(ran).toBe(false);
  });
});

describe('filterToolset and allowTools', () => {
  const tool = (name: string) => functionTool({ name, description: name, execute: () => name });
  it('offers only the allowed tools, asks again each time, and closes the inner toolset', async () => {
    let closed = false;
    const inner = { getTools: () => [tool('a'), tool('b'), tool('c')], close: () => void (closed = true) };
    const filtered = filterToolset(inner, allowTools(['a', 'c']));
    const context = { appName: 'x', userId: 'u', sessionId: 's', invocationId: 'i', agentName: 'g', state: { get: () => undefined, has: () => false, toObject: () => ({}) } };
    expect((await filtered.getTools(context)).map((t) => t.name)).toEqual(['a', 'c']);
    const byUser = filterToolset(inner, (t, ctx) => ctx.userId === 'admin' || t.name !== 'b');
    expect((await byUser.getTools(context)).map((t) => t.name)).toEqual(['a', 'c']);
    expect((await byUser.getTools({ ...context, userId: 'admin' })).map((t) => t.name)).toEqual(['a', 'b', 'c']);
    await filtered.close?.();
    expect(closed).toBe(true);
    expect((await invokeTool(filtered, 'b', {})).error?.code).toBe('TOOL_NOT_FOUND');
    expect((await invokeTool(filtered, 'a', {})).response).toEqual({ result: 'a' });
  });
});
