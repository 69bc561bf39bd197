// PGlite's declarations use the global Emscripten types without referencing them (@types/emscripten is a
// devDependency of theirs): this keeps `skipLibCheck: false` compiling for apps that use this package.
/// <reference types="emscripten" preserve="true" />
import type { Transaction } from '@electric-sql/pglite';
import { PGlite } from '@electric-sql/pglite';
import { DataDirLock } from './data-dir-lock';
import type { SqlDriver, SqlExecutor, SqlStatement } from './sql-driver';

/**
 * A {@link SqlDriver} on PGlite: PostgreSQL compiled to WebAssembly, running in this process, on a
 * data directory (or in memory). One connection: PGlite runs statements one at a time, and a
 * transaction holds it until it ends. A database the caller passed in stays theirs on `close()`.
 */
export class PgliteDriver implements SqlDriver {
  readonly kind = 'pglite' as const;

  constructor(
    private readonly db: PGlite,
    private readonly ownsDb: boolean,
    /** The lock on the data directory this driver opened (see {@link DataDirLock}), released on `close()`. */
    private readonly lock?: DataDirLock,
  ) {}

  /**
   * A driver on its own PGlite database in `dataDir` (created when missing), or in memory. A directory
   * is locked for this process first: one another living process holds is refused (`POSTGRES_DATA_DIR_LOCKED`).
   */
  static open(dataDir?: string): PgliteDriver {
    if (dataDir === undefined) return new PgliteDriver(new PGlite(), true);
    const lock = DataDirLock.acquire(dataDir);
    try {
      return new PgliteDriver(new PGlite(dataDir), true, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  async query<Row>(statement: SqlStatement, values: readonly unknown[] = []): Promise<Row[]> {
    return (await this.db.query<Row>(statement.text, values as unknown[])).rows;
  }

  transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    return this.db.transaction((tx: Transaction) =>
      work({ query: async <Row>(statement: SqlStatement, values: readonly unknown[] = []) => (await tx.query<Row>(statement.text, values as unknown[])).rows }),
    );
  }

  async close(): Promise<void> {
    if (this.ownsDb && !this.db.closed) await this.db.close();
    this.lock?.release();
  }
}
