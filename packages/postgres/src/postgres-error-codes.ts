/**
 * Every code `@toolsmith/postgres` reports itself (database errors pass through as they are), with what it means (codes it reports for core, such as
 * `CREDENTIAL_DECRYPT_FAILED`, are core's: `CORE_ERROR_CODES`). docs/errors.md lists every one; a test checks both.
 */
export const POSTGRES_ERROR_CODES = {
  POSTGRES_CONFIG_INVALID: 'The store options are wrong (no connection, a bad schema name).',
  POSTGRES_SCHEMA_TOO_NEW: 'The database was migrated by a newer @toolsmith/postgres.',
  POSTGRES_DATA_DIR_LOCKED: 'Another living process (or open store) has the PGlite data directory open.',
} as const;

/** A code `@toolsmith/postgres` reports itself (see {@link POSTGRES_ERROR_CODES}). */
export type PostgresErrorCode = keyof typeof POSTGRES_ERROR_CODES;
