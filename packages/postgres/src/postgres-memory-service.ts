import type { Content, MemoryEntry, MemoryService, MemorySource, SearchMemoryResponse } from '@toolsmith/core';
import type { PostgresConnectionOptions } from './postgres-database';
import { PostgresDatabase } from './postgres-database';
import type { SqlStatement } from './sql-driver';

/** Options of {@link PostgresMemoryService}: a connection, or the {@link PostgresDatabase} of a session store to share it. */
export type PostgresMemoryServiceOptions = (PostgresConnectionOptions | { database: PostgresDatabase }) & {
  /** At most this many memories per search, best matches first. Default 20. */
  maxResults?: number;
};

/**
 * Long-term memory in PostgreSQL with full-text search: each event with text of a session added to
 * memory becomes a row with a `tsvector` (the `simple` configuration: lower-cased words, no stemming,
 * any language), and a search finds the user's events sharing a word with the query, ranked by
 * `ts_rank`. Re-adding a session replaces its memories. Works on a server and on PGlite alike, so
 * `loadMemory` / `preloadMemory` work on stored conversations.
 *
 * @example
 * ```ts
 * const sessionService = new PostgresSessionService({ connectionString });
 * const memoryService = new PostgresMemoryService({ database: sessionService.database });
 * const runner = new Runner({ appName, agent, sessionService, memoryService });
 * ```
 */
export class PostgresMemoryService implements MemoryService {
  /** The database (connections and schema) this service uses. */
  readonly database: PostgresDatabase;
  private readonly maxResults: number;
  private readonly sql: { remove: SqlStatement; insert: SqlStatement; search: SqlStatement };

  constructor(options: PostgresMemoryServiceOptions) {
    this.database = 'database' in options ? options.database : PostgresDatabase.open(options);
    this.maxResults = options.maxResults ?? 20;
    const s = this.database.schema;
    this.sql = {
      remove: { text: `DELETE FROM ${s}.memories WHERE app_name = $1 AND user_id = $2 AND session_id = $3` },
      insert: {
        text: `INSERT INTO ${s}.memories (app_name, user_id, session_id, position, author, event_time, content, text)
               SELECT $1, $2, $3, m.position, m.author, m.event_time, m.content, m.text
               FROM unnest($4::integer[], $5::text[], $6::bigint[], $7::json[], $8::text[]) AS m(position, author, event_time, content, text)`,
      },
      search: {
        name: `toolsmith_memory_search_${s.replace(/\W/g, '')}`,
        text: `SELECT content, author, event_time FROM ${s}.memories
               WHERE app_name = $1 AND user_id = $2 AND search @@ to_tsquery('simple', $3)
               ORDER BY ts_rank(search, to_tsquery('simple', $3)) DESC, event_time DESC, position
               LIMIT $4`,
      },
    };
  }

  /** Implements {@link MemoryService.addSessionToMemory}: replaces the session's memories, in one transaction. */
  async addSessionToMemory(session: MemorySource): Promise<void> {
    const positions: number[] = [];
    const authors: string[] = [];
    const times: number[] = [];
    const contents: string[] = [];
    const texts: string[] = [];
    session.events.forEach((event, position) => {
      const text = event.content?.parts.map((part) => part.text ?? '').join(' ').trim() ?? '';
      if (!event.content || text === '') return;
      positions.push(position);
      authors.push(event.author);
      times.push(event.timestamp);
      contents.push(JSON.stringify(event.content));
      texts.push(text);
    });
    // One transaction: a search never sees the session half replaced.
    await this.database.transaction(async (tx) => {
      await tx.query(this.sql.remove, [session.appName, session.userId, session.id]);
      if (positions.length > 0) await tx.query(this.sql.insert, [session.appName, session.userId, session.id, positions, authors, times, contents, texts]);
    });
  }

  /** Implements {@link MemoryService.searchMemory}: the user's memories sharing a word with the query, best first. */
  async searchMemory(request: { appName: string; userId: string; query: string }): Promise<SearchMemoryResponse> {
    // Words only (letters and digits), OR-ed: the query text never reaches tsquery syntax.
    const words = [...new Set(request.query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
    if (words.length === 0) return { memories: [] };
    const rows = await this.database.query<{ content: Content; author: string | null; event_time: string | number }>(this.sql.search, [
      request.appName,
      request.userId,
      words.join(' | '),
      this.maxResults,
    ]);
    const memories: MemoryEntry[] = rows.map((row) => ({
      content: row.content,
      ...(row.author === null ? {} : { author: row.author }),
      timestamp: new Date(Number(row.event_time)).toISOString(),
    }));
    return { memories };
  }

  /** Closes the connections this service opened itself (none when it shares a session store's database). */
  close(): Promise<void> {
    return this.database.close();
  }
}
