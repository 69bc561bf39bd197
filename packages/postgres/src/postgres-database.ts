// PGlite's declarations use the global Emscripten types without referencing them (@types/emscripten is a
// devDependency of theirs): this keeps `skipLibCheck: false` compiling for apps that use this package.
/// <reference types="emscripten" preserve="true" />
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { PostgresConfigError } from './errors/postgres-config-error';
import { migrate, quoteIdentifier } from './migrations';
import { PgDriver } from './pg-driver';
import { PgliteDriver } from './pglite-driver';
import type { SqlDriver, SqlExecutor, SqlStatement } from './sql-driver';

/** Where a Postgres store keeps its data: give exactly one of `connectionString`, `pool`, `pglite` or `dataDir`/`embedded`. */
export interface PostgresConnectionOptions {
  /** A PostgreSQL server, e.g. `postgres://user:pass@host:5432/db`; the store opens (and closes) its own pool. */
  connectionString?: string;
  /** Size of that pool (pg's default is 10). */
  poolSize?: number;
  /** A `pg.Pool` of the application's; the store uses it and leaves closing it to the application. */
  pool?: pg.Pool;
  /** A PGlite database of the application's (left open on `close()`). */
  pglite?: PGlite;
  /** An embedded PGlite database in this directory (created when missing); with `embedded: true` and no directory, in memory. */
  dataDir?: string;
  /** Use an embedded PGlite database (on `dataDir`, else in memory). */
  embedded?: boolean;
  /** The PostgreSQL schema holding the tables. Default `toolsmith`. */
  schema?: string;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * One database connection (a `pg` pool or PGlite) with the Toolsmith schema on it, migrated once on
 * first use. Session, memory and any other Postgres store built on the same `PostgresDatabase` share
 * its connections. Counts its round trips: each statement it sends, and a transaction's `BEGIN` and `COMMIT`.
 */
export class PostgresDatabase {
  /** The quoted schema name, for statements. */
  readonly schema: string;
  /** `pg` or `pglite`. */
  readonly kind: 'pg' | 'pglite';
  /** Round trips since the database was opened (migrations excluded): each statement, and a transaction's `BEGIN` and `COMMIT` (or `ROLLBACK`). */
  statements = 0;
  private ready?: Promise<void>;

  constructor(
    private readonly driver: SqlDriver,
    /** The schema name, unquoted. */
    readonly schemaName = 'toolsmith',
  ) {
    if (!SCHEMA_NAME.test(schemaName)) throw new PostgresConfigError(`schema "${schemaName}" must be a plain identifier (letters, digits, _)`);
    this.schema = quoteIdentifier(schemaName);
    this.kind = driver.kind;
  }

  /** Opens the database the options name. */
  static open(options: PostgresConnectionOptions): PostgresDatabase {
    const given = [options.connectionString !== undefined, options.pool !== undefined, options.pglite !== undefined, options.dataDir !== undefined || options.embedded === true];
    const count = given.filter(Boolean).length;
    if (count !== 1) {
      throw new PostgresConfigError(
        count === 0 ? 'give one of connectionString, pool, pglite or dataDir (embedded)' : 'give only one of connectionString, pool, pglite or dataDir (embedded)',
      );
    }
    const driver = options.connectionString !== undefined
      ? PgDriver.connect(options.connectionString, options.poolSize)
      : options.pool
        ? new PgDriver(options.pool, false)
        : options.pglite
          ? new PgliteDriver(options.pglite, false)
          : PgliteDriver.open(options.dataDir);
    return new PostgresDatabase(driver, options.schema);
  }

  /** Creates or migrates the schema (once per `PostgresDatabase`; safe when several processes do it at once). */
  migrate(): Promise<void> {
    // A failed attempt is forgotten, so the next call tries again (e.g. once the server is up).
    this.ready ??= migrate(this.driver, this.schemaName).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /** Runs one statement (after the schema is ready). */
  async query<Row>(statement: SqlStatement, values?: readonly unknown[]): Promise<Row[]> {
    await this.migrate();
    this.statements++;
    return this.driver.query<Row>(statement, values);
  }

  /** Runs `work` in one transaction (after the schema is ready); every round trip counts: `BEGIN`, each statement, `COMMIT` (or `ROLLBACK`). */
  async transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T> {
    await this.migrate();
    this.statements++; // BEGIN
    try {
      return await this.driver.transaction((executor) =>
        work({
          query: <Row>(statement: SqlStatement, values?: readonly unknown[]) => {
            this.statements++;
            return executor.query<Row>(statement, values);
          },
        }),
      );
    } finally {
      this.statements++; // COMMIT, or ROLLBACK
    }
  }

  /** Closes what the database opened itself (its own pool or PGlite instance). */
  close(): Promise<void> {
    return this.driver.close();
  }
}
