import pg from 'pg';
import type { SqlDriver, SqlExecutor, SqlStatement } from './sql-driver';

/**
 * A {@link SqlDriver} on a `pg` pool. Statements with a name are prepared once per connection, so an
 * append is one round trip (bind + execute) to the server. A pool the caller passed in stays theirs:
 * `close()` ends only a pool this driver created.
 */
export class PgDriver implements SqlDriver {
  readonly kind = 'pg' as const;

  constructor(
    private readonly pool: pg.Pool,
    private readonly ownsPool: boolean,
  ) {}

  /** A driver with its own pool for `connectionString`. */
  static connect(connectionString: string, poolSize?: number): PgDriver {
    const pool = new pg.Pool({ connectionString, ...(poolSize === undefined ? {} : { max: poolSize }) });
    // An idle client's error (a server restart) must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    return new PgDriver(pool, true);
  }

  async query<Row>(statement: SqlStatement, values: readonly unknown[] = []): Promise<Row[]> {
    const result = await this.pool.query({ text: statement.text, name: statement.name, values: values as unknown[] });
    return result.rows as Row[];
  }

  async transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const executor: SqlExecutor = {
      query: async <Row>(statement: SqlStatement, values: readonly unknown[] = []) =>
        (await client.query({ text: statement.text, name: statement.name, values: values as unknown[] })).rows as Row[],
    };
    // A connection whose ROLLBACK failed may still be inside the transaction: it is destroyed, not reused.
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(executor);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }
}
