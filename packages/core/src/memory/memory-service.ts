import type { Content } from '../model/content';

/** One remembered piece of a past conversation. */
export interface MemoryEntry {
  /** The remembered message, as it was stored in the session. */
  content: Content;
  /** Who wrote it (`user` or an agent's name); absent when the store did not record one. */
  author?: string;
  /** ISO time of the event it came from. */
  timestamp?: string;
}

/** What {@link MemoryService.searchMemory} returns. */
export interface SearchMemoryResponse {
  /** The matching memories; empty when nothing matched. */
  memories: MemoryEntry[];
}

/** The parts of a session a memory service ingests (kept structural so core stays decoupled). */
export interface MemorySource {
  /** The app the session belongs to; memories are kept and searched per app and user. */
  appName: string;
  /** The user whose memory the session goes into. */
  userId: string;
  /** The session's id; adding the same session again replaces what was remembered of it. */
  id: string;
  /** The session's events; those with text become memories. `timestamp` is in milliseconds since the epoch. */
  events: ReadonlyArray<{ author: string; content?: Content; timestamp: number }>;
}

/** Long-term memory across sessions of a user. */
export interface MemoryService {
  /**
   * Remembers a session's events, replacing what was remembered of it before; not called by the runner:
   * call it when a session is worth remembering (e.g. when it ends).
   */
  addSessionToMemory(session: MemorySource): Promise<void>;
  /** Finds the memories of this app's user that relate to `query`. How they match is up to the implementation. */
  searchMemory(request: { appName: string; userId: string; query: string }): Promise<SearchMemoryResponse>;
}
