import { ToolsmithError } from '@toolsmith/core';

/** Codes of the errors `@toolsmith/postgres` raises itself (database errors pass through as they are). */
export type PostgresErrorCode = 'POSTGRES_CONFIG_INVALID' | 'POSTGRES_SCHEMA_TOO_NEW';

/** The options of a Postgres store are unusable: no connection given, several given, or a bad schema name. */
export class PostgresConfigError extends ToolsmithError {
  constructor(problem: string) {
    super('POSTGRES_CONFIG_INVALID', `The PostgreSQL store options are invalid: ${problem}.`);
  }
}
