// `@toolsmith/postgres`: durable sessions and memory on PostgreSQL (`pg`) and PGlite (embedded default).

/** Sessions in PostgreSQL or PGlite, with the full `SessionService` contract across processes. */
export { PostgresSessionService } from './postgres-session-service';
/** Options of `PostgresSessionService` and of `PostgresSessionService.embedded`. */
export type { EmbeddedSessionServiceOptions, PostgresSessionServiceOptions } from './postgres-session-service';
/** Long-term memory with PostgreSQL full-text search, for `loadMemory` / `preloadMemory`. */
export { PostgresMemoryService } from './postgres-memory-service';
/** Options of `PostgresMemoryService`. */
export type { PostgresMemoryServiceOptions } from './postgres-memory-service';
/** Users' credentials and authorizations in progress, encrypted at rest (AES-256-GCM, app-provided key). */
export { PostgresCredentialService } from './postgres-credential-service';
/** Options of `PostgresCredentialService`. */
export type { PostgresCredentialServiceOptions } from './postgres-credential-service';
/** Remembered confirmation grants ("always allow") shared by every process on the database. */
export { PostgresGrantService } from './postgres-grant-service';
/** Options of `PostgresGrantService`. */
export type { PostgresGrantServiceOptions } from './postgres-grant-service';
/** A stored credential that does not decrypt with the given key (`CREDENTIAL_DECRYPT_FAILED`; core's class, re-exported). */
export { CredentialDecryptError } from '@toolsmith/core';
/** One connection (pool or PGlite) with the migrated Toolsmith schema, shared by the stores built on it. */
export { PostgresDatabase } from './postgres-database';
/** Where a Postgres store keeps its data: a server (connection string or `pg.Pool`) or PGlite. */
export type { PostgresConnectionOptions } from './postgres-database';
/** The SQL layer under `PostgresDatabase`: one driver interface for `pg` and PGlite, its executor and statement shape. */
export type { SqlDriver, SqlExecutor, SqlStatement } from './sql-driver';
/** The newest schema version this package creates; the database's is in `<schema>.schema_migrations`. */
export { SCHEMA_VERSION } from './migrations';
/** Unusable store options (`POSTGRES_CONFIG_INVALID`). */
export { PostgresConfigError } from './errors/postgres-config-error';
/** Codes of the errors this package raises. */
/** The database was migrated by a newer package (`POSTGRES_SCHEMA_TOO_NEW`). */
export { SchemaTooNewError } from './errors/schema-too-new-error';
/** Another living process has the PGlite data directory open (`POSTGRES_DATA_DIR_LOCKED`, with its pid). */
export { DataDirLockedError } from './errors/data-dir-locked-error';
export { POSTGRES_ERROR_CODES } from './postgres-error-codes';
export type { PostgresErrorCode } from './postgres-error-codes';
