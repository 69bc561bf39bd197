import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Event, LlmAgent, Runner, Tool, Toolset, functionTool } from '@toolsmith/core';
import type { JsonSchema } from '@toolsmith/core';
import { WireServer, startWireServer } from '@toolsmith/core/testing';
import { OpenAIModel } from './openai-model';

// The adapter inside a real run: what the tool sees of strict-mode nulls, and malformed arguments
// answered to the model instead of crashing the run.
describe('OpenAIModel under the Runner', () => {
  let server: WireServer;
  afterEach(async () => {
    expect(server.handlerErrors).toEqual([]);
    await server.close();
  });

  const completion = (message: Record<string, unknown>, finishReason: string) => ({
    id: 'chatcmpl-run',
    object: 'chat.completion',
    created: 1763800000,
    model: 'gpt-4.1-mini',
    choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
  const call = (id: string, args: string) => ({ id, type: 'function', function: { name: 'get_weather', arguments: args } });

  it('gives the tool undefined for a strict-mode null, and answers malformed arguments with an error result', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const tool = functionTool<{ city: string; unit?: string }>({
      name: 'get_weather',
      description: 'Weather.',
      parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city'] },
      execute: (args) => {
        seen.push(args);
        return { city: args.city, unit: args.unit ?? 'celsius (default)' };
      },
    });
    server = await startWireServer((request, index) => {
      if (index === 0) {
        return { json: completion({ content: null, tool_calls: [call('call_ok', '{"city":"Paris","unit":null}'), call('call_bad', '{"city":"Pa')] }, 'tool_calls') };
      }
      const tools = request.body.messages.filter((message: { role: string }) => message.role === 'tool');
      expect(tools.map((message: { tool_call_id: string }) => message.tool_call_id)).toEqual(['call_ok', 'call_bad']);
      expect(JSON.parse(tools[0].content)).toEqual({ city: 'Paris', unit: 'celsius (default)' });
      expect(JSON.parse(tools[1].content)).toMatchObject({ error: { code: 'MALFORMED_ARGUMENTS' } });
      return { json: completion({ content: 'Paris is fine; please resend the other city.' }, 'stop') };
    });
    const runner = new Runner({
      appName: 'weather',
      agent: new LlmAgent({
        name: 'weather',
        model: new OpenAIModel({ model: 'gpt-4.1-mini', baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 }),
        tools: [tool],
      }),
    });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'Weather?' }] } })) events.push(event);

    expect(seen).toEqual([{ city: 'Paris' }]);
    expect('unit' in seen[0]).toBe(false);
    expect(server.requests).toHaveLength(2);
    expect(events.at(-1)!.text()).toBe('Paris is fine; please resend the other city.');
    expect(events.some((event) => event.errorCode)).toBe(false);
  });

  it("a user's file OpenAI cannot take is sent as a note: that turn and every later one still run", async () => {
    server = await startWireServer(() => ({ json: completion({ content: 'Noted.' }, 'stop') }));
    const runner = new Runner({
      appName: 'files',
      agent: new LlmAgent({ name: 'files', model: new OpenAIModel({ model: 'gpt-4.1-mini', baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 }) }),
    });
    const turn = async (parts: Array<Record<string, unknown>>) => {
      const events: Event[] = [];
      for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts } as never })) events.push(event);
      return events;
    };
    const first = await turn([{ text: 'Look at this.' }, { inlineData: { mimeType: 'image/heic', data: 'UklGRg==', displayName: 'photo.heic' } }]);
    const second = await turn([{ text: 'And now?' }]);
    expect([...first, ...second].map((event) => event.errorCode)).toEqual([undefined, undefined]);
    expect(server.requests).toHaveLength(2);
    const note = '[A file "photo.heic" (image/heic, 4 bytes) was attached here; it was left out, as files of this type are not sent to OpenAI in a message.]';
    for (const request of server.requests) {
      expect(request.body.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Look at this.' }, { type: 'text', text: note }] });
    }
  });

  it('a strict-mode null for an optional DTO field (nested too) leaves the field out, so class defaults apply', async () => {
    class AddressDto {
      @IsString() city!: string;
      @IsOptional() @IsString() zip?: string;
    }
    class OrderDto {
      @IsString() item!: string;
      @IsOptional() @IsBoolean() expedite = false;
      @IsOptional() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
    }
    const seen: OrderDto[] = [];
    @Toolset()
    class OrderTools {
      @Tool({ description: 'Places an order.' })
      place_order(order: OrderDto) {
        seen.push(order);
        return { expedite: order.expedite, zip: order.address?.zip ?? 'none' };
      }
    }
    server = await startWireServer((_request, index) =>
      index === 0
        ? { json: completion({ content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'place_order', arguments: '{"item":"tea","expedite":null,"address":{"city":"Oslo","zip":null}}' } }] }, 'tool_calls') }
        : { json: completion({ content: 'Ordered.' }, 'stop') },
    );
    const runner = new Runner({
      appName: 'shop',
      agent: new LlmAgent({ name: 'shop', model: new OpenAIModel({ model: 'gpt-4.1-mini', baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 }), tools: [OrderTools] }),
    });
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'tea to Oslo' }] } })) void event;
    expect(seen).toHaveLength(1);
    expect(seen[0].expedite).toBe(false); // the class default, not null
    expect(seen[0].address).toMatchObject({ city: 'Oslo' });
    expect(seen[0].address!.zip).toBeUndefined();
  });

  it('sends no $ref with sibling keywords in strict mode (the API rejects them), keeping the description', async () => {
    server = await startWireServer(() => ({ json: completion({ content: 'ok' }, 'stop') }));
    const tool = functionTool({
      name: 'ship',
      description: 'Ships.',
      parameters: {
        type: 'object',
        properties: { to: { $ref: '#/$defs/Address', description: 'Postal address' }, from: { $ref: '#/$defs/Address' } },
        required: ['to'],
        $defs: { Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      },
      execute: () => ({}),
    });
    const runner = new Runner({
      appName: 'ship',
      agent: new LlmAgent({ name: 'ship', model: new OpenAIModel({ model: 'm', baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0 }), tools: [tool] }),
    });
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } })) void event;
    const parameters = server.requests[0].body.tools[0].function.parameters as JsonSchema;
    const refsWithSiblings: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      if (typeof (node as JsonSchema).$ref === 'string' && Object.keys(node).length > 1) refsWithSiblings.push(path);
      for (const [key, child] of Object.entries(node)) walk(child, `${path}/${key}`);
    };
    walk(parameters, '');
    expect(refsWithSiblings).toEqual([]);
    expect(JSON.stringify(parameters)).toContain('Postal address');
  });

  it('refuses a tool schema strict mode cannot express when the runner is built, before any request', async () => {
    server = await startWireServer(() => ({ json: completion({ content: 'never' }, 'stop') }));
    const tool = functionTool({
      name: 'set_labels',
      description: 'Labels.',
      parameters: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } },
      execute: () => ({}),
    });
    const agent = (strict: boolean) =>
      new LlmAgent({ name: 'labels', model: new OpenAIModel({ model: 'm', baseURL: `${server.url}/v1`, apiKey: 'k', maxRetries: 0, strict }), tools: [tool] });
    expect(() => new Runner({ appName: 'labels', agent: agent(true) })).toThrow(
      expect.objectContaining({ code: 'STRICT_SCHEMA_UNSUPPORTED', message: expect.stringMatching(/Tool "set_labels".*\/properties\/labels/) }),
    );
    expect(server.requests).toHaveLength(0);

    // Non-strict takes the map as it is.
    const runner = new Runner({ appName: 'labels', agent: agent(false) });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } })) events.push(event);
    expect(server.requests).toHaveLength(1);
    expect(events.at(-1)?.errorCode).toBeUndefined();
  });
});
