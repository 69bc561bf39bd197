import { type Event, type JsonSchema, LlmAgent, Runner, functionTool } from '@toolsmith/core';
import { type SseEvent, type WireServer, startWireServer } from '@toolsmith/core/testing';
import { OpenAIModel } from './openai-model';
import { StrictSchemaError } from './strict-schema-error';

// Structured output through the real SDK against a local server speaking the wire protocol: what the
// request carries (response_format / text.format, strict), tools before the answer, and a streamed answer.
const WEATHER: JsonSchema = {
  type: 'object',
  title: 'Weather',
  properties: { city: { type: 'string' }, celsius: { type: 'number' }, note: { type: 'string' } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};
const STRICT_WEATHER = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' }, note: { type: ['string', 'null'] } },
  required: ['city', 'celsius', 'note'],
  additionalProperties: false,
};
const ANSWER = '{"city":"Paris","celsius":21,"note":null}';

const lookup = functionTool<{ city: string }>({
  name: 'lookup',
  description: 'Looks the weather up.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }) => ({ city, celsius: 21 }),
});

const completion = (message: Record<string, unknown>, finishReason: string) => ({
  id: 'chatcmpl-so',
  object: 'chat.completion',
  created: 1763800000,
  model: 'gpt-4.1-mini',
  choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, logprobs: null, finish_reason: finishReason }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
});

const chatChunks = (pieces: string[]): SseEvent[] => [
  ...pieces.map((content, index) => ({
    data: JSON.stringify({ id: 'chatcmpl-so', object: 'chat.completion.chunk', created: 1763800000, model: 'gpt-4.1-mini', choices: [{ index: 0, delta: index === 0 ? { role: 'assistant', content } : { content }, finish_reason: null }] }),
  })),
  { data: JSON.stringify({ id: 'chatcmpl-so', object: 'chat.completion.chunk', created: 1763800000, model: 'gpt-4.1-mini', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) },
  { data: '[DONE]' },
];

const responsesMessage = (text: string) => ({
  id: 'resp_so',
  object: 'response',
  created_at: 1763800000,
  status: 'completed',
  model: 'gpt-4.1-mini',
  output: [{ id: 'msg_so', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], text }] }],
  usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
});

const responsesChunks = (pieces: string[]): SseEvent[] => {
  const text = pieces.join('');
  const events: Array<Record<string, unknown>> = [
    { type: 'response.created', response: { ...responsesMessage(''), status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_so', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
    ...pieces.map((delta) => ({ type: 'response.output_text.delta', item_id: 'msg_so', output_index: 0, content_index: 0, delta })),
    { type: 'response.output_text.done', item_id: 'msg_so', output_index: 0, content_index: 0, text },
    { type: 'response.completed', response: responsesMessage(text) },
  ];
  return events.map((event, index) => ({ event: event.type as string, data: JSON.stringify({ ...event, sequence_number: index }) }));
};

async function run(agent: LlmAgent, streaming = false): Promise<Event[]> {
  const events: Event[] = [];
  const runner = new Runner({ appName: 'weather', agent });
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] }, streaming })) events.push(event);
  return events;
}

describe('OpenAIModel structured output when the runner is built', () => {
  it('refuses an output schema strict mode cannot express before any request', () => {
    const model = new OpenAIModel({ model: 'gpt-4.1-mini', apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' });
    const outputSchema: JsonSchema = { type: 'object', properties: { scores: { type: 'object', patternProperties: { '^x': { type: 'number' } } } } };
    expect(() => new Runner({ appName: 'a', agent: new LlmAgent({ name: 'scorer', model, outputSchema }) })).toThrow(StrictSchemaError);
    // Without strict mode the canonical schema is sent as it is.
    const lenient = new OpenAIModel({ model: 'gpt-4.1-mini', apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', strict: false });
    expect(() => new Runner({ appName: 'a', agent: new LlmAgent({ name: 'scorer', model: lenient, outputSchema }) })).not.toThrow();
  });
});

describe('OpenAIModel structured output on the wire', () => {
  let server: WireServer;
  afterEach(async () => {
    expect(server.handlerErrors).toEqual([]);
    await server.close();
  });
  const model = (api: 'chat' | 'responses', strict = true) => new OpenAIModel({ model: 'gpt-4.1-mini', api, strict, baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 });

  it('Chat: sends response_format json_schema (strict transform) with the tools, runs the tool, then parses the answer', async () => {
    const bodies: Array<Record<string, unknown>> = [];
    server = await startWireServer((request, index) => {
      bodies.push(request.body);
      if (index === 0) return { json: completion({ content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"city":"Paris"}' } }] }, 'tool_calls') };
      return { json: completion({ content: ANSWER }, 'stop') };
    });
    const agent = new LlmAgent({ name: 'forecaster', model: model('chat'), tools: [lookup], outputSchema: WEATHER, outputKey: 'weather' });
    const events = await run(agent);

    for (const body of bodies) {
      expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'Weather', strict: true, schema: STRICT_WEATHER } });
      expect((body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name)).toEqual(['lookup']);
    }
    const final = events[events.length - 1];
    // Strict mode's null for the optional `note` is the null-for-optional repair, not a validation failure.
    expect(final.output).toEqual({ city: 'Paris', celsius: 21 });
    expect(final.actions.stateDelta).toEqual({ weather: { city: 'Paris', celsius: 21 } });
  });

  it('Chat: streams the answer, validated once it is complete', async () => {
    server = await startWireServer(() => ({ sse: chatChunks(['{"city":"Pa', 'ris","celsius":', '21,"note":null}']) }));
    const events = await run(new LlmAgent({ name: 'forecaster', model: model('chat'), outputSchema: WEATHER }), true);
    expect(server.requests[0].body).toMatchObject({ stream: true, response_format: { type: 'json_schema', json_schema: { name: 'Weather', strict: true } } });
    expect(events.filter((event) => event.partial).length).toBe(3);
    expect(events[events.length - 1].output).toEqual({ city: 'Paris', celsius: 21 });
  });

  it('Chat without strict mode sends the canonical schema, and an invalid answer is fed back', async () => {
    server = await startWireServer((request, index) => {
      if (index === 0) {
        expect(request.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'Weather', strict: false, schema: WEATHER } });
        return { json: completion({ content: '{"city":"Paris","celsius":"warm"}' }, 'stop') };
      }
      const messages = request.body.messages as Array<{ role: string; content: string }>;
      expect(messages.slice(-2)).toEqual([
        { role: 'assistant', content: '{"city":"Paris","celsius":"warm"}' },
        { role: 'user', content: expect.stringContaining('celsius: got "warm", expected number') },
      ]);
      return { json: completion({ content: '{"city":"Paris","celsius":21}' }, 'stop') };
    });
    const events = await run(new LlmAgent({ name: 'forecaster', model: model('chat', false), outputSchema: WEATHER }));
    expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', undefined]);
    expect(events[1].output).toEqual({ city: 'Paris', celsius: 21 });
  });

  it('Responses: sends text.format json_schema and parses the answer, streamed and not', async () => {
    server = await startWireServer((request) => {
      expect(request.body.text).toEqual({ format: { type: 'json_schema', name: 'Weather', strict: true, schema: STRICT_WEATHER } });
      return request.body.stream ? { sse: responsesChunks(['{"city":"Paris",', '"celsius":21,"note":null}']) } : { json: responsesMessage(ANSWER) };
    });
    const agent = new LlmAgent({ name: 'forecaster', model: model('responses'), outputSchema: WEATHER });
    expect((await run(agent)).pop()?.output).toEqual({ city: 'Paris', celsius: 21 });
    const streamed = await run(agent, true);
    expect(streamed.filter((event) => event.partial).length).toBe(2);
    expect(streamed[streamed.length - 1].output).toEqual({ city: 'Paris', celsius: 21 });
  });
});
