import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';
import { LlmAgent } from '../agents/llm-agent';
import { functionTool } from '../function-tool/function-tool';
import type { LlmRequest } from '../model/llm-request';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { collect } from './__fixtures__/test-tools';
import { Runner } from './runner';

// arktype ships only ES modules: jest compiles them to CommonJS (jest.config.ts), and the types come from its ESM entry.
const { type } = require('arktype') as typeof import('arktype', { with: { 'resolution-mode': 'import' } });

/** The function responses the model was sent in a request. */
function responsesIn(request: LlmRequest) {
  return request.contents.flatMap((content) => content.parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : [])));
}

const libraries: [string, StandardSchemaV1<unknown, { city: string; nights: number }>, string][] = [
  ['zod', z.object({ city: z.string(), nights: z.number().int().min(1) }), 'nights: Too small: expected number to be >=1'],
  ['valibot', toStandardJsonSchema(v.object({ city: v.string(), nights: v.pipe(v.number(), v.integer(), v.minValue(1)) })), 'nights: Invalid value: Expected >=1 but received 0'],
  ['arktype', type({ city: 'string', nights: 'number.integer >= 1' }), 'nights: must be at least 1 (was 0)'],
];

describe.each(libraries)('a run with a %s tool', (_library, schema, problem) => {
  it('sends the library’s JSON Schema, feeds invalid arguments back in its words, and runs the tool once with valid ones', async () => {
    const booked: { city: string; nights: number }[] = [];
    const book = functionTool({
      name: 'book_hotel',
      description: 'Books a hotel.',
      parameters: schema,
      execute: (args) => {
        booked.push(args);
        return { booked: true };
      },
    });
    const model = new ScriptedModel([
      { calls: [{ id: 'c1', name: 'book_hotel', args: { city: 'Oslo', nights: 0 } }] },
      { calls: [{ id: 'c2', name: 'book_hotel', args: { city: 'Oslo', nights: 2 } }] },
      'Booked two nights in Oslo.',
    ]);
    const runner = new Runner({ appName: 'travel', agent: new LlmAgent({ name: 'agent', model, tools: [book] }), sessionService: new InMemorySessionService() });
    const events = await collect(runner, 'Book Oslo');

    const declared = model.requests[0].tools?.find((tool) => tool.name === 'book_hotel');
    expect(declared?.parameters).toMatchObject({ type: 'object', properties: { city: { type: 'string' }, nights: expect.objectContaining({ minimum: 1 }) }, required: ['city', 'nights'] });
    const [refused] = responsesIn(model.requests[1]);
    expect(refused.isError).toBe(true);
    expect(refused.response).toEqual({
      error: {
        code: 'INVALID_ARGUMENTS',
        message: `Invalid arguments: ${problem}.`,
      },
    });
    expect(responsesIn(model.requests[2]).at(-1)?.response).toEqual({ booked: true });
    expect(booked).toEqual([{ city: 'Oslo', nights: 2 }]);
    expect(events.at(-1)?.text()).toBe('Booked two nights in Oslo.');
  });
});

describe('LlmAgent outputSchema with a zod schema', () => {
  it('asks for zod’s JSON Schema, has zod judge the answer (refinements too), and types outputOf from it', async () => {
    const Forecast = z.object({ city: z.string(), low: z.number(), high: z.number() }).refine((f) => f.low <= f.high, { message: 'low must not exceed high', path: ['low'] });
    const model = new ScriptedModel(['{"city":"Paris","low":25,"high":20}', '{"city":"Paris","low":12,"high":20}']);
    const sessionService = new InMemorySessionService();
    const agent = new LlmAgent({ name: 'forecaster', model, outputSchema: Forecast, outputKey: 'forecast' });
    const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'Weather in Paris?');

    expect(model.requests[0].responseSchema).toEqual({
      name: 'forecaster_output',
      schema: { type: 'object', properties: { city: { type: 'string' }, low: { type: 'number' }, high: { type: 'number' } }, required: ['city', 'low', 'high'] },
    });
    expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', undefined]);
    expect(events[0].errorMessage).toContain('low: must not exceed high');
    const output = agent.outputOf(events[1]);
    // @ts-expect-error -- typed from the schema: `city` is a string
    const wrong: { city: number } | undefined = agent.outputOf(events[1]);
    expect(wrong).toBe(output);
    expect(output?.high).toBe(20);
    expect(output).toEqual({ city: 'Paris', low: 12, high: 20 });
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.state.forecast).toEqual({ city: 'Paris', low: 12, high: 20 });
  });

  it("refuses an output value holding a number JSON cannot carry (a transform's Infinity) as OUTPUT_INVALID, nothing stored", async () => {
    const Scaled = z.object({ total: z.number().pipe(z.transform((n) => n * 1e308)) });
    const model = new ScriptedModel(['{"total":10}', '{"total":0}']);
    const sessionService = new InMemorySessionService();
    const agent = new LlmAgent({ name: 'a', model, outputSchema: Scaled, outputKey: 'result' });
    const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'Total?');

    expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', undefined]);
    expect(events[0].errorMessage).toContain('total: got Infinity, expected a finite number');
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.state).toEqual({ result: { total: 0 } });
  });

  // A transform may return anything; what is stored with the event and under outputKey is plain JSON.
  const notJson: [string, (answer: { a: number }) => unknown, string][] = [
    ['a BigInt', (answer) => ({ ...answer, x: 1n }), 'x: got a value that is a BigInt'],
    ['a cycle', (answer) => { const o: Record<string, unknown> = { ...answer }; o.self = o; return o; }, 'answer: nested deeper than 64 levels, or has a cycle'],
    ['a Date', (answer) => ({ ...answer, x: new Date(0) }), 'x: got a Date, expected plain JSON data'],
    ['a Map', (answer) => ({ ...answer, x: new Map([[1, 2]]) }), 'x: got a Map, expected plain JSON data'],
    ['a function', (answer) => ({ ...answer, x: () => 1 }), 'x: got a value that is a function'],
    ['5,000 levels of nesting', (answer) => { let o: unknown = 1; for (let i = 0; i < 5000; i++) o = [o]; return { ...answer, x: o }; }, 'answer: nested deeper than 64 levels'],
    ['a revoked Proxy (zod throws on it)', () => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; }, "answer: could not be validated (Cannot perform 'getPrototypeOf' on a proxy that has been revoked)"],
    ['a getter that throws', (answer) => ({ ...answer, get x(): number { throw new Error('no x'); } }), 'x: could not be read (no x)'],
    ['NaN deep in an array', (answer) => ({ ...answer, list: [1, { y: [2, NaN] }] }), 'list[1].y[1]: got NaN, expected a finite number'],
    ['nothing', () => undefined, 'answer: got nothing'],
  ];
  it.each(notJson)("refuses a transform's output holding %s as OUTPUT_INVALID at its place, with the retries, nothing stored", async (_what, transform, problem) => {
    const model = new ScriptedModel(['{"a":1}', '{"a":2}', '{"a":3}']);
    const sessionService = new InMemorySessionService();
    const agent = new LlmAgent({ name: 'a', model, outputSchema: z.object({ a: z.number() }).transform(transform), outputKey: 'result' });
    const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'Answer?');

    expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', 'OUTPUT_INVALID', 'OUTPUT_INVALID']);
    for (const event of events) {
      expect(event.errorMessage).toContain(problem);
      expect(event.output).toBeUndefined();
    }
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.state).toEqual({});
    expect(() => JSON.stringify(sessionService.toJSON())).not.toThrow();
  });

  it('refuses a revoked Proxy that a Standard Schema library hands back without looking at it as OUTPUT_INVALID', async () => {
    const zodSchema = z.object({ a: z.number() });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const schema: StandardSchemaV1<unknown, unknown> = { '~standard': { ...zodSchema['~standard'], validate: () => ({ value: revoked.proxy }) } };
    const sessionService = new InMemorySessionService();
    const agent = new LlmAgent({ name: 'a', model: new ScriptedModel(['{"a":1}', '{"a":2}', '{"a":3}']), outputSchema: schema, outputKey: 'result' });
    const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'Answer?');

    expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', 'OUTPUT_INVALID', 'OUTPUT_INVALID']);
    expect(events[2].errorMessage).toContain("answer: could not be read (Cannot perform 'IsArray' on a proxy that has been revoked)");
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.state).toEqual({});
  });

  it("stores a plain copy of a transform's output: read once, -0 as 0, undefined members left out, never the transform's own object", async () => {
    let reads = 0;
    let made: object | undefined;
    const schema = z.object({ a: z.number() }).transform((answer) => {
      made = { ...answer, zero: -0, gone: undefined, get once() { return ++reads === 1 ? 1 : NaN; } };
      return made;
    });
    const sessionService = new InMemorySessionService();
    const agent = new LlmAgent({ name: 'a', model: new ScriptedModel(['{"a":1}']), outputSchema: schema, outputKey: 'result' });
    const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'Answer?');

    const output = events[0].output as Record<string, unknown>;
    expect(events[0].errorCode).toBeUndefined();
    expect(output).toEqual({ a: 1, zero: 0, once: 1 });
    expect(Object.is(output.zero, 0)).toBe(true);
    expect('gone' in output).toBe(false);
    expect(output).not.toBe(made);
    expect(Object.getOwnPropertyDescriptor(output, 'once')?.get).toBeUndefined();
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.state.result).toEqual({ a: 1, zero: 0, once: 1 });
    expect(JSON.parse(JSON.stringify(sessionService.toJSON()))).toBeTruthy();
  });

  it('refuses a schema whose library has no JSON Schema converter when the agent is built', () => {
    expect(() => new LlmAgent({ name: 'a', model: new ScriptedModel([]), outputSchema: v.object({ city: v.string() }) })).toThrow(
      'Agent "a": outputSchema is invalid (it is a "valibot" Standard Schema without a JSON Schema converter',
    );
  });
});
