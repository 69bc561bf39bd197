import type { Content } from '../model/content';

/** One remembered piece of a past conversation. */
export interface MemoryEntry {
  content: Content;
  author?: string;
  /** ISO time of the event it came from. */
  timestamp?: string;
}

/** What {@link MemoryService.searchMemory} returns. */
export interface SearchMemoryResponse {
  memories: MemoryEntry[];
}

/** The parts of a session a memory service ingests (kept structural so core stays decoupled). */
export interface MemorySource {
  appName: string;
  userId: string;
  id: string;
  events: ReadonlyArray<{ author: string; content?: Content; timestamp: number }>;
}

/** Long-term memory across sessions of a user. */
export interface MemoryService {
  addSessionToMemory(session: MemorySource): Promise<void>;
  searchMemory(request: { appName: string; userId: string; query: string }): Promise<SearchMemoryResponse>;
}
