import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { functionTool } from '@toolsmith/core';
import { z } from 'zod';
import { serveMcp } from './serve-mcp';

describe('serveMcp with a tool whose parameters are a zod schema', () => {
  it('lists zod’s JSON Schema as the inputSchema and answers bad arguments in zod’s words', async () => {
    const book = functionTool({
      name: 'book_table',
      description: 'Books a table.',
      parameters: z.object({ guests: z.number().int().min(1).max(12), name: z.string().min(1).describe('Who the table is for') }),
      responseSchema: z.object({ booked: z.boolean(), guests: z.number() }),
      execute: ({ guests, name }) => ({ booked: name.length > 0, guests }),
    });
    const server = await serveMcp({ tools: [book], transport: { http: { port: 0 } } });
    const client = new Client({ name: 'zod-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(server.url!));
      const { tools } = await client.listTools();
      expect(tools).toEqual([
        expect.objectContaining({
          name: 'book_table',
          inputSchema: {
            type: 'object',
            properties: { guests: { type: 'integer', minimum: 1, maximum: 12 }, name: { type: 'string', minLength: 1, description: 'Who the table is for' } },
            required: ['guests', 'name'],
          },
          outputSchema: { type: 'object', properties: { booked: { type: 'boolean' }, guests: { type: 'number' } }, required: ['booked', 'guests'], additionalProperties: false },
        }),
      ]);
      const booked = (await client.callTool({ name: 'book_table', arguments: { guests: 4, name: 'Ada' } })) as CallToolResult;
      expect(booked.structuredContent).toEqual({ booked: true, guests: 4 });
      const refused = (await client.callTool({ name: 'book_table', arguments: { guests: 40, name: 'Ada' } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect((refused.content[0] as { text: string }).text).toContain('guests: Too big: expected number to be <=12');
    } finally {
      await client.close();
      await server.close();
    }
  });
});
