import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, acceptedContent, createMcpHandler, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

/** A 1×1 PNG, base64. */
export const RED_DOT_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/**
 * An MCP server on the official SDK v2 that speaks ONLY the stateless 2026-07-28 revision (2025-era
 * `initialize` is refused): tools, one of which asks for input with `input_required`.
 */
export function createModernMcpServer(): McpServer {
  const server = new McpServer({ name: 'modern-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: 'Echoes the text.', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  server.registerTool(
    'deploy',
    { description: 'Deploys a service after asking where.', inputSchema: z.object({ service: z.string() }) },
    ({ service }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'target');
      if (answer.kind === 'elicit' && answer.action !== 'accept') return { content: [{ type: 'text', text: `not deployed: ${answer.action}` }], isError: true };
      const target = acceptedContent(ctx.mcpReq.inputResponses, 'target');
      const state = ctx.mcpReq.requestState();
      if (!target || state !== `deploy:${service}`) {
        return inputRequired({
          inputRequests: {
            target: inputRequired.elicit({
              message: `Where should ${service} go?`,
              requestedSchema: {
                type: 'object',
                properties: {
                  env: { type: 'string', enum: ['staging', 'production'], default: 'staging' },
                  replicas: { type: 'integer', minimum: 1, maximum: 5, default: 1 },
                },
                required: ['env'],
              },
            }),
          },
          requestState: `deploy:${service}`,
        });
      }
      return { content: [{ type: 'text', text: `deployed ${service} to ${String(target.env)} x${String(target.replicas ?? 1)}` }] };
    },
  );
  server.registerTool('snapshot', { description: 'An image and some text.' }, () => ({
    content: [
      { type: 'text', text: 'a red dot' },
      { type: 'image', data: RED_DOT_PNG, mimeType: 'image/png' },
    ],
  }));
  server.registerTool('ask_model', { description: "Asks the client's model (sampling)." }, () =>
    inputRequired({
      inputRequests: { summary: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarize.' } }], maxTokens: 10 }) },
    }),
  );
  server.registerTool('open_page', { description: 'Sends the user to a page (URL elicitation).' }, () =>
    inputRequired({ inputRequests: { page: inputRequired.elicitUrl({ message: 'Sign the form.', url: 'https://example.com/form' }) } }),
  );
  server.registerTool('ask_twice', { description: 'Asks again whatever the answer.' }, () =>
    inputRequired({
      inputRequests: { again: inputRequired.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] } }) },
    }),
  );
  return server;
}

/** Serves {@link createModernMcpServer} over Streamable HTTP on 127.0.0.1, 2026-07-28 only. */
export async function startModernHttpServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const handler = toNodeHandler(createMcpHandler(() => createModernMcpServer(), { legacy: 'reject' }));
  const http = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}

if (require.main === module) serveStdio(() => createModernMcpServer(), { legacy: 'reject' });
