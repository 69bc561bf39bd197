import { InMemoryMemoryService } from './in-memory-memory-service';

describe('InMemoryMemoryService', () => {
  it('finds events of the same user by shared keyword, case-insensitively', async () => {
    const memory = new InMemoryMemoryService();
    const event = (text: string) => ({ author: 'user', content: { role: 'user' as const, parts: [{ text }] }, timestamp: 0 });
    await memory.addSessionToMemory({ appName: 'app', userId: 'u', id: 's1', events: [event('My favourite colour is Blue'), event('I live in Lyon')] });
    await memory.addSessionToMemory({ appName: 'app', userId: 'v', id: 's2', events: [event('blue is nice')] });

    const found = await memory.searchMemory({ appName: 'app', userId: 'u', query: 'what colour? BLUE' });
    expect(found.memories.map((m) => m.content.parts[0].text)).toEqual(['My favourite colour is Blue']);
    expect((await memory.searchMemory({ appName: 'app', userId: 'u', query: 'Paris' })).memories).toEqual([]);
    expect(found.memories[0].timestamp).toBe('1970-01-01T00:00:00.000Z');
  });
});
