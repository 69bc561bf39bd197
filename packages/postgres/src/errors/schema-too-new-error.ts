import { ToolsmithError } from '@toolsmith/core';

/**
 * The database's Toolsmith schema was migrated by a newer `@toolsmith/postgres` than this one. This
 * version refuses to touch it rather than guess; upgrade the package on every instance.
 */
export class SchemaTooNewError extends ToolsmithError {
  constructor(
    /** The schema name. */
    readonly schema: string,
    /** The version recorded in the database. */
    readonly databaseVersion: number,
    /** The newest version this package knows. */
    readonly knownVersion: number,
  ) {
    super(
      'POSTGRES_SCHEMA_TOO_NEW',
      `Schema "${schema}" is at version ${databaseVersion}, but this @toolsmith/postgres knows versions up to ${knownVersion}. ` +
        'Upgrade @toolsmith/postgres on every instance that uses this database.',
      { details: { schema, databaseVersion, knownVersion } },
    );
  }
}
