import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { Param } from '../decorators/param.decorator';
import { invokeTool } from '../testing/invoke-tool';
import { Tool } from '../tools/tool';
import { ToolContext } from '../tools/tool-context';
import { Toolset } from '../tools/toolset';
import { scanTools } from '../scanning/tool-scanner';
import { functionTool } from './function-tool';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { runInNewContext } from 'node:vm';

// arktype ships only ES modules: jest compiles them to CommonJS (jest.config.ts), and the types come from its ESM entry.
const { type } = require('arktype') as typeof import('arktype', { with: { 'resolution-mode': 'import' } });

describe('functionTool with a Standard Schema', () => {
  it('zod: the model sees zod’s JSON Schema, zod judges every call, execute gets zod’s output typed', async () => {
    const seen: { city: string; days: number }[] = [];
    const forecast = functionTool({
      name: 'forecast',
      description: 'Forecast for a city.',
      parameters: z.object({
        city: z.string().min(2).describe('City name'),
        days: z.number().int().refine((n) => n % 7 !== 0, 'whole weeks are not offered'),
        unit: z.enum(['c', 'f']).default('c'),
      }),
      execute: (args) => {
        // Typed from the schema: a wrong property name would not compile.
        seen.push({ city: args.city, days: args.days });
        return { city: args.city.toUpperCase(), unit: args.unit };
      },
    });
    expect(forecast.parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 2, description: 'City name' },
        days: { type: 'integer' }, // zod's safe-integer bounds only repeat `.int()`: left out
        unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
      },
      required: ['city', 'days'],
    });
    // zod's default applies: the tool gets its output, not the model's input.
    expect((await invokeTool(forecast, 'forecast', { city: 'Paris', days: 3 })).response).toEqual({ city: 'PARIS', unit: 'c' });
    // A refinement JSON Schema cannot state, in zod's words, with every problem once.
    const bad = await invokeTool(forecast, 'forecast', { city: 'P', days: 14 });
    expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
    expect(bad.error?.message).toBe('Invalid arguments for tool "forecast": city: Too small: expected string to have >=2 characters; days: whole weeks are not offered.');
    // The model hears each problem once (in the message, without the tool's name the response carries); the error keeps them structured.
    expect(bad.response).toEqual({ error: { code: 'INVALID_ARGUMENTS', message: 'Invalid arguments: city: Too small: expected string to have >=2 characters; days: whole weeks are not offered.' } });
    expect(bad.error?.details).toEqual({
      problems: [
        { path: '/city', keyword: 'too_small', message: 'city: Too small: expected string to have >=2 characters' },
        { path: '/days', keyword: 'custom', message: 'days: whole weeks are not offered' },
      ],
    });
    expect(seen).toEqual([{ city: 'Paris', days: 3 }]);
  });

  it('zod: what zod says twice is sent once (a format’s own pattern, the safe-integer range), and zod still judges it', async () => {
    const book = functionTool({
      name: 'book',
      description: 'Books a trip.',
      parameters: z.object({
        day: z.iso.date(),
        code: z.string().regex(/^[A-Z]{3}$/),
        year2026: z.iso.date().regex(/^2026/),
        stops: z.array(z.object({ at: z.iso.datetime(), id: z.uuid(), nights: z.number().int() })),
        seats: z.number().int().min(1).max(9),
      }),
      execute: () => ({ booked: true }),
    });
    expect(book.parameters).toEqual({
      type: 'object',
      properties: {
        day: { type: 'string', format: 'date' },
        code: { type: 'string', pattern: '^[A-Z]{3}$' }, // the author's own regex stays
        // A regex of the author's own beside a format: zod writes both to allOf (and drops the format); all stay.
        year2026: { type: 'string', allOf: [{ pattern: expect.stringContaining('02-29') }, { pattern: '^2026' }] },
        stops: {
          type: 'array',
          items: {
            type: 'object',
            properties: { at: { type: 'string', format: 'date-time' }, id: { type: 'string', format: 'uuid' }, nights: { type: 'integer' } },
            required: ['at', 'id', 'nights'],
          },
        },
        seats: { type: 'integer', minimum: 1, maximum: 9 },
      },
      required: ['day', 'code', 'year2026', 'stops', 'seats'],
    });
    // zod judges by its own rules: 2026-02-30 matches no pattern the model saw, and is still refused.
    const bad = await invokeTool(book, 'book', { day: '2026-02-30', code: 'BER', year2026: '2026-01-01', stops: [{ at: '2026-01-01T10:00:00Z', id: 'x', nights: 2.5 }], seats: 2 });
    expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
    expect(bad.error?.message).toBe('Invalid arguments for tool "book": day: Invalid ISO date; stops[0].id: Invalid UUID; stops[0].nights: Invalid input: expected int, received number.');
  });

  it('repairs what the model commonly gets wrong (read from the JSON Schema), then zod judges again', async () => {
    const add = functionTool({ name: 'add', description: '', parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
    const outcome = await invokeTool(add, 'add', { a: '1', b: 2 });
    // OpenAI's strict mode sends null for a property left out: zod refuses it, the repair leaves it out, zod's default applies.
    const hello = functionTool({ name: 'hello', description: '', parameters: z.object({ name: z.string(), lang: z.string().default('en') }), execute: (args) => args });
    expect((await invokeTool(hello, 'hello', { name: 'Ada', lang: null })).response).toEqual({ name: 'Ada', lang: 'en' });
    // zod refuses "1" for a number; the string-to-number repair made it 1.
    expect(outcome.response).toEqual({ result: 3 });
    expect((await invokeTool(add, 'add', { a: 'one', b: 2 })).error?.message).toBe('Invalid arguments for tool "add": a: Invalid input: expected number, received string.');
  });

  it('valibot (through toStandardJsonSchema) and arktype work the same way, in their own words', async () => {
    const valibotTool = functionTool({
      name: 'v_tool',
      description: '',
      parameters: toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(2)) })),
      execute: ({ city }) => ({ city }),
    });
    expect(valibotTool.parameters).toEqual({ type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'] });
    expect((await invokeTool(valibotTool, 'v_tool', { city: 'Rome' })).response).toEqual({ city: 'Rome' });
    expect((await invokeTool(valibotTool, 'v_tool', { city: 'R' })).error?.message).toBe(
      'Invalid arguments for tool "v_tool": city: Invalid length: Expected >=2 but received 1.',
    );

    const arkTool = functionTool({ name: 'a_tool', description: '', parameters: type({ city: 'string >= 2' }), execute: ({ city }) => ({ city }) });
    expect(arkTool.parameters).toEqual({ type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'] });
    expect((await invokeTool(arkTool, 'a_tool', { city: 'Oslo' })).response).toEqual({ city: 'Oslo' });
    // arktype's message starts with the path: it is not given twice.
    expect((await invokeTool(arkTool, 'a_tool', { city: 'O' })).error?.message).toBe('Invalid arguments for tool "a_tool": city: must be at least length 2 (was 1).');
  });

  it('awaits a library whose validation is async', async () => {
    const known = new Set(['ada']);
    const lookUp = functionTool({
      name: 'look_up',
      description: '',
      parameters: z.object({ user: z.string().refine(async (name) => known.has(name), 'no such user') }),
      execute: ({ user }) => ({ user }),
    });
    expect((await invokeTool(lookUp, 'look_up', { user: 'ada' })).response).toEqual({ user: 'ada' });
    expect((await invokeTool(lookUp, 'look_up', { user: 'bob' })).error?.message).toBe('Invalid arguments for tool "look_up": user: no such user.');
  });

  it("awaits an async answer that is another realm's promise or a thenable, as a native one: its refusal refuses the call", async () => {
    const json = { type: 'object', properties: { user: { type: 'string' } }, required: ['user'], additionalProperties: false } as const;
    // A promise of a vm context (what a sandbox or a test runner hands over), and a Bluebird-like thenable.
    const foreignPromise = (value: unknown): PromiseLike<unknown> => runInNewContext('Promise.resolve(value)', { value }) as PromiseLike<unknown>;
    const thenable = (value: unknown): PromiseLike<unknown> => ({ then: (resolve?: ((v: unknown) => unknown) | null) => (resolve?.(value), undefined) }) as unknown as PromiseLike<unknown>;
    for (const answerWith of [foreignPromise, thenable]) {
      const ran: unknown[] = [];
      const checked = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => answerWith((value as { user?: string }).user === 'ada' ? { value } : { issues: [{ message: 'no such user', path: ['user'] }] }), jsonSchema: { input: () => json, output: () => json } } };
      const lookUp = functionTool({ name: 'look_up', description: '', parameters: checked as unknown as StandardSchemaV1<{ user: string }>, execute: (args) => (ran.push(args), { ok: true }) });
      expect((await invokeTool(lookUp, 'look_up', { user: 'bob' })).error?.message).toBe('Invalid arguments for tool "look_up": user: no such user.');
      expect(ran).toEqual([]);
      expect((await invokeTool(lookUp, 'look_up', { user: 'ada' })).response).toEqual({ ok: true });
      expect(ran).toEqual([{ user: 'ada' }]);
    }
  });

  it("keeps formats and keywords ajv does not know in a library's schema: the library judges them (h42d)", async () => {
    const tool = functionTool({ name: 'find', description: 'Finds.', parameters: z.object({ id: z.cuid(), tag: z.string().meta({ 'ui:widget': 'select' }) }), execute: ({ id }) => id });
    expect(tool.parameters).toMatchObject({ properties: { id: { format: 'cuid' }, tag: { 'ui:widget': 'select' } } });
    expect(await invokeTool(tool, 'find', { id: 'not a cuid', tag: 'a' })).toMatchObject({ error: { code: 'INVALID_ARGUMENTS' } });
  });

  it('refuses at creation a Standard Schema without a JSON Schema converter, saying what to do', () => {
    expect(() => functionTool({ name: 'plain_valibot', description: '', parameters: v.object({ a: v.string() }), execute: () => 1 })).toThrow(
      'functionTool.plain_valibot: the explicit schema is not usable: it is a "valibot" Standard Schema without a JSON Schema converter',
    );
    expect(() => functionTool({ name: 'plain_valibot', description: '', parameters: v.object({ a: v.string() }), execute: () => 1 })).toThrow(
      'wrap a valibot schema with toStandardJsonSchema(schema) from @valibot/to-json-schema',
    );
    expect(() => functionTool({ name: 'mini', description: '', parameters: zm.object({ a: zm.string() }), execute: () => 1 })).toThrow(
      'it is a "zod" Standard Schema without a JSON Schema converter',
    );
    // A converter that throws (zod cannot state a transform's input… of a Date) is reported with its reason.
    expect(() => functionTool({ name: 'dates', description: '', parameters: z.object({ at: z.date() }), execute: () => 1 })).toThrow(
      /functionTool\.dates: the explicit schema is not usable: its library \("zod"\) could not convert it to JSON Schema \(.+\)/,
    );
    // Not an object schema: the same check as a JSON Schema.
    expect(() => functionTool({ name: 'text', description: '', parameters: z.string(), execute: () => 1 })).toThrow('its type is "string", not "object"');
  });

  it('converts a Standard Schema responseSchema (its output side) once', () => {
    const tool = functionTool({ name: 'r', description: '', responseSchema: z.object({ ok: z.boolean() }), execute: () => ({ ok: true }) });
    expect(tool.responseSchema).toEqual({ type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false });
  });
});

@Toolset()
class OrderTools {
  readonly shipped: unknown[] = [];

  @Tool({
    description: 'Ships an order.',
    input: z.object({ orderId: z.string().regex(/^A-\d{4}$/), express: z.boolean().default(false) }),
    requireConfirmation: (args) => args.express,
  })
  ship(args: { orderId: string; express: boolean }, _ctx: ToolContext) {
    this.shipped.push(args);
    return { shipped: args.orderId, express: args.express };
  }

  @Tool({ description: 'Lists orders.', outputSchema: z.object({ status: z.string(), limit: z.number(), note: z.string() }) })
  list(
    @Param('status', { schema: z.enum(['open', 'shipped']) }) status: 'open' | 'shipped',
    @Param('limit', { schema: z.number().int().positive().optional() }) limit = 10,
    @Param('note') note: string,
  ) {
    return { status, limit, note };
  }

  @Tool({ description: 'Plans a trip.' })
  plan(
    @Param('days', { schema: z.number().int().default(3) }) days: number,
    @Param('unit', { schema: toStandardJsonSchema(v.optional(v.picklist(['c', 'f']), 'c')) }) unit: 'c' | 'f',
    @Param('tags', { schema: z.array(z.string()).default([]) }) tags: string[],
    @Param('city', { schema: z.string().optional().transform((city) => city ?? 'Paris') }) city: string,
    @Param('note', { schema: z.string(), optional: true }) note?: string,
  ) {
    return { days, unit, tags, city, note: note ?? null };
  }
}

describe('@Tool({ input }) and @Param({ schema }) with a Standard Schema', () => {
  it('@Tool({ input }): the whole arguments object, judged by the library; requireConfirmation sees its output', async () => {
    const [ship] = scanTools(OrderTools);
    expect(ship.parameters).toEqual({
      type: 'object',
      properties: { orderId: { type: 'string', pattern: '^A-\\d{4}$' }, express: { type: 'boolean', default: false } },
      required: ['orderId'],
    });
    const tools = new OrderTools();
    expect((await invokeTool(tools, 'ship', { orderId: 'A-1234' })).response).toEqual({ shipped: 'A-1234', express: false });
    expect(tools.shipped).toEqual([{ orderId: 'A-1234', express: false }]);
    expect((await invokeTool(tools, 'ship', { orderId: 'A-1234', express: true })).confirmationRequested).toBe(true);
    expect((await invokeTool(tools, 'ship', { orderId: 'B-1' })).error?.message).toBe('Invalid arguments for tool "ship": orderId: Invalid string: must match pattern /^A-\\d{4}$/.');
  });

  it('refuses input together with inputSchema at startup', () => {
    class Both {
      @Tool({ input: z.object({ a: z.string() }), inputSchema: { type: 'object' } })
      both(args: { a: string }) {
        return args;
      }
    }
    expect(() => scanTools(Both)).toThrow('Both.both: the explicit schema is not usable: both input and inputSchema are given.');
  });

  it('@Param({ schema }): each property has one judge (the library, or ajv for the others); a schema accepting undefined is optional', async () => {
    const [, list] = scanTools(OrderTools);
    expect(list.parameters).toEqual({
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['open', 'shipped'] },
        limit: { type: 'integer', exclusiveMinimum: 0 }, // zod's safe-integer maximum only repeats `.int()`
        note: { type: 'string' },
      },
      required: ['status', 'note'],
      additionalProperties: false,
    });
    // An output Standard Schema is converted once too (its output side).
    expect(list.responseSchema).toEqual({
      type: 'object',
      properties: { status: { type: 'string' }, limit: { type: 'number' }, note: { type: 'string' } },
      required: ['status', 'limit', 'note'],
      additionalProperties: false,
    });
    const tools = new OrderTools();
    expect((await invokeTool(tools, 'list', { status: 'open', note: 'n' })).response).toEqual({ status: 'open', limit: 10, note: 'n' });
    const bad = await invokeTool(tools, 'list', { status: 'cancelled', limit: -1, note: 5, extra: true });
    expect(bad.error?.message).toBe(
      'Invalid arguments for tool "list": extra: unknown property, expected it left out; note: got 5, expected string; ' +
        'status: Invalid option: expected one of "open"|"shipped"; limit: Too small: expected number to be >0.',
    );
  });

  it("@Param({ schema }): a property the model leaves out gets its library's default (and transform); one optional by @Param only stays out", async () => {
    const tools = new OrderTools();
    expect((await invokeTool(tools, 'plan', {})).response).toEqual({ days: 3, unit: 'c', tags: [], city: 'Paris', note: null });
    expect((await invokeTool(tools, 'plan', { days: 5, unit: 'f', tags: ['x'], city: 'Rome', note: 'n' })).response).toEqual({ days: 5, unit: 'f', tags: ['x'], city: 'Rome', note: 'n' });
    expect((await invokeTool(tools, 'plan', { days: 'many' })).error?.code).toBe('INVALID_ARGUMENTS');
  });
});
