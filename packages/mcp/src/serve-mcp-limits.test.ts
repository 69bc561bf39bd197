import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { functionTool } from '@toolsmith/core';
import { serveMcp } from './serve-mcp';
import { startStreamableHttpEndpoint } from './streamable-http-endpoint';
import { createFixtureMcpServer } from './__fixtures__/fixture-mcp-server';
import { sourceProcessArgs } from './__fixtures__/source-process';

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A raw HTTP request (custom Host/Origin headers are not possible with fetch). */
function send(url: URL, options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? 'POST', headers: { ...mcpHeaders, ...options.headers } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body, headers: response.headers }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

const fixtureSession = () => ({ connectSession: (transport: Parameters<Parameters<typeof startStreamableHttpEndpoint>[0]['connectSession']>[0]) => createFixtureMcpServer().connect(transport) });

describe('serveMcp over HTTP: limits before parsing', () => {
  it('refuses a body over the limit from its Content-Length, without reading it', async () => {
    const endpoint = await startStreamableHttpEndpoint({ port: 0, maxBodyBytes: 1024, ...fixtureSession() });
    try {
      const refused = await send(endpoint.url, { body: JSON.stringify({ ...initialize, padding: 'x'.repeat(5000) }) });
      expect(refused.status).toBe(413);
      expect(refused.body).toContain('larger than 1024 bytes');
      expect((await send(endpoint.url, { body: JSON.stringify(initialize) })).status).toBe(200);
    } finally {
      await endpoint.close();
    }
  });

  it('stops reading a streamed body (no Content-Length) once it passes the limit', async () => {
    const endpoint = await startStreamableHttpEndpoint({ port: 0, maxBodyBytes: 64 * 1024, ...fixtureSession() });
    try {
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let written = 0;
      const status = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(endpoint.url, { method: 'POST', headers: { ...mcpHeaders, 'transfer-encoding': 'chunked' } }, (response) => {
          resolve(response.statusCode!);
          request.destroy();
        });
        request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
        // Keep sending (up to 400 MB) until the server answers; it must answer long before.
        const pump = () => {
          while (written < 400 * 1024 * 1024 && !request.destroyed) {
            written += chunk.length;
            if (!request.write(chunk)) return void request.once('drain', pump);
          }
        };
        pump();
      });
      expect(status).toBe(413);
      expect(written).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await endpoint.close();
    }
  });

  it('applies the Host allow-list to a non-loopback, non-wildcard bind address (DNS rebinding)', async () => {
    const endpoint = await startStreamableHttpEndpoint({ port: 0, host: '127.0.0.2', ...fixtureSession() });
    try {
      expect((await send(endpoint.url, { headers: { host: 'attacker.example' }, body: JSON.stringify(initialize) })).status).toBe(403);
      expect((await send(endpoint.url, { headers: { host: `127.0.0.2:${endpoint.url.port}` }, body: JSON.stringify(initialize) })).status).toBe(200);
    } finally {
      await endpoint.close();
    }
    const loopback = await startStreamableHttpEndpoint({ port: 0, ...fixtureSession() });
    try {
      expect((await send(loopback.url, { headers: { host: 'attacker.example' }, body: JSON.stringify(initialize) })).status).toBe(403);
      expect((await send(loopback.url, { headers: { host: `localhost:${loopback.url.port}` }, body: JSON.stringify(initialize) })).status).toBe(200);
    } finally {
      await loopback.close();
    }
  });

  it('refuses browser Origins other than its own, unless allowed', async () => {
    const endpoint = await startStreamableHttpEndpoint({ port: 0, ...fixtureSession() });
    const own = `http://127.0.0.1:${endpoint.url.port}`;
    try {
      expect((await send(endpoint.url, { headers: { origin: 'https://evil.example' }, body: JSON.stringify(initialize) })).status).toBe(403);
      expect((await send(endpoint.url, { headers: { origin: own }, body: JSON.stringify(initialize) })).status).toBe(200);
    } finally {
      await endpoint.close();
    }
    const allowing = await startStreamableHttpEndpoint({ port: 0, allowedOrigins: ['https://app.example'], ...fixtureSession() });
    try {
      expect((await send(allowing.url, { headers: { origin: 'https://app.example' }, body: JSON.stringify(initialize) })).status).toBe(200);
    } finally {
      await allowing.close();
    }
  });

  it('answers a sessionless request nested too deep for the SDK to read 400, not 500 with the raw stack overflow', async () => {
    const server = await serveMcp({ tools: [functionTool({ name: 'echo', description: 'Echo.', parameters: { type: 'object', properties: {} }, execute: () => ({}) })], transport: { http: { port: 0 } } });
    try {
      const deep = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"d":${'['.repeat(20_000)}${']'.repeat(20_000)}}}}`;
      const answer = await send(server.url!, { body: deep });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'The request is not an MCP request this server can read: it is nested too deep to read' }, id: null });
    } finally {
      await server.close();
    }
  });

  it('takes JSON bodies only (415), answers other methods with 405 and Allow, and cannot be framed', async () => {
    const endpoint = await startStreamableHttpEndpoint({ port: 0, ...fixtureSession() });
    try {
      const plain = await send(endpoint.url, { headers: { 'content-type': 'text/plain' }, body: JSON.stringify(initialize) });
      expect(plain.status).toBe(415);
      expect(JSON.parse(plain.body)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('Content-Type: application/json') }, id: null });
      const put = await send(endpoint.url, { method: 'PUT', body: JSON.stringify(initialize) });
      expect([put.status, put.headers.allow]).toEqual([405, 'GET, POST, DELETE']);
      const ok = await send(endpoint.url, { body: JSON.stringify(initialize) });
      // A DELETE (or GET) carrying a body that is not JSON is refused too: the session it names is not ended.
      const sessionId = ok.headers['mcp-session-id'] as string;
      const deleted = await send(endpoint.url, { method: 'DELETE', headers: { 'content-type': 'text/plain', 'content-length': '1', 'mcp-session-id': sessionId }, body: 'x' });
      expect(deleted.status).toBe(415);
      // A JSON-typed body on a GET or DELETE is checked as a POST's is: malformed 400, too large 413; the session lives on.
      const json = { 'content-type': 'application/json', 'mcp-session-id': sessionId };
      expect((await send(endpoint.url, { method: 'DELETE', headers: { ...json, 'content-length': '1' }, body: '{' })).status).toBe(400);
      expect((await send(endpoint.url, { method: 'GET', headers: { ...json, 'content-length': '1' }, body: '{' })).status).toBe(400);
      expect((await send(endpoint.url, { method: 'DELETE', headers: { ...json, 'content-length': String(5 * 1024 * 1024) } })).status).toBe(413);
      expect((await send(endpoint.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } })).status).toBe(200);
      for (const answer of [ok, plain, put]) {
        expect(answer.headers['content-security-policy']).toBe("frame-ancestors 'none'");
        expect(answer.headers['x-frame-options']).toBe('DENY');
      }
    } finally {
      await endpoint.close();
    }
  });

  it('caps open sessions and closes idle ones', async () => {
    let clock = 0;
    const endpoint = await startStreamableHttpEndpoint({ port: 0, maxSessions: 2, sessionIdleMs: 1000, now: () => clock, ...fixtureSession() });
    try {
      const first = await send(endpoint.url, { body: JSON.stringify(initialize) });
      const firstId = first.headers['mcp-session-id'] as string;
      clock = 500;
      expect((await send(endpoint.url, { body: JSON.stringify(initialize) })).status).toBe(200);
      const third = await send(endpoint.url, { body: JSON.stringify(initialize) });
      expect(third.status).toBe(503);
      expect(endpoint.openSessions).toBe(2);

      clock = 1200; // the first session has been idle for 1,200 ms, the second for 700 ms
      await endpoint.closeIdleSessions();
      expect(endpoint.openSessions).toBe(1);
      const gone = await send(endpoint.url, { headers: { 'mcp-session-id': firstId }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
      expect(gone.status).toBe(404);
      expect((await send(endpoint.url, { body: JSON.stringify(initialize) })).status).toBe(200);
    } finally {
      await endpoint.close();
    }
  });
});

describe('serveMcp over HTTP: sessions per user', () => {
  it('caps the sessions of each user (429), so one client cannot take every slot; other users still get sessions', async () => {
    let clock = 0;
    const endpoint = await startStreamableHttpEndpoint({
      port: 0,
      maxSessions: 5,
      maxSessionsPerUser: 2,
      sessionIdleMs: 1000,
      now: () => clock,
      authenticate: (request) => ({ userId: String(request.headers['x-user']) }),
      ...fixtureSession(),
    });
    const open = (user: string) => send(endpoint.url, { headers: { 'x-user': user }, body: JSON.stringify(initialize) });
    try {
      expect((await open('greedy')).status).toBe(200);
      expect((await open('greedy')).status).toBe(200);
      const third = await open('greedy');
      expect(third.status).toBe(429);
      expect(third.body).toContain('at most 2');
      expect((await open('other')).status).toBe(200);
      expect(endpoint.openSessions).toBe(3);
      clock = 1500; // the greedy user's sessions went idle: closed to make room for its new one
      expect((await open('greedy')).status).toBe(200);
    } finally {
      await endpoint.close();
    }
  });
});

describe('serveMcp: toolErrorExposure, as on the runner', () => {
  const leaky = functionTool({ name: 'leaky', description: 'Fails.', execute: () => { throw new Error('connection to postgres://admin:hunter2@10.0.0.5 refused'); } });

  it("'generic', and a function that returns no text, hide the thrown message from the client", async () => {
    for (const toolErrorExposure of ['generic' as const, () => undefined as unknown as string, undefined]) {
      const server = await serveMcp({ tools: [leaky], transport: { http: { port: 0 } }, ...(toolErrorExposure ? { toolErrorExposure } : {}) });
      const client = new Client({ name: 'exposure-test', version: '1.0.0' });
      try {
        await client.connect(new StreamableHTTPClientTransport(server.url!));
        const result = (await client.callTool({ name: 'leaky', arguments: {} })) as CallToolResult;
        expect(result.isError).toBe(true);
        const text = JSON.stringify(result);
        if (toolErrorExposure) {
          expect(text).not.toContain('hunter2');
          expect(result.content).toEqual([{ type: 'text', text: 'The tool failed.' }]);
        } else {
          expect(text).toContain('hunter2'); // the default, 'message', as on the runner
        }
      } finally {
        await client.close();
        await server.close();
      }
    }
  });
});

describe('serveMcp over HTTP: the authentication hook', () => {
  const whoami = functionTool({ name: 'whoami', description: 'Says who is calling.', execute: (_: unknown, ctx) => ({ userId: ctx.userId }) });
  const tokens: Record<string, string> = { 'token-ann': 'ann', 'token-bob': 'bob' };

  it("a bearer token's user becomes ctx.userId; no or a wrong token gets 401; a session stays its user's", async () => {
    const server = await serveMcp({
      tools: [whoami],
      transport: { http: { port: 0, authenticate: (request) => {
        const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        return token && tokens[token] ? { userId: tokens[token] } : undefined;
      } } },
    });
    try {
      const client = new Client({ name: 'auth-test', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(server.url!, { requestInit: { headers: { authorization: 'Bearer token-ann' } } });
      await client.connect(transport);
      const result = (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
      expect(result.structuredContent).toEqual({ userId: 'ann' });

      const anonymous = await send(server.url!, { body: JSON.stringify(initialize) });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers['www-authenticate']).toBe('Bearer');
      expect((await send(server.url!, { headers: { authorization: 'Bearer forged' }, body: JSON.stringify(initialize) })).status).toBe(401);
      const hijack = await send(server.url!, {
        headers: { authorization: 'Bearer token-bob', 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
      });
      expect(hijack.status).toBe(403);
      await client.close();
    } finally {
      await server.close();
    }
  });
});

describe('serveMcp over stdio: an oversized message', () => {
  it('ends the server with a message on stderr and exit status 1', async () => {
    const child = spawn(process.execPath, sourceProcessArgs('serve-stdio-fixture.ts'), { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.on('error', () => undefined); // the server may be gone before the write ends
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdin.write('{"jsonrpc":"2.0","method":"x","params":{"pad":"' + 'x'.repeat(5 * 1024 * 1024));
    expect(await exited).toBe(1);
    expect(stderr).toContain('a message of more than 4194304 bytes arrived on stdin');
  });
});
