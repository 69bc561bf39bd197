import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type McpServerHandle, serveMcp } from './serve-mcp';
import { MCP_SESSION_META } from './mcp-request-session';
import { createServedTestTools } from './__fixtures__/served-tools';
import { bundleFixture } from './__fixtures__/bundle-fixture';
import { conformanceTools } from './__fixtures__/conformance-tools';

const MODERN = '2026-07-28';
const modernClient = () => new ModernClient({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
const structured = (result: unknown) => (result as CallToolResult).structuredContent as Record<string, unknown>;
const errorCodeOf = (result: unknown) => ((result as CallToolResult).structuredContent?.error as { code?: string } | undefined)?.code;

/** A raw POST (custom Host headers are not possible with fetch). */
function post(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body: text, headers: response.headers }));
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

/** A 2026-07-28 `tools/call` as a client sends it: the per-request envelope in `_meta`, no session. */
const modernCall = (name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: {
    name,
    arguments: args,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
      ...meta,
    },
  },
});

describe('serveMcp over HTTP: the 2025-11-25 and the 2026-07-28 client on one server', () => {
  let server: McpServerHandle;
  const users: Record<string, string> = { 'token-ann': 'ann', 'token-bob': 'bob' };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  // A raw request's headers: the protocol-version header goes with the envelope (the SDK refuses one without the other).
  const modernHeaders = (token?: string) => ({ ...(token ? bearer(token) : {}), 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'get_weather' });

  beforeAll(async () => {
    server = await serveMcp({
      tools: Object.values(createServedTestTools()),
      transport: {
        http: {
          port: 0,
          authenticate: (request) => {
            const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
            return token && users[token] ? { userId: users[token] } : undefined;
          },
        },
      },
      name: 'eras',
    });
  });
  afterAll(() => server.close());

  const connectModern = async (token = 'token-ann') => {
    const client = modernClient();
    await client.connect(new ModernHttpTransport(server.url!, { requestInit: { headers: bearer(token) } }));
    return client;
  };

  it('serves a client pinned to 2026-07-28 (server/discover, no session) and a 2025 client (initialize, a session) the same tools', async () => {
    const modern = await connectModern();
    const legacy = new LegacyClient({ name: 'legacy-test', version: '1.0.0' });
    const legacyTransport = new LegacyHttpTransport(server.url!, { requestInit: { headers: bearer('token-ann') } });
    await legacy.connect(legacyTransport);
    try {
      expect(modern.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(modern.getServerVersion()).toMatchObject({ name: 'eras' });
      expect(legacyTransport.sessionId).toEqual(expect.any(String));
      const modernTools = (await modern.listTools()).tools.map((tool) => tool.name);
      expect(modernTools).toEqual((await legacy.listTools()).tools.map((tool) => tool.name));
      expect(modernTools).toContain('get_weather');
      const expected = { city: 'Paris', report: 'Sunny in Paris', unit: 'celsius' };
      expect(structured(await modern.callTool({ name: 'get_weather', arguments: { city: 'Paris' } }))).toEqual(expected);
      expect(structured(await legacy.callTool({ name: 'get_weather', arguments: { city: 'Paris' } }))).toEqual(expected);
      // Validation runs through the same executor in both eras.
      expect(errorCodeOf(await modern.callTool({ name: 'get_weather', arguments: { city: 7 } }))).toBe('INVALID_ARGUMENTS');
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  it('answers a 2026-07-28 request without creating a session', async () => {
    const answer = await post(server.url!, modernCall('get_weather', { city: 'Oslo' }), modernHeaders('token-ann'));
    expect(answer.status).toBe(200);
    expect(answer.headers['mcp-session-id']).toBeUndefined();
    expect(answer.body).toContain('Sunny in Oslo');
  });

  it('keeps the guard in front of 2026-07-28 requests: Host, then the caller', async () => {
    expect((await post(server.url!, modernCall('get_weather', { city: 'Oslo' }), { ...modernHeaders('token-ann'), host: 'evil.example' })).status).toBe(403);
    const anonymous = await post(server.url!, modernCall('get_weather', { city: 'Oslo' }), modernHeaders());
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).not.toContain('Sunny');
  });

  it('without a session id in _meta, each 2026-07-28 request is a session of its own; user: and app: state persist', async () => {
    const client = await connectModern();
    try {
      const first = structured(await client.callTool({ name: 'count_visits', arguments: {} }));
      const second = structured(await client.callTool({ name: 'count_visits', arguments: {} }));
      expect(first.session).toBe(1);
      expect(second.session).toBe(1);
      expect(second.sessionId).not.toBe(first.sessionId);
      expect(second.user).toBe((first.user as number) + 1);
    } finally {
      await client.close();
    }
  });

  it('a session id the client sends in _meta keeps its requests in one session, per user', async () => {
    const ann = await connectModern('token-ann');
    const bob = await connectModern('token-bob');
    const inConversation = (client: ModernClient, id: string) =>
      client.callTool({ name: 'count_visits', arguments: {}, _meta: { [MCP_SESSION_META]: id } }).then(structured);
    try {
      expect(await inConversation(ann, 'conv-1')).toMatchObject({ session: 1, sessionId: 'conv-1' });
      expect(await inConversation(ann, 'conv-1')).toMatchObject({ session: 2, sessionId: 'conv-1' });
      expect(await inConversation(ann, 'conv-2')).toMatchObject({ session: 1 });
      // Bob naming Ann's conversation gets a session of his own.
      expect(await inConversation(bob, 'conv-1')).toMatchObject({ session: 1, user: 1 });
    } finally {
      await ann.close();
      await bob.close();
    }
  });

  it('refuses a session id in _meta that is not a short id, naming the key', async () => {
    const client = await connectModern();
    try {
      await expect(client.callTool({ name: 'count_visits', arguments: {}, _meta: { [MCP_SESSION_META]: 'a b' } })).rejects.toThrow(
        `_meta["${MCP_SESSION_META}"] must be a string`,
      );
    } finally {
      await client.close();
    }
  });

  it('a tool that needs confirmation is refused on 2026-07-28 when the client has no elicitation', async () => {
    const client = await connectModern();
    try {
      expect(errorCodeOf(await client.callTool({ name: 'delete_everything', arguments: { scope: 'all' } }))).toBe('MCP_CONFIRMATION_UNSUPPORTED');
    } finally {
      await client.close();
    }
  });
});

describe('serveMcp over stdio: a client pinned to 2026-07-28', () => {
  const client = modernClient();

  beforeAll(async () => {
    await client.connect(new ModernStdioTransport({ command: process.execPath, args: [await bundleFixture('serve-eras-stdio-fixture.ts')], stderr: 'ignore' }));
  });
  afterAll(() => client.close());

  it('negotiates 2026-07-28 and calls tools', async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('get_weather');
    expect(structured(await client.callTool({ name: 'get_weather', arguments: { city: 'Lima' } }))).toMatchObject({ report: 'Sunny in Lima' });
  });

  it('the process is the session of requests that name none', async () => {
    const first = structured(await client.callTool({ name: 'count_visits', arguments: {} }));
    const second = structured(await client.callTool({ name: 'count_visits', arguments: {} }));
    expect(second.session).toBe((first.session as number) + 1);
    expect(second.sessionId).toBe(first.sessionId);
  });
});

describe('serveMcp over stdio: the first request, not a notification, picks the era', () => {
  it('drops notifications before the first request, so a 2026-07-28 request after one is served as 2026-07-28', async () => {
    const child = spawn(process.execPath, [await bundleFixture('serve-eras-stdio-fixture.ts')], { stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      const answers = new Map<unknown, (answer: Record<string, unknown>) => void>();
      createInterface({ input: child.stdout }).on('line', (line) => {
        const answer = JSON.parse(line) as Record<string, unknown>;
        answers.get(answer.id)?.(answer);
      });
      const answerTo = (id: number) => new Promise<Record<string, unknown>>((resolve) => answers.set(id, resolve));
      const discovered = answerTo(6);
      const called = answerTo(7);
      child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n\n');
      // server/discover exists only on 2026-07-28: a connection pinned to 2025-11-25 answers it "method not found".
      const envelope = modernCall('get_weather', {}).params._meta;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'server/discover', params: { _meta: envelope } })}\n`);
      child.stdin.write(`${JSON.stringify(modernCall('get_weather', { city: 'Lima' }))}\n`);
      expect(await discovered).toMatchObject({ id: 6, result: { supportedVersions: expect.arrayContaining([MODERN]) } });
      expect(await called).toMatchObject({ id: 7, result: { structuredContent: { report: 'Sunny in Lima' } } });
    } finally {
      child.kill();
    }
  });
});

describe('serveMcp on 2026-07-28: files, progress, logging and sampling of the call', () => {
  let server: McpServerHandle;
  let client: ModernClient;
  beforeAll(async () => {
    server = await serveMcp({ tools: conformanceTools(), transport: { http: { port: 0 } } });
    client = modernClient();
    await client.connect(new ModernHttpTransport(server.url!));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('sends a tool file as an image block after the JSON text', async () => {
    const result = (await client.callTool({ name: 'test_image_content', arguments: {} })) as CallToolResult;
    expect(result.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
  });

  it("sends progress on the call's own response stream", async () => {
    const seen: number[] = [];
    await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (progress) => seen.push(progress.progress) });
    expect(seen).toEqual([0, 50, 100]);
  });

  it('sends log messages at or above the level the request names in _meta', async () => {
    const logged: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      logged.push(notification.params.data);
    });
    await client.callTool({ name: 'test_tool_with_logging', arguments: {}, _meta: { 'io.modelcontextprotocol/logLevel': 'info' } });
    expect(logged).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    logged.length = 0;
    await client.callTool({ name: 'test_tool_with_logging', arguments: {}, _meta: { 'io.modelcontextprotocol/logLevel': 'error' } });
    expect(logged).toEqual([]);
  });

  it("answers MCP_SAMPLING_UNSUPPORTED to a tool that asks the client's model: the era has no server-sent requests", async () => {
    const result = (await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } })) as CallToolResult;
    expect(errorCodeOf(result)).toBe('MCP_SAMPLING_UNSUPPORTED');
    expect((result.content[0] as { text: string }).text).toContain('2026-07-28');
  });
});
