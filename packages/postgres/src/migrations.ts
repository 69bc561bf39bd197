import { SchemaTooNewError } from './errors/schema-too-new-error';
import type { SqlDriver } from './sql-driver';

/**
 * The schema, as numbered steps. A step is never edited once released: changes come as a new step.
 * `s` is the quoted schema name.
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; description: string; sql: (s: string) => string }> = [
  {
    version: 1,
    description: 'sessions, events, answered calls, app and user state',
    sql: (s) => `
      CREATE TABLE ${s}.sessions (
        app_name text NOT NULL,
        user_id text NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        state jsonb NOT NULL DEFAULT '{}',
        last_sequence bigint NOT NULL DEFAULT 0,
        create_time bigint NOT NULL,
        update_time bigint NOT NULL,
        PRIMARY KEY (app_name, user_id, session_id)
      );
      CREATE TABLE ${s}.events (
        app_name text NOT NULL,
        user_id text NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        sequence bigint NOT NULL,
        event_id text NOT NULL,
        invocation_id text NOT NULL,
        author text NOT NULL,
        event_time bigint NOT NULL,
        data json NOT NULL,
        PRIMARY KEY (app_name, user_id, session_id, sequence),
        FOREIGN KEY (app_name, user_id, session_id) REFERENCES ${s}.sessions ON DELETE CASCADE
      );
      CREATE TABLE ${s}.answered_calls (
        app_name text NOT NULL,
        user_id text NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        call_id text NOT NULL,
        sequence bigint NOT NULL,
        PRIMARY KEY (app_name, user_id, session_id, call_id),
        FOREIGN KEY (app_name, user_id, session_id) REFERENCES ${s}.sessions ON DELETE CASCADE
      );
      CREATE TABLE ${s}.app_state (
        app_name text PRIMARY KEY,
        state jsonb NOT NULL DEFAULT '{}'
      );
      CREATE TABLE ${s}.user_state (
        app_name text NOT NULL,
        user_id text NOT NULL,
        state jsonb NOT NULL DEFAULT '{}',
        PRIMARY KEY (app_name, user_id)
      );`,
  },
  {
    version: 2,
    description: 'memories with a full-text index',
    sql: (s) => `
      CREATE TABLE ${s}.memories (
        app_name text NOT NULL,
        user_id text NOT NULL,
        session_id text NOT NULL,
        position integer NOT NULL,
        author text,
        event_time bigint NOT NULL,
        content json NOT NULL,
        text text NOT NULL,
        search tsvector GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED,
        PRIMARY KEY (app_name, user_id, session_id, position)
      );
      CREATE INDEX memories_search ON ${s}.memories USING gin (search);`,
  },
  {
    version: 3,
    description: 'credentials and authorizations in progress, encrypted',
    // IF NOT EXISTS: before this step, PostgresCredentialService created these tables on first use.
    sql: (s) => `
      CREATE TABLE IF NOT EXISTS ${s}.credentials (
        app_name text NOT NULL,
        user_id text NOT NULL,
        auth_config_id text NOT NULL,
        secret text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (app_name, user_id, auth_config_id)
      );
      CREATE TABLE IF NOT EXISTS ${s}.pending_authorizations (
        state text PRIMARY KEY,
        secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );`,
  },
  {
    version: 4,
    description: 'session claims: one writer per session across processes',
    // No foreign key: a run claims a session before it creates it, and a claim's fencing number must
    // keep growing when a session is deleted and created again.
    sql: (s) => `
      CREATE TABLE ${s}.session_claims (
        app_name text NOT NULL,
        user_id text NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        holder text NOT NULL,
        fence bigint NOT NULL,
        expires_at bigint NOT NULL,
        PRIMARY KEY (app_name, user_id, session_id)
      );`,
  },
  {
    version: 5,
    description: 'remembered confirmation grants',
    // `position` orders grants oldest first even when two share a millisecond.
    sql: (s) => `
      CREATE TABLE ${s}.confirmation_grants (
        app_name text NOT NULL,
        grant_id text NOT NULL,
        position bigint GENERATED ALWAYS AS IDENTITY,
        scope text NOT NULL CHECK (scope IN ('session', 'user', 'app')),
        user_id text,
        session_id text COLLATE "C",
        tool_name text NOT NULL,
        schema_hash text NOT NULL,
        condition json,
        created_at bigint NOT NULL,
        expires_at bigint,
        PRIMARY KEY (app_name, grant_id)
      );
      CREATE INDEX confirmation_grants_tool ON ${s}.confirmation_grants (app_name, tool_name, user_id)`,
  },
];

/** The newest schema version this package knows. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/**
 * Brings the schema to {@link SCHEMA_VERSION}, in one transaction holding an advisory lock keyed on
 * the schema name: of several processes starting at once, one migrates and the others wait, then see
 * the work done. Running it again changes nothing. A database migrated by a newer package is refused.
 */
export async function migrate(driver: SqlDriver, schema: string): Promise<void> {
  const s = quoteIdentifier(schema);
  await driver.transaction(async (tx) => {
    // Transaction-scoped: released by COMMIT or ROLLBACK, so a crash mid-migration leaves no lock behind.
    await tx.query({ text: `SELECT pg_advisory_xact_lock(hashtext($1))` }, [`toolsmith.migrate:${schema}`]);
    await tx.query({ text: `CREATE SCHEMA IF NOT EXISTS ${s}` });
    await tx.query({
      text: `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    });
    const [row] = await tx.query<{ version: number | null }>({ text: `SELECT max(version) AS version FROM ${s}.schema_migrations` });
    const current = row?.version ?? 0;
    if (current > SCHEMA_VERSION) throw new SchemaTooNewError(schema, current, SCHEMA_VERSION);
    for (const step of MIGRATIONS) {
      if (step.version <= current) continue;
      for (const statement of splitStatements(step.sql(s))) await tx.query({ text: statement });
      await tx.query({ text: `INSERT INTO ${s}.schema_migrations (version, description) VALUES ($1, $2)` }, [step.version, step.description]);
    }
  });
}

/** `"name"`, with inner quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The steps above hold no semicolons inside statements, so a split on `;` is exact (extended protocol runs one statement at a time). */
function splitStatements(sql: string): string[] {
  return sql
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}
