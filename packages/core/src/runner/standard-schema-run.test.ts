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

  it('refuses a schema whose library has no JSON Schema converter when the agent is built', () => {
    expect(() => new LlmAgent({ name: 'a', model: new ScriptedModel([]), outputSchema: v.object({ city: v.string() }) })).toThrow(
      'Agent "a": outputSchema is invalid (it is a "valibot" Standard Schema without a JSON Schema converter',
    );
  });
});
