import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryArtifactService, InMemorySessionService, type SessionService, type ToolContext, functionTool } from '@toolsmith/core';
import { createServedTestTools } from './__fixtures__/served-tools';
import { type McpServerHandle, serveMcp } from './serve-mcp';

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

describe('serveMcp with a session service: state kept as the runner keeps it', () => {
  const servers: McpServerHandle[] = [];
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  async function serve(sessionService: SessionService): Promise<McpServerHandle> {
    const server = await serveMcp({ tools: [createServedTestTools().counter], transport: { http: { port: 0 } }, name: 'visits_app', sessionService });
    servers.push(server);
    return server;
  }

  async function connect(server: McpServerHandle): Promise<{ client: Client; sessionId: string }> {
    const client = new Client({ name: 'sessions-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(server.url!);
    await client.connect(transport);
    clients.push(client);
    return { client, sessionId: transport.sessionId! };
  }

  it('makes each MCP session a session of the store, each call an event with its response and state delta', async () => {
    const sessionService = new InMemorySessionService();
    const server = await serve(sessionService);
    const first = await connect(server);
    const second = await connect(server);
    await call(first.client, 'count_visits');
    expect((await call(first.client, 'count_visits')).structuredContent).toMatchObject({ session: 2, user: 2, app: 2 });
    expect((await call(second.client, 'count_visits')).structuredContent).toMatchObject({ session: 1, user: 3, app: 3 });

    const stored = (await sessionService.getSession({ appName: 'visits_app', userId: 'mcp', sessionId: first.sessionId }))!;
    expect(stored.state).toEqual({ visits: 2, 'user:visits': 3, 'app:visits': 3 });
    expect(stored.events).toHaveLength(2);
    const [, last] = stored.events;
    expect(last.author).toBe('visits_app');
    expect(last.functionResponses()).toEqual([
      { id: expect.stringMatching(/^mcp-/), name: 'count_visits', response: { session: 2, user: 2, app: 2, sessionId: first.sessionId } },
    ]);
    expect(last.actions.stateDelta).toEqual({ visits: 2, 'user:visits': 2, 'app:visits': 2 });
    // An agent's session on the same store, same app and user, sees the shared scopes.
    const agentSession = await sessionService.createSession({ appName: 'visits_app', userId: 'mcp' });
    expect(agentSession.state).toEqual({ 'user:visits': 3, 'app:visits': 3 });
  });

  it('keeps nothing of a call that timed out: no state (in memory or in the store), no artifact', async () => {
    const artifactService = new InMemoryArtifactService();
    const slow = functionTool({
      name: 'slow_writer',
      description: 'Writes, saves a file, then hangs.',
      timeoutMs: 50,
      execute: async (_: unknown, ctx: ToolContext) => {
        ctx.state.set('written', true);
        ctx.state.set('user:written', true);
        await ctx.saveArtifact('partial.txt', { text: 'half' });
        return new Promise(() => undefined);
      },
    });
    const peek = functionTool({ name: 'peek', description: 'Reads the state.', execute: (_: unknown, ctx: ToolContext) => ({ state: ctx.state.toObject() }) });
    for (const sessionService of [undefined, new InMemorySessionService()]) {
      const server = await serveMcp({ tools: [slow, peek], transport: { http: { port: 0 } }, name: 'slow_app', artifactService, ...(sessionService ? { sessionService } : {}) });
      servers.push(server);
      const { client, sessionId } = await connect(server);
      const result = await call(client, 'slow_writer');
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: 'TOOL_TIMEOUT' } });
      expect((await call(client, 'peek')).structuredContent).toEqual({ state: {} });
      expect(await artifactService.listArtifactKeys({ appName: 'slow_app', userId: 'mcp', sessionId })).toEqual([]);
      if (sessionService) {
        const stored = (await sessionService.getSession({ appName: 'slow_app', userId: 'mcp', sessionId }))!;
        expect(stored.state).toEqual({});
        expect(stored.events.every((e) => Object.keys(e.actions.stateDelta).length === 0 && Object.keys(e.actions.artifactDelta).length === 0)).toBe(true);
      }
    }
  });

  it('keeps the state when the server restarts on the same store', async () => {
    const sessionService = new InMemorySessionService();
    const before = await connect(await serve(sessionService));
    await call(before.client, 'count_visits');
    await call(before.client, 'count_visits');
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await Promise.all(servers.splice(0).map((server) => server.close()));

    // A new process: a new server on the store's content (read back from its JSON form).
    const restored = InMemorySessionService.fromJSON(JSON.parse(JSON.stringify(sessionService.toJSON())));
    const after = await connect(await serve(restored));
    expect((await call(after.client, 'count_visits')).structuredContent).toMatchObject({ session: 1, user: 3, app: 3 });
    // The ended MCP session stays in the store with its events, like an agent's.
    expect((await restored.getSession({ appName: 'visits_app', userId: 'mcp', sessionId: before.sessionId }))!.events).toHaveLength(2);
  });

  it('appends parallel calls of one session one after the other: none is lost or refused as stale', async () => {
    const sessionService = new InMemorySessionService();
    const { client, sessionId } = await connect(await serve(sessionService));
    const results = await Promise.all(Array.from({ length: 6 }, () => call(client, 'count_visits')));
    expect(results.every((result) => !result.isError)).toBe(true);
    const stored = (await sessionService.getSession({ appName: 'visits_app', userId: 'mcp', sessionId }))!;
    expect(stored.events).toHaveLength(6);
    expect(new Set(stored.events.map((event) => event.functionResponses()[0].id)).size).toBe(6);
  });
});
