import { ToolsmithError } from '@toolsmith/core';

/** The options of a Postgres store are unusable: no connection given, several given, or a bad schema name. */
export class PostgresConfigError extends ToolsmithError<'POSTGRES_CONFIG_INVALID'> {
  constructor(problem: string) {
    super('POSTGRES_CONFIG_INVALID', `The PostgreSQL store options are invalid: ${problem}.`);
  }
}
