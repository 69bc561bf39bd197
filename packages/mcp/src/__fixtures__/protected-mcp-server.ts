import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import type { OAuth2TestServer } from '@toolsmith/core/testing';
import { z } from 'zod';

/** Options of {@link startProtectedMcpServer}. */
export interface ProtectedMcpServerOptions {
  /** The scope a token needs for anything (sent in the 401's `scope`). */
  scope: string;
  /** Tools that need one more scope: a call with a token lacking it is answered `403 insufficient_scope`. */
  toolScopes?: Record<string, string>;
  /** Where the 401 says the protected resource metadata is. Default: this server's own, naming `oauth`. */
  resourceMetadataUrl?: string;
}

/** A running {@link startProtectedMcpServer}. */
export interface ProtectedMcpServer {
  /** `http://127.0.0.1:<port>/mcp`: the MCP endpoint, and the resource its tokens must be for. */
  url: string;
  /** The scopes of the tokens of the tool calls it ran, in order. */
  calls: Array<{ tool: string; scope: string }>;
  close(): Promise<void>;
}

/**
 * An MCP server (the official SDK's) behind the MCP authorization spec, as a resource server of the
 * local OAuth2 test server `oauth`: its protected resource metadata (RFC 9728) at the well-known path
 * names `oauth`; a request without a live token of `oauth` for this resource (RFC 8707) is answered 401
 * with `resource_metadata` and `scope`; a call of a tool in `toolScopes` whose token lacks that scope,
 * `403 insufficient_scope`. Tools: `read_notes` and `write_note`.
 */
export async function startProtectedMcpServer(oauth: OAuth2TestServer, options: ProtectedMcpServerOptions): Promise<ProtectedMcpServer> {
  const calls: ProtectedMcpServer['calls'] = [];
  const handler = toNodeHandler(
    createMcpHandler(({ authInfo }) => {
      const scopeOfRequest = authInfo?.scopes.join(' ') ?? '';
      const server = new McpServer({ name: 'protected-notes', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.registerTool('read_notes', { description: 'Reads the notes.' }, () => {
        calls.push({ tool: 'read_notes', scope: scopeOfRequest });
        return { content: [{ type: 'text', text: 'buy milk' }] };
      });
      server.registerTool('write_note', { description: 'Writes a note.', inputSchema: z.object({ text: z.string() }) }, ({ text }) => {
        calls.push({ tool: 'write_note', scope: scopeOfRequest });
        return { content: [{ type: 'text', text: `wrote: ${text}` }] };
      });
      return server;
    }),
  );
  let base = '';
  const http = createServer((request, response) => {
    const url = new URL(request.url ?? '/', base);
    const resource = `${base}/mcp`;
    const metadataUrl = options.resourceMetadataUrl ?? `${base}/.well-known/oauth-protected-resource/mcp`;
    const challenge = (status: 401 | 403, parameters: string) => {
      response.writeHead(status, { 'www-authenticate': `Bearer ${parameters}, resource_metadata="${metadataUrl}"`, 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: status === 401 ? 'invalid_token' : 'insufficient_scope' }));
    };
    if (request.method === 'GET' && url.pathname === '/.well-known/oauth-protected-resource/mcp') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ resource, authorization_servers: [oauth.url], scopes_supported: [options.scope, ...Object.values(options.toolScopes ?? {})], bearer_methods_supported: ['header'] }));
      return;
    }
    if (url.pathname !== '/mcp') {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const facts = bearer ? oauth.introspect(bearer) : undefined;
      const granted = new Set((facts?.scope ?? '').split(' '));
      if (!facts || facts.resource !== resource || !granted.has(options.scope)) return challenge(401, `error="invalid_token", scope="${options.scope}"`);
      const raw = Buffer.concat(chunks).toString('utf8');
      const body: unknown = raw ? JSON.parse(raw) : undefined;
      const message = body as { method?: string; params?: { name?: string } } | undefined;
      const needed = message?.method === 'tools/call' ? options.toolScopes?.[message.params?.name ?? ''] : undefined;
      if (needed && !granted.has(needed)) return challenge(403, `error="insufficient_scope", scope="${needed}"`);
      // The SDK hands `req.auth` to the server factory as `authInfo`.
      Object.assign(request, { auth: { token: bearer!, clientId: facts.clientId, scopes: [...granted].filter(Boolean) } });
      void handler(request, response, body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
