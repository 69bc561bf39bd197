import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/**
 * An MCP server on the official SDK 1.x, which speaks only the 2025-era revisions (an `initialize`
 * handshake, sessions): a tool, one that asks the user for a form with `elicitation/create` during
 * the call, and one that asks twice in one call.
 */
export function createSdk1McpServer(): McpServer {
  const server = new McpServer({ name: 'sdk1-fixture', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes the text.', inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  server.registerTool('book', { description: 'Books a room after asking which.', inputSchema: { guest: z.string() } }, async ({ guest }, extra) => {
    const answer = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          message: `Which room for ${guest}?`,
          requestedSchema: {
            type: 'object',
            properties: { room: { type: 'string', enum: ['single', 'double'], default: 'single' }, nights: { type: 'integer', minimum: 1, default: 1 } },
            required: ['room'],
          },
        },
      },
      ElicitResultSchema,
    );
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: `not booked: ${answer.action}` }], isError: true };
    return { content: [{ type: 'text', text: `booked a ${String(answer.content?.room)} room for ${guest}, ${String(answer.content?.nights)} night(s)` }] };
  });
  const yesNo = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };
  server.registerTool('ask_twice', { description: 'Asks, then asks again.', inputSchema: {} }, async (_args, extra) => {
    const first = await extra.sendRequest({ method: 'elicitation/create', params: { message: 'First?', requestedSchema: yesNo } }, ElicitResultSchema);
    const second = await extra.sendRequest({ method: 'elicitation/create', params: { message: 'Second?', requestedSchema: yesNo } }, ElicitResultSchema);
    return { content: [{ type: 'text', text: `first ${first.action}, second ${second.action}` }] };
  });
  return server;
}

/** Serves {@link createSdk1McpServer} over Streamable HTTP (sessions) on 127.0.0.1. */
export async function startSdk1HttpServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((request, response) => {
    void (async () => {
      const sessionId = request.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
      if (!transport) {
        if (sessionId !== undefined) {
          response.writeHead(404).end();
          return;
        }
        const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID(), onsessioninitialized: (id) => void transports.set(id, created) });
        transport = created;
        await createSdk1McpServer().connect(created);
      }
      await transport.handleRequest(request, response);
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
}

if (require.main === module) void createSdk1McpServer().connect(new StdioServerTransport());
