import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Content, type Event, InMemorySessionService, type JsonSchema, LlmAgent, Runner, type ToolConfirmation, type ToolContext, confirmationRequests, confirmationResponse, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import type { McpProtocolChoice } from './mcp-connection';
import { McpToolset } from './mcp-toolset';
import { type McpServerHandle, serveMcp } from './serve-mcp';

// A served tool that asks the person to fill in a form (ctx.requestConfirmation({ payloadSchema })):
// an elicitation form on 2025-11-25, an input_required form on 2026-07-28, answered by the SDK v2 client
// (which retries a 2026-07-28 call with the answer by itself).

const FORM: JsonSchema = {
  type: 'object',
  properties: {
    size: { type: 'string', title: 'Size', oneOf: [{ const: 'small', title: 'Small' }, { const: 'large', title: 'Large' }], default: 'small' },
    count: { type: 'integer', minimum: 1, maximum: 5, default: 1 },
    extras: { type: 'array', items: { type: 'string', enum: ['milk', 'sugar'] } },
  },
  required: ['size', 'count'],
  additionalProperties: false,
};

interface ElicitParams {
  message: string;
  requestedSchema: unknown;
}

interface CallAnswer {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

describe('serveMcp: a tool asks for a form (payloadSchema), in both eras', () => {
  let server: McpServerHandle;
  /** The confirmations the tool ran with (it runs only once answered). */
  let ran: ToolConfirmation[];
  beforeAll(async () => {
    const order = (name: string, form: JsonSchema) =>
      functionTool({
        name,
        description: 'Orders coffee, asking how.',
        parameters: { type: 'object', properties: {}, additionalProperties: false },
        execute: (_args: Record<string, unknown>, ctx: ToolContext) => {
          if (!ctx.toolConfirmation) {
            ctx.requestConfirmation({ hint: 'How do you take it?', payload: { shop: 'corner' }, payloadSchema: form });
            return {};
          }
          ran.push(ctx.toolConfirmation);
          return { ordered: ctx.toolConfirmation.payload as Record<string, unknown> };
        },
      });
    const nested: JsonSchema = { type: 'object', properties: { address: { type: 'object', properties: { city: { type: 'string' } } } } };
    server = await serveMcp({ tools: [order('order', FORM), order('order_nested', nested)], transport: { http: { port: 0 } } });
  });
  beforeEach(() => {
    ran = [];
  });
  afterAll(() => server.close());

  describe.each([
    ['2025-11-25 (elicitation/create during the call)', undefined],
    ['2026-07-28 (input_required, then the retried call)', '2026-07-28'],
  ])('%s', (_era, pin) => {
    /** Calls `tool` with a client whose person answers `answer`; returns the result and the forms it was shown. */
    const call = async (tool: string, answer: { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' }) => {
      const asked: ElicitParams[] = [];
      const client = new Client({ name: 'forms', version: '1' }, { ...(pin ? { versionNegotiation: { mode: { pin } } } : {}), capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler('elicitation/create', async (request) => {
        // The form as sent (2026-07-28 also names its `mode`, "form").
        const { message, requestedSchema } = request.params as ElicitParams;
        asked.push({ message, requestedSchema });
        return answer as never;
      });
      await client.connect(new StreamableHTTPClientTransport(server.url!));
      try {
        return { result: (await client.callTool({ name: tool, arguments: {} })) as CallAnswer, asked };
      } finally {
        await client.close();
      }
    };
    const errorCode = (result: CallAnswer) => (result.structuredContent?.error as { code?: string } | undefined)?.code;

    it('shows the form (titled enum, defaults, multi-select) and the tool runs with the filled-in form as its payload', async () => {
      const { result, asked } = await call('order', { action: 'accept', content: { size: 'large', count: 2, extras: ['milk'] } });
      expect(asked).toEqual([
        {
          message: 'How do you take it?\n\nDetails: {"shop":"corner"}',
          requestedSchema: { type: 'object', properties: (FORM as { properties: unknown }).properties, required: ['size', 'count'] },
        },
      ]);
      expect(result.structuredContent).toEqual({ ordered: { size: 'large', count: 2, extras: ['milk'] } });
      expect(ran).toEqual([{ confirmed: true, hint: 'How do you take it?', payload: { size: 'large', count: 2, extras: ['milk'] }, request: { hint: 'How do you take it?', payload: { shop: 'corner' }, payloadSchema: FORM } }]);
    });

    it('refuses content that does not fill in the form (INVALID_CONFIRMATION_ANSWER, naming the problem); the tool never gets it', async () => {
      const { result } = await call('order', { action: 'accept', content: { size: 'huge', count: 9 } });
      expect(result.isError).toBe(true);
      expect(errorCode(result)).toBe('INVALID_CONFIRMATION_ANSWER');
      expect(JSON.stringify(result.structuredContent)).toContain('count');
      expect(ran).toEqual([]);
    });

    it('a declined form rejects the call (TOOL_CALL_REJECTED); the tool does not run', async () => {
      const { result } = await call('order', { action: 'decline' });
      expect(errorCode(result)).toBe('TOOL_CALL_REJECTED');
      expect(ran).toEqual([]);
    });

    it('a Toolsmith agent (McpToolset in a Runner) is paused with the form, and its approval with the filled-in form runs the tool once', async () => {
      const toolset = new McpToolset({ transport: { url: server.url! }, timeoutMs: 20_000, protocol: (pin ?? '2025-11-25') as McpProtocolChoice });
      const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'order', args: {} }] }, 'Ordered.']);
      const runner = new Runner({ appName: 'cafe', agent: new LlmAgent({ name: 'waiter', model, tools: [toolset] }), sessionService: new InMemorySessionService() });
      const send = async (newMessage: Content) => {
        const events: Event[] = [];
        for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage })) events.push(event);
        return events;
      };
      try {
        const [request] = (await send({ role: 'user', parts: [{ text: 'a coffee' }] })).flatMap((event) => confirmationRequests(event));
        expect(request!.payloadSchema).toMatchObject({ type: 'object', properties: { size: { oneOf: [{ const: 'small', title: 'Small' }, { const: 'large', title: 'Large' }] } } });
        expect(ran).toEqual([]);
        const resumed = await send(confirmationResponse(request!, { decision: 'approve', payload: { size: 'large', count: 2 } }));
        const response = resumed.flatMap((event) => event.functionResponses()).find((candidate) => candidate.id === 'c1');
        expect(response?.response).toEqual({ ordered: { size: 'large', count: 2 } });
        expect(ran.map((confirmation) => confirmation.payload)).toEqual([{ size: 'large', count: 2 }]);
      } finally {
        await runner.close();
      }
    });

    it('refuses a form MCP cannot show (MCP_FORM_UNSUPPORTED, naming the field) without asking anyone', async () => {
      const { result, asked } = await call('order_nested', { action: 'accept', content: {} });
      expect(errorCode(result)).toBe('MCP_FORM_UNSUPPORTED');
      expect(JSON.stringify(result.structuredContent)).toContain('field \\"address\\"');
      expect(asked).toEqual([]);
      expect(ran).toEqual([]);
    });
  });
});
