import pg from 'pg';
import type { SqlDriver, SqlExecutor, SqlStatement } from './sql-driver';

/**
 * How long (ms) a transaction of a Toolsmith store may sit idle between its statements before the server
 * ends it (`idle_in_transaction_session_timeout`, set for each transaction): a third of the runner's
 * default lease (30 s), the pause after which a run renews its claim. A store's transactions send their
 * statements back to back, never across a model or tool call, so only a frozen process (a paused
 * container, a stopped debugger) waits that long: the server then rolls its transaction back and frees its
 * row locks, and every other writer goes on within this bound instead of waiting for it without end.
 */
export const TRANSACTION_IDLE_LIMIT_MS = 10_000;

/** Begins a transaction and bounds its idle time, in one round trip (the simple query protocol takes both). */
const BEGIN = `BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${TRANSACTION_IDLE_LIMIT_MS}`;

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
    // The server may end the connection while it is checked out (an idle transaction past its bound): the
    // client's error then rejects the next query instead of going unheard (an uncaught 'error' event).
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost = error;
    };
    client.on('error', onError);
    const executor: SqlExecutor = {
      query: async <Row>(statement: SqlStatement, values: readonly unknown[] = []) =>
        (await client.query({ text: statement.text, name: statement.name, values: values as unknown[] })).rows as Row[],
    };
    // A connection whose ROLLBACK failed may still be inside the transaction: it is destroyed, not reused.
    let broken: Error | undefined;
    try {
      await client.query(BEGIN);
      const result = await work(executor);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    } finally {
      client.off('error', onError);
      client.release(broken ?? lost);
    }
  }

  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }
}
