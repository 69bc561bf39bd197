import { Event, LlmAgent, Runner, loadMemory } from '@toolsmith/core';
import { ScriptedModel, collect } from '@toolsmith/core/testing';
import { PostgresMemoryService } from './postgres-memory-service';
import { PostgresSessionService } from './postgres-session-service';
import { useTestPostgres } from './__fixtures__/test-postgres';

const server = useTestPostgres('memory');
const { schema } = server;

const event = (text: string, timestamp = 0, author = 'user') => ({ author, content: { role: author === 'user' ? ('user' as const) : ('model' as const), parts: [{ text }] }, timestamp });

describe.each([
  ['PGlite', () => PostgresSessionService.embedded()],
  ['pg', () => new PostgresSessionService({ connectionString: server.url, schema })],
])('PostgresMemoryService on %s', (_driver, createSessions) => {
  let sessions: PostgresSessionService;
  let memory: PostgresMemoryService;
  beforeAll(() => {
    sessions = createSessions();
    memory = new PostgresMemoryService({ database: sessions.database });
  });
  afterAll(() => sessions.close());

  it("finds the user's events sharing a word with the query (case-insensitive), best match first; other users' never", async () => {
    await memory.addSessionToMemory({ appName: 'app', userId: 'u', id: 's1', events: [event('My favourite colour is Blue', 1000), event('I live in Lyon', 2000), { author: 'user', timestamp: 3 }] });
    await memory.addSessionToMemory({ appName: 'app', userId: 'v', id: 's2', events: [event('blue is nice')] });

    const found = await memory.searchMemory({ appName: 'app', userId: 'u', query: 'what colour? BLUE' });
    expect(found.memories).toEqual([{ content: { role: 'user', parts: [{ text: 'My favourite colour is Blue' }] }, author: 'user', timestamp: '1970-01-01T00:00:01.000Z' }]);
    expect((await memory.searchMemory({ appName: 'app', userId: 'u', query: 'Paris' })).memories).toEqual([]);
    expect((await memory.searchMemory({ appName: 'app', userId: 'u', query: '?!' })).memories).toEqual([]);
    const both = await memory.searchMemory({ appName: 'app', userId: 'u', query: "Lyon's blue colour" });
    expect(both.memories.map((m) => m.content.parts[0].text)).toEqual(['My favourite colour is Blue', 'I live in Lyon']);
  });

  it('replaces the memories of a session added again, and keeps query syntax out of the search', async () => {
    await memory.addSessionToMemory({ appName: 'app', userId: 'w', id: 's', events: [event('old fact about tea')] });
    await memory.addSessionToMemory({ appName: 'app', userId: 'w', id: 's', events: [event('new fact about coffee')] });
    expect((await memory.searchMemory({ appName: 'app', userId: 'w', query: 'tea' })).memories).toEqual([]);
    expect((await memory.searchMemory({ appName: 'app', userId: 'w', query: "coffee & !tea | ('x" })).memories).toHaveLength(1);
  });

  it('serves loadMemory on conversations stored in the session store', async () => {
    const model = new ScriptedModel([{ calls: [{ name: 'load_memory', args: { query: 'allergy' } }] }, 'You are allergic to peanuts.']);
    const runner = new Runner({ appName: 'mem', agent: new LlmAgent({ name: 'bot', model, tools: [loadMemory] }), sessionService: sessions, memoryService: memory });
    const old = await sessions.createSession({ appName: 'mem', userId: 'u', sessionId: 'old' });
    await sessions.appendEvent(old, Event.create({ invocationId: 'i', author: 'user', content: { role: 'user', parts: [{ text: 'I have a peanut allergy' }] } }));
    await memory.addSessionToMemory((await sessions.getSession({ appName: 'mem', userId: 'u', sessionId: 'old' }))!);

    const events = await collect(runner.run({ userId: 'u', sessionId: 'new', newMessage: { role: 'user', parts: [{ text: 'What am I allergic to?' }] } }));
    expect(events.at(-1)!.text()).toBe('You are allergic to peanuts.');
    expect(JSON.stringify(events[1].functionResponses()[0].response)).toContain('I have a peanut allergy');
  });
});
