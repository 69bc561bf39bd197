/** One SQL statement: its text and, when it runs often, a name under which the server keeps it prepared. */
export interface SqlStatement {
  /** The SQL, with `$1`, `$2`, … placeholders. */
  text: string;
  /** Prepared once per connection under this name (pg); the same name must always carry the same text. */
  name?: string;
}

/** Runs statements; rows come back with JSON columns parsed. */
export interface SqlExecutor {
  /** Runs `statement` with `values` for its placeholders and returns its rows. */
  query<Row>(statement: SqlStatement, values?: readonly unknown[]): Promise<Row[]>;
}

/**
 * The one SQL layer both drivers sit behind: a real server through `pg`, or PGlite in process. The
 * session and memory services speak only to this, so every statement is the same on both.
 */
export interface SqlDriver extends SqlExecutor {
  /** `pg` (a PostgreSQL server) or `pglite` (in-process). */
  readonly kind: 'pg' | 'pglite';
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T>;
  /** Releases the connections (or the embedded database) this driver opened itself. */
  close(): Promise<void>;
}

/** The SQLSTATE of a database error (`23505` unique violation, …), whichever driver raised it. */
export function sqlState(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
