import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemorySessionService } from '@toolsmith/core';
import { McpSessionState } from './mcp-session-state';
import { MCP_SESSION_META } from './mcp-request-session';
import { NamedSessions } from './named-sessions';
import { serveMcp } from './serve-mcp';
import { SessionServiceMcpState } from './session-service-mcp-state';
import { createServedTestTools } from './__fixtures__/served-tools';

// The 2026-07-28 sessions clients name in _meta: capped and expired like 2025 sessions; and the used-id
// sessions of single-use confirmation answers, deleted once expired.

describe('NamedSessions: 2026-07-28 sessions named in _meta', () => {
  const setup = (limits: { maxSessions?: number; maxSessionsPerUser?: number } = {}) => {
    let clock = 0;
    const state = new McpSessionState();
    const sessions = new NamedSessions(
      { maxSessions: limits.maxSessions ?? 10, maxSessionsPerUser: limits.maxSessionsPerUser ?? 10, idleMs: 1000, now: () => clock },
      (userId, sessionId) => state.endSession(sessionId, userId),
    );
    return { state, sessions, advance: (ms: number) => (clock += ms) };
  };

  it("forgets a session idle for longer than idleMs, with its own state only (not another user's of the same id)", () => {
    const { state, sessions, advance } = setup();
    sessions.enter('ann', 'conv-1')();
    state.apply('ann', 'conv-1', { visits: 1, 'user:name': 'Ann' });
    advance(500);
    sessions.enter('bob', 'conv-1')();
    state.apply('bob', 'conv-1', { visits: 5 });
    advance(501);
    sessions.forgetIdle();
    expect(state.values('ann', 'conv-1')).toEqual({ 'user:name': 'Ann' });
    expect(state.values('bob', 'conv-1')).toEqual({ visits: 5 });
    expect(sessions.size).toBe(1);
  });

  it('never forgets a session while one of its requests runs', () => {
    const { sessions, advance } = setup();
    const leave = sessions.enter('ann', 'conv-1');
    advance(5000);
    sessions.forgetIdle();
    expect(sessions.size).toBe(1);
    leave();
    advance(1001);
    sessions.forgetIdle();
    expect(sessions.size).toBe(0);
  });

  it("refuses a user's session over maxSessionsPerUser once no idle one can go, and counts others apart", () => {
    const { sessions, advance } = setup({ maxSessionsPerUser: 2 });
    sessions.enter('ann', 'a')();
    sessions.enter('ann', 'b')();
    expect(() => sessions.enter('ann', 'c')).toThrow('Too many open sessions for this user (at most 2)');
    expect(() => sessions.enter('ann', 'a')).not.toThrow(); // a session already kept
    sessions.enter('bob', 'c')();
    advance(1001);
    expect(() => sessions.enter('ann', 'c')).not.toThrow(); // the idle ones were forgotten first
  });

  it('refuses a session over maxSessions', () => {
    const { sessions } = setup({ maxSessions: 1 });
    sessions.enter('ann', 'a')();
    expect(() => sessions.enter('bob', 'b')).toThrow('Too many open sessions (at most 1)');
  });

  it('serveMcp refuses a 2026-07-28 request naming one session more than maxSessionsPerUser, with a JSON-RPC error', async () => {
    const server = await serveMcp({
      tools: Object.values(createServedTestTools()),
      transport: { http: { port: 0, maxSessionsPerUser: 2, authenticate: (request) => ({ userId: String(request.headers['x-user']) }) } },
    });
    const connect = async (user: string) => {
      const client = new Client({ name: 'named', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(server.url!, { requestInit: { headers: { 'x-user': user } } }));
      return client;
    };
    const ann = await connect('ann');
    const bob = await connect('bob');
    const visit = (client: Client, id: string) => client.callTool({ name: 'count_visits', arguments: {}, _meta: { [MCP_SESSION_META]: id } });
    try {
      await visit(ann, 'conv-1');
      await visit(ann, 'conv-2');
      await expect(visit(ann, 'conv-3')).rejects.toMatchObject({ code: -32000, message: expect.stringContaining('Too many open sessions for this user (at most 2)') });
      expect((await visit(ann, 'conv-1')).structuredContent).toMatchObject({ session: 2 });
      expect((await visit(bob, 'conv-3')).structuredContent).toMatchObject({ session: 1 });
    } finally {
      await ann.close();
      await bob.close();
      await server.close();
    }
  });
});

describe('SessionServiceMcpState: used single-use ids', () => {
  it('deletes the sessions of used ids once expired, on the user\'s next accepted answer, and keeps the unexpired ones', async () => {
    const sessionService = new InMemorySessionService();
    let clock = 0;
    const store = new SessionServiceMcpState(sessionService, 'notes', () => clock);
    expect(await store.consumeOnce('ann', 'old', 100)).toBe(true);
    expect(await store.consumeOnce('ann', 'old', 100)).toBe(false);
    await sessionService.createSession({ appName: 'notes', userId: 'ann', sessionId: 'conversation' });
    clock = 200;
    expect(await store.consumeOnce('ann', 'new', 1000)).toBe(true);
    const ids = (await sessionService.listSessions({ appName: 'notes', userId: 'ann' })).map((session) => session.id);
    expect(ids).toEqual(['conversation', 'mcp-request-state:new']);
    expect(await store.consumeOnce('ann', 'new', 1000)).toBe(false);
  });
});
