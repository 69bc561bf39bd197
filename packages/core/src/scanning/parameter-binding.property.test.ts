import fc from 'fast-check';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Param } from '../decorators/param.decorator';
import { Container } from '../di/container';
import { executeToolCall } from '../internal/tool-executor';
import { BaseTool } from '../tools/base-tool';
import { Tool } from '../tools/tool';
import { ToolContext } from '../tools/tool-context';
import { testToolContext } from '../testing/test-tool-context';
import { createClassTools } from './class-tools';

class FilterDto {
  @IsString() query!: string;
  @IsInt() @Min(1) @Max(50) limit!: number;
  @IsOptional() @IsIn(['asc', 'desc']) order?: 'asc' | 'desc';
  @IsBoolean() exact!: boolean;
}

const received: unknown[][] = [];

class Tools {
  @Tool()
  flat(
    @Param('text') text: string,
    @Param('count') count: number,
    @Param('flag') flag: boolean,
    @Param('mode', { enum: ['a', 'b', 'c'] }) mode: string,
    @Param('note', { optional: true }) note?: string,
  ) {
    received.push([text, count, flag, mode, note]);
    return { ok: true };
  }

  @Tool()
  search(filter: FilterDto) {
    received.push([filter instanceof FilterDto, { ...filter }]);
    return { ok: true };
  }
}

const tools = createClassTools(new Tools(), { container: new Container() });
const byName = (name: string) => tools.find((t) => t.name === name) as BaseTool;

const context = (): ToolContext => testToolContext({ functionCallId: 'c' });
const call = (name: string, args: Record<string, unknown> | string) =>
  executeToolCall({ call: { id: 'c', name, args }, tool: byName(name), availableToolNames: () => [], context: context() });

const flatArgs = fc.record(
  {
    text: fc.string(),
    count: fc.double({ noNaN: true, noDefaultInfinity: true }),
    flag: fc.boolean(),
    mode: fc.constantFrom('a', 'b', 'c'),
    note: fc.string(),
  },
  { requiredKeys: ['text', 'count', 'flag', 'mode'] },
);
const dtoArgs = fc.record(
  { query: fc.string(), limit: fc.integer({ min: 1, max: 50 }), order: fc.constantFrom('asc', 'desc'), exact: fc.boolean() },
  { requiredKeys: ['query', 'limit', 'exact'] },
);

/** One change that makes valid arguments invalid. */
const mutation = (keys: { required: string[]; all: string[] }) =>
  fc.oneof(
    fc.constantFrom(...keys.required).map((key) => (args: Record<string, unknown>) => {
      const { [key]: _dropped, ...rest } = args;
      return rest;
    }),
    // `null` for an optional key is repaired (left out: the null-for-optional repair), so it is no mutation there.
    fc.tuple(fc.constantFrom(...keys.all), fc.constantFrom<unknown>([], {}, null, Symbol.for('x'))).filter(([key, value]) => value !== null || keys.required.includes(key)).map(
      ([key, value]) => (args: Record<string, unknown>) => ({ ...args, [key]: typeof value === 'symbol' ? { nested: true } : value }),
    ),
    fc.string({ minLength: 1 }).filter((k) => !keys.all.includes(k) && !['__proto__', 'constructor', 'prototype'].includes(k)).map(
      (extra) => (args: Record<string, unknown>) => ({ ...args, [extra]: 1 }),
    ),
  );

describe('parameter binding (property-based)', () => {
  it('accepts every valid flat call and passes the values in declaration order', async () => {
    await fc.assert(
      fc.asyncProperty(flatArgs, fc.boolean(), async (args, asText) => {
        received.length = 0;
        const out = await call('flat', asText ? JSON.stringify(args) : args);
        expect(out.error).toBeUndefined();
        expect(out.response.response).toEqual({ ok: true });
        // Text or object, the tool gets the number JSON carries (-0 as 0).
        const count: unknown = JSON.parse(JSON.stringify(args.count));
        expect(received).toEqual([[args.text, count, args.flag, args.mode, args.note]]);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects every mutated flat call with INVALID_ARGUMENTS, without calling the method', async () => {
    await fc.assert(
      fc.asyncProperty(flatArgs, mutation({ required: ['text', 'count', 'flag', 'mode'], all: ['text', 'count', 'flag', 'mode', 'note'] }), async (args, mutate) => {
        received.length = 0;
        const out = await call('flat', mutate(args));
        expect(out.error?.code).toBe('INVALID_ARGUMENTS');
        expect(received).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('accepts every valid DTO call and hands over an instance with the same values', async () => {
    await fc.assert(
      fc.asyncProperty(dtoArgs, async (args) => {
        received.length = 0;
        const out = await call('search', args);
        expect(out.error).toBeUndefined();
        expect(received).toEqual([[true, args]]);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects every mutated DTO call', async () => {
    await fc.assert(
      fc.asyncProperty(dtoArgs, mutation({ required: ['query', 'limit', 'exact'], all: ['query', 'limit', 'exact'] }), async (args, mutate) => {
        received.length = 0;
        const out = await call('search', mutate(args));
        expect(out.error?.code).toBe('INVALID_ARGUMENTS');
        expect(received).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
