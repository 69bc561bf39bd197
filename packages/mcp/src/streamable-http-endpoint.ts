import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server as HttpServer, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/** Options of {@link startStreamableHttpEndpoint}. */
export interface StreamableHttpEndpointOptions {
  /** Default `127.0.0.1`. */
  host?: string;
  /** `0` picks a free port. */
  port: number;
  /** URL path of the MCP endpoint. Default `/mcp`. */
  path?: string;
  /** Connects a new MCP server (one per session, as the SDK requires) to the session's transport. */
  connectSession: (transport: Transport) => Promise<void>;
}

/** A running Streamable HTTP endpoint. */
export interface StreamableHttpEndpoint {
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: URL;
  /** Ends every open MCP session; clients must initialize again. */
  closeSessions(): Promise<void>;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

/**
 * Serves MCP over Streamable HTTP with node's `http` module: one SDK transport and one MCP server
 * per session, found by the `Mcp-Session-Id` header; a request without one must be `initialize`.
 */
export async function startStreamableHttpEndpoint(options: StreamableHttpEndpointOptions): Promise<StreamableHttpEndpoint> {
  const path = options.path ?? '/mcp';
  const bindHost = options.host ?? '127.0.0.1';
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let loopbackHosts: string[] | undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) {
      return reply(response, 404, `Not found; the MCP endpoint is ${path}`);
    }
    const sessionId = header(request, 'mcp-session-id');
    if (sessionId !== undefined) {
      const transport = sessions.get(sessionId);
      // 404 tells the client its session is gone, so it initializes a new one (spec behaviour).
      if (!transport) return reply(response, 404, 'Unknown MCP session');
      return transport.handleRequest(request, response);
    }
    if (request.method !== 'POST') return reply(response, 400, 'Missing Mcp-Session-Id header');
    const body = await readJson(request);
    if (body === undefined || !isInitializeRequest(body)) {
      return reply(response, 400, 'Missing Mcp-Session-Id header (only an initialize request may start a session)');
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // A server bound to loopback only answers requests addressed to loopback names, so a web page
      // cannot reach it through DNS rebinding.
      ...(loopbackHosts ? { enableDnsRebindingProtection: true, allowedHosts: loopbackHosts } : {}),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await options.connectSession(transport);
    await transport.handleRequest(request, response, body);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, error instanceof Error ? error.message : String(error));
      else response.end();
    });
  });
  await listen(server, bindHost, options.port);
  const address = server.address() as AddressInfo;
  if (LOOPBACK.has(bindHost)) {
    loopbackHosts = ['127.0.0.1', 'localhost', '[::1]'].flatMap((name) => [name, `${name}:${address.port}`]);
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const closeSessions = async () => {
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.all(open.map((transport) => transport.close().catch(() => undefined)));
  };
  return {
    url: new URL(`http://${host}:${address.port}${path}`),
    closeSessions,
    close: async () => {
      await closeSessions();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function reply(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function listen(server: HttpServer, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
