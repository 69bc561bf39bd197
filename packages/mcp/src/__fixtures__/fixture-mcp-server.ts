import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/**
 * A plain MCP server built with the SDK's own `McpServer` (no Toolsmith), used to test `McpToolset`
 * over stdio (see `stdio-fixture-server.ts`) and over HTTP (in-process).
 */
export function createFixtureMcpServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });

  server.registerTool(
    'echo',
    { description: 'Echoes the text back.', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );

  server.registerTool(
    'add',
    { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );

  server.registerTool('fail', { description: 'Always reports a failure.' }, async () => ({
    isError: true,
    content: [{ type: 'text', text: 'kaboom' }],
  }));

  server.registerTool('hang', { description: 'Never answers.' }, () => new Promise<never>(() => undefined));

  server.registerTool('crash', { description: 'Kills the server process.' }, async () => {
    setImmediate(() => process.exit(1));
    return new Promise<never>(() => undefined);
  });

  server.registerTool('whoami', { description: 'Reports the Authorization header and process id.', inputSchema: {} }, async (_args, extra) => ({
    content: [],
    structuredContent: {
      authorization: String(extra.requestInfo?.headers?.authorization ?? ''),
      pid: process.pid,
      session: extra.sessionId ?? null,
    },
  }));

  let grown = false;
  server.registerTool('grow', { description: 'Adds a tool named "late" to this server.' }, async () => {
    if (!grown) {
      grown = true;
      server.registerTool('late', { description: 'Added at run time.' }, async () => ({
        content: [{ type: 'text', text: 'late tool ran' }],
      }));
    }
    return { content: [{ type: 'text', text: 'grown' }] };
  });

  return server;
}
