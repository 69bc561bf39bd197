import { randomUUID } from 'node:crypto';
import { InvalidGrantError, grantProblem } from '@toolsmith/core';
import type { ConfirmationGrant, GrantQuery, GrantScope, GrantService, JsonSchema, NewGrant } from '@toolsmith/core';
import type { PostgresConnectionOptions } from './postgres-database';
import { PostgresDatabase } from './postgres-database';
import type { SqlStatement } from './sql-driver';

/** Options of {@link PostgresGrantService}: a connection, or the {@link PostgresDatabase} of a session store to share it. */
export type PostgresGrantServiceOptions = PostgresConnectionOptions | { database: PostgresDatabase };

interface GrantRow {
  grant_id: string;
  app_name: string;
  scope: GrantScope;
  user_id: string | null;
  session_id: string | null;
  tool_name: string;
  schema_hash: string;
  condition: JsonSchema | null;
  created_at: string | number;
  expires_at: string | number | null;
}

/** SQLSTATEs of a value the table refuses: invalid text, out of range, not null, check. */
const REFUSED_VALUE = new Set(['22P02', '22003', '23502', '23514']);

const COLUMNS = 'grant_id, app_name, scope, user_id, session_id, tool_name, schema_hash, condition, created_at, expires_at';

/**
 * Remembered confirmation grants ("always allow") in PostgreSQL or PGlite, in the
 * `confirmation_grants` table (migration step 5), so a grant given through one process covers calls
 * in every process on the same database. Each method is one statement.
 *
 * @example
 * ```ts
 * const sessionService = new PostgresSessionService({ connectionString });
 * const grantService = new PostgresGrantService({ database: sessionService.database });
 * const runner = new Runner({ appName, agent, sessionService, grantService });
 * ```
 */
export class PostgresGrantService implements GrantService {
  /** The database (connections and schema) this service uses. */
  readonly database: PostgresDatabase;
  private readonly sql: Record<'insert' | 'applicable' | 'list' | 'revoke' | 'revokeSession', SqlStatement>;

  constructor(options: PostgresGrantServiceOptions) {
    this.database = 'database' in options ? options.database : PostgresDatabase.open(options);
    const s = this.database.schema;
    this.sql = {
      insert: {
        text: `INSERT INTO ${s}.confirmation_grants (grant_id, app_name, scope, user_id, session_id, tool_name, schema_hash, condition, created_at, expires_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      },
      applicable: {
        text: `SELECT ${COLUMNS} FROM ${s}.confirmation_grants
               WHERE app_name = $1 AND tool_name = $4
                 AND (scope = 'app' OR (user_id = $2 AND (scope = 'user' OR session_id = $3)))
               ORDER BY position`,
      },
      list: {
        text: `SELECT ${COLUMNS} FROM ${s}.confirmation_grants
               WHERE app_name = $1 AND ($2::text IS NULL OR user_id = $2) AND ($3::text IS NULL OR session_id = $3) AND ($4::text IS NULL OR tool_name = $4)
               ORDER BY position`,
      },
      revoke: { text: `DELETE FROM ${s}.confirmation_grants WHERE app_name = $1 AND grant_id = $2 RETURNING grant_id` },
      revokeSession: {
        text: `DELETE FROM ${s}.confirmation_grants WHERE app_name = $1 AND scope = 'session' AND user_id = $2 AND session_id = $3 RETURNING grant_id`,
      },
    };
  }

  /**
   * Implements {@link GrantService.createGrant}: a grant `grantProblem` refuses, and one the table's
   * types or constraints refuse (SQLSTATE 22P02, 22003, 23502, 23514), throw `InvalidGrantError`
   * (`INVALID_GRANT`); nothing is stored.
   */
  async createGrant(grant: NewGrant): Promise<ConfirmationGrant> {
    const problem = grantProblem(grant);
    if (problem) throw new InvalidGrantError(problem);
    const stored: ConfirmationGrant = structuredClone({ ...grant, id: `grant-${randomUUID()}`, createdAt: Date.now() });
    const insert = this.database.query(this.sql.insert, [
      stored.id,
      stored.appName,
      stored.scope,
      stored.userId ?? null,
      stored.sessionId ?? null,
      stored.toolName,
      stored.schemaHash,
      stored.condition === undefined ? null : JSON.stringify(stored.condition),
      stored.createdAt,
      stored.expiresAt ?? null,
    ]);
    try {
      await insert;
    } catch (thrown) {
      const code = (thrown as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && REFUSED_VALUE.has(code)) throw new InvalidGrantError(`the database refused it (SQLSTATE ${code})`, { cause: thrown });
      throw thrown;
    }
    return stored;
  }

  /** Implements {@link GrantService.applicableGrants}. */
  async applicableGrants(query: { appName: string; userId: string; sessionId: string; toolName: string }): Promise<ConfirmationGrant[]> {
    const rows = await this.database.query<GrantRow>(this.sql.applicable, [query.appName, query.userId, query.sessionId, query.toolName]);
    return rows.map(grantFromRow);
  }

  /** Implements {@link GrantService.listGrants}. */
  async listGrants(query: GrantQuery): Promise<ConfirmationGrant[]> {
    const rows = await this.database.query<GrantRow>(this.sql.list, [query.appName, query.userId ?? null, query.sessionId ?? null, query.toolName ?? null]);
    return rows.map(grantFromRow);
  }

  /** Implements {@link GrantService.revokeGrant}: one `DELETE`, so of two processes revoking one grant, one gets `true`. */
  async revokeGrant(query: { appName: string; grantId: string }): Promise<boolean> {
    const rows = await this.database.query<{ grant_id: string }>(this.sql.revoke, [query.appName, query.grantId]);
    return rows.length > 0;
  }

  /** Implements {@link GrantService.revokeSessionGrants}: one `DELETE` of the session's `session`-scoped grants. */
  async revokeSessionGrants(query: { appName: string; userId: string; sessionId: string }): Promise<number> {
    const rows = await this.database.query<{ grant_id: string }>(this.sql.revokeSession, [query.appName, query.userId, query.sessionId]);
    return rows.length;
  }
}

function grantFromRow(row: GrantRow): ConfirmationGrant {
  return {
    id: row.grant_id,
    appName: row.app_name,
    scope: row.scope,
    ...(row.user_id === null ? {} : { userId: row.user_id }),
    ...(row.session_id === null ? {} : { sessionId: row.session_id }),
    toolName: row.tool_name,
    schemaHash: row.schema_hash,
    ...(row.condition === null ? {} : { condition: row.condition }),
    createdAt: Number(row.created_at),
    ...(row.expires_at === null ? {} : { expiresAt: Number(row.expires_at) }),
  };
}
