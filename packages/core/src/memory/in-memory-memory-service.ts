import type { MemoryEntry, MemoryService, MemorySource, SearchMemoryResponse } from './memory-service';

interface StoredMemory {
  entry: MemoryEntry;
  words: Set<string>;
}

/**
 * Keeps past conversations in process memory and finds them by keyword: an event matches when it
 * shares at least one word with the query (case-insensitive). For tests, demos and prototypes.
 */
export class InMemoryMemoryService implements MemoryService {
  /** `appName/userId` → sessionId → memories of that session (re-adding a session replaces them). */
  private readonly memories = new Map<string, Map<string, StoredMemory[]>>();

  /** Remembers each of the session's events that has words in its text, replacing what was remembered of that session. */
  async addSessionToMemory(session: MemorySource): Promise<void> {
    const key = userKey(session.appName, session.userId);
    let sessions = this.memories.get(key);
    if (!sessions) this.memories.set(key, (sessions = new Map()));
    const stored: StoredMemory[] = [];
    for (const event of session.events) {
      const text = event.content?.parts.map((p) => p.text ?? '').join(' ') ?? '';
      const words = wordsOf(text);
      if (!event.content || words.size === 0) continue;
      stored.push({ entry: { content: event.content, author: event.author, timestamp: new Date(event.timestamp).toISOString() }, words });
    }
    sessions.set(session.id, stored);
  }

  /** The user's memories sharing at least one word with `query` (case-insensitive), in the order their sessions were added; no ranking. */
  async searchMemory(request: { appName: string; userId: string; query: string }): Promise<SearchMemoryResponse> {
    const queryWords = wordsOf(request.query);
    const memories: MemoryEntry[] = [];
    for (const stored of this.memories.get(userKey(request.appName, request.userId))?.values() ?? []) {
      for (const memory of stored) {
        for (const word of queryWords) {
          if (memory.words.has(word)) {
            memories.push(memory.entry);
            break;
          }
        }
      }
    }
    return { memories };
  }
}

const userKey = (appName: string, userId: string) => `${appName}\u0000${userId}`;

function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}
