import { type Event, type JsonSchema, LlmAgent, Runner, functionTool } from '@toolsmith/core';
import { type SseEvent, type WireServer, startWireServer } from '@toolsmith/core/testing';
import { AnthropicModel } from './anthropic-model';
import { anthropicMessage } from './__fixtures__/anthropic-message';

// Structured output through the real SDK against a local server speaking the Messages wire protocol:
// output_config.format carries the schema (the SDK's structured-output transform), tools run first,
// and a streamed answer is validated once complete.
const MEETING: JsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1 },
    minutes: { type: 'integer', minimum: 5 },
    kind: { oneOf: [{ const: 'call' }, { const: 'visit' }] },
  },
  required: ['title', 'minutes'],
};

const calendar = functionTool<{ day: string }>({
  name: 'free_slots',
  description: 'Free slots on a day.',
  parameters: { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] },
  execute: ({ day }) => ({ day, slots: ['09:00'] }),
});

const message = (content: Array<Record<string, unknown>>, stopReason: string) =>
  anthropicMessage(content, { id: 'msg_so', stopReason, usage: { input_tokens: 10, output_tokens: 5 } });

const textStream = (pieces: string[]): SseEvent[] =>
  [
    { type: 'message_start', message: { ...message([], 'end_turn'), stop_reason: null } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ...pieces.map((text) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 12 } },
    { type: 'message_stop' },
  ].map((event) => ({ event: event.type, data: JSON.stringify(event) }));

async function run(agent: LlmAgent, streaming = false): Promise<Event[]> {
  const events: Event[] = [];
  const runner = new Runner({ appName: 'planner', agent });
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Plan a call' }] }, streaming })) events.push(event);
  return events;
}

describe('AnthropicModel structured output when the runner is built', () => {
  it('refuses an output schema the SDK cannot convert before any request', () => {
    const model = new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 256, apiKey: 'k', baseURL: 'http://127.0.0.1:9', maxRetries: 0 });
    const outputSchema: JsonSchema = { type: 'object', properties: { anything: {} } };
    expect(() => new Runner({ appName: 'a', agent: new LlmAgent({ name: 'loose', model, outputSchema }) })).toThrow(
      expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('output schema "loose_output"') }),
    );
  });
});

describe('AnthropicModel structured output on the wire', () => {
  let server: WireServer;
  afterEach(async () => {
    expect(server.handlerErrors).toEqual([]);
    await server.close();
  });
  const model = () => new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 256, apiKey: 'k', baseURL: server.url, maxRetries: 0 });

  it('sends output_config.format with the tools, runs the tool, then parses the answer', async () => {
    const bodies: Array<Record<string, unknown>> = [];
    server = await startWireServer((request, index) => {
      bodies.push(request.body);
      if (index === 0) return { json: message([{ type: 'tool_use', id: 'toolu_1', name: 'free_slots', input: { day: 'Monday' } }], 'tool_use') };
      return { json: message([{ type: 'text', text: '{"title":"Sync","minutes":30,"kind":"call"}' }], 'end_turn') };
    });
    const agent = new LlmAgent({ name: 'planner', model: model(), tools: [calendar], outputSchema: MEETING, outputKey: 'meeting' });
    const events = await run(agent);

    for (const body of bodies) {
      expect(body.output_config).toEqual({
        format: {
          type: 'json_schema',
          schema: {
            type: 'object',
            properties: {
              title: { type: 'string', description: '{minLength: 1}' },
              minutes: { type: 'integer', description: '{minimum: 5}' },
              kind: { anyOf: [{ const: 'call' }, { const: 'visit' }] },
            },
            additionalProperties: false,
            required: ['title', 'minutes'],
          },
        },
      });
      expect((body.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(['free_slots']);
    }
    const final = events[events.length - 1];
    expect(final.output).toEqual({ title: 'Sync', minutes: 30, kind: 'call' });
    expect(final.actions.stateDelta).toEqual({ meeting: { title: 'Sync', minutes: 30, kind: 'call' } });
  });

  it('enforces what the provider schema only describes: a too-short meeting is fed back, then accepted', async () => {
    server = await startWireServer((request, index) => {
      if (index === 0) return { json: message([{ type: 'text', text: '{"title":"Sync","minutes":2}' }], 'end_turn') };
      const messages = request.body.messages as Array<{ role: string; content: unknown }>;
      expect(JSON.stringify(messages[messages.length - 1])).toContain('minutes: got 2, expected >= 5');
      return { json: message([{ type: 'text', text: '{"title":"Sync","minutes":15}' }], 'end_turn') };
    });
    const events = await run(new LlmAgent({ name: 'planner', model: model(), outputSchema: MEETING }));
    expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', undefined]);
    expect(events[1].output).toEqual({ title: 'Sync', minutes: 15 });
  });

  it('streams the answer, validated once it is complete', async () => {
    server = await startWireServer(() => ({ sse: textStream(['{"title":"Sy', 'nc","minu', 'tes":45}']) }));
    const events = await run(new LlmAgent({ name: 'planner', model: model(), outputSchema: MEETING }), true);
    expect(server.requests[0].body).toMatchObject({ stream: true, output_config: { format: { type: 'json_schema' } } });
    expect(events.filter((event) => event.partial).length).toBe(3);
    expect(events[events.length - 1].output).toEqual({ title: 'Sync', minutes: 45 });
  });
});
