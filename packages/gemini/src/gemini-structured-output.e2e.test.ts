import { type Event, type JsonSchema, LlmAgent, Runner, functionTool } from '@toolsmith/core';
import { type SseEvent, type WireServer, startWireServer } from '@toolsmith/core/testing';
import { GeminiModel } from './gemini-model';

// Structured output through the real SDK against a local server speaking the Gemini wire protocol:
// responseMimeType + responseJsonSchema (or responseSchema for the openapi dialect), tools before the
// answer, and a streamed answer validated once complete.
const TRIP: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { city: { type: 'string', minLength: 2 }, days: { type: 'integer', minimum: 1 }, budget: { enum: ['low', 'high'] } },
  required: ['city', 'days'],
  additionalProperties: false,
};

const flights = functionTool<{ city: string }>({
  name: 'flights',
  description: 'Flights to a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }) => ({ city, cheapest: 120 }),
});

const reply = (parts: unknown[]) => ({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }, responseId: 'r' });
const chunks = (pieces: string[]): SseEvent[] =>
  pieces.map((text, index) => ({
    data: JSON.stringify(
      index === pieces.length - 1 ? reply([{ text }]) : { candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }], responseId: 'r' },
    ),
  }));

async function run(agent: LlmAgent, streaming = false): Promise<Event[]> {
  const events: Event[] = [];
  const runner = new Runner({ appName: 'travel', agent });
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Plan Lisbon' }] }, streaming })) events.push(event);
  return events;
}

describe('GeminiModel structured output when the runner is built', () => {
  it('refuses an output schema Gemini cannot take before any request', () => {
    const model = new GeminiModel({ model: 'gemini-2.5-flash', apiKey: 'k', baseUrl: 'http://127.0.0.1:9', schemaDialect: 'openapi' });
    // The OpenAPI subset has no recursion: a recursive $ref is refused.
    const outputSchema: JsonSchema = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      required: ['root'],
      $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } }, required: ['child'] } },
    };
    expect(() => new Runner({ appName: 'a', agent: new LlmAgent({ name: 'tree', model, outputSchema }) })).toThrow(expect.objectContaining({ code: 'GEMINI_SCHEMA_UNSUPPORTED' }));
    // The JSON Schema dialect unrolls recursion only through optional properties: a required recursive one is refused too.
    const jsonModel = new GeminiModel({ model: 'gemini-2.5-flash', apiKey: 'k', baseUrl: 'http://127.0.0.1:9' });
    expect(() => new Runner({ appName: 'a', agent: new LlmAgent({ name: 'tree', model: jsonModel, outputSchema }) })).toThrow(expect.objectContaining({ code: 'GEMINI_SCHEMA_UNSUPPORTED' }));
  });
});

describe('GeminiModel structured output on the wire', () => {
  let server: WireServer;
  afterEach(async () => {
    expect(server.handlerErrors).toEqual([]);
    await server.close();
  });
  const model = (schemaDialect: 'json-schema' | 'openapi' = 'json-schema') =>
    new GeminiModel({ model: 'gemini-2.5-flash', apiKey: 'k', baseUrl: server.url, schemaDialect, httpOptions: { fetch: (input, init) => fetch(input, init) } });

  it('sends responseMimeType and responseJsonSchema with the tools, runs the tool, then parses the answer', async () => {
    const bodies: Array<Record<string, unknown>> = [];
    server = await startWireServer((request, index) => {
      bodies.push(request.body);
      if (index === 0) return { json: reply([{ functionCall: { name: 'flights', args: { city: 'Lisbon' } } }]) };
      return { json: reply([{ text: '{"city":"Lisbon","days":3,"budget":"low"}' }]) };
    });
    const agent = new LlmAgent({ name: 'planner', model: model(), tools: [flights], outputSchema: TRIP, outputKey: 'trip' });
    const events = await run(agent);

    for (const body of bodies) {
      expect(body.generationConfig).toMatchObject({
        responseMimeType: 'application/json',
        responseJsonSchema: {
          type: 'object',
          properties: { city: { type: 'string', description: expect.stringContaining('2') }, days: { type: 'integer', minimum: 1 }, budget: { enum: ['low', 'high'] } },
          required: ['city', 'days'],
          additionalProperties: false,
        },
      });
      expect(JSON.stringify(body)).not.toContain('$schema');
      expect((body.tools as Array<{ functionDeclarations: Array<{ name: string }> }>)[0].functionDeclarations.map((d) => d.name)).toEqual(['flights']);
    }
    const final = events[events.length - 1];
    expect(final.output).toEqual({ city: 'Lisbon', days: 3, budget: 'low' });
    expect(final.actions.stateDelta).toEqual({ trip: { city: 'Lisbon', days: 3, budget: 'low' } });
  });

  it('sends responseSchema in the openapi dialect', async () => {
    server = await startWireServer(() => ({ json: reply([{ text: '{"city":"Porto","days":2}' }]) }));
    const events = await run(new LlmAgent({ name: 'planner', model: model('openapi'), outputSchema: TRIP }));
    expect(server.requests[0].body.generationConfig).toMatchObject({ responseMimeType: 'application/json', responseSchema: { type: 'OBJECT', required: ['city', 'days'] } });
    expect(events[events.length - 1].output).toEqual({ city: 'Porto', days: 2 });
  });

  it('streams the answer, validated once it is complete, and feeds back what the schema forbids', async () => {
    server = await startWireServer((request, index) => {
      expect(request.path).toContain(':streamGenerateContent');
      return { sse: index === 0 ? chunks(['{"city":"L",', '"days":0}']) : chunks(['{"city":"Lisbon",', '"days":4}']) };
    });
    const events = await run(new LlmAgent({ name: 'planner', model: model(), outputSchema: TRIP }), true);
    const complete = events.filter((event) => !event.partial);
    expect(complete.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', undefined]);
    expect(complete[0].errorMessage).toContain('city: got "L", expected at least 2 characters; days: got 0, expected >= 1');
    expect(complete[1].output).toEqual({ city: 'Lisbon', days: 4 });
    expect(events.filter((event) => event.partial).length).toBe(4);
  });
});
