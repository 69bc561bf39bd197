import type { SqlStatement } from './sql-driver';

/**
 * The session store's SQL, per schema (`s` is the quoted schema name). Each method of the store is
 * one of these statements, so one round trip; the CTEs do in the database what would otherwise be a
 * read-modify-write from the application.
 */
export interface SessionStatements {
  create: SqlStatement;
  get: SqlStatement;
  list: SqlStatement;
  delete: SqlStatement;
  append: SqlStatement;
  appendRefusal: SqlStatement;
  claim: SqlStatement;
  claimAndLoad: SqlStatement;
  claimHolder: SqlStatement;
  renewClaim: SqlStatement;
  releaseClaim: SqlStatement;
  lockSessionState: SqlStatement;
  lockUserState: SqlStatement;
  lockAppState: SqlStatement;
}

/** Merges a delta into a JSONB state: keys removed first, then keys set. */
const merge = (column: string, set: string, removed: string) => `(${column} - ${removed}::text[]) || ${set}::jsonb`;

/**
 * A text that sorts (bytewise, `COLLATE "C"`: code point order) the way `text` sorts in UTF-16 code
 * units, the order of every store (JavaScript's `<`). The two differ only for characters above U+FFFF
 * (surrogate pairs, 0xD800–0xDFFF in UTF-16) against U+E000–U+FFFF: each of those gets a marker in front,
 * U+E000 before a character above U+FFFF and U+E001 before one of U+E000–U+FFFF, so they sort after
 * every character below U+D800 and in UTF-16's order among themselves.
 */
const utf16Order = (text: string) =>
  `regexp_replace(regexp_replace(${text}, '([\\uE000-\\uFFFF])', chr(57345) || '\\1', 'g'), '([\\U00010000-\\U0010FFFF])', chr(57344) || '\\1', 'g') COLLATE "C"`;

/** The database's clock in milliseconds since the epoch: every process reads one clock for claim expiries. */
const NOW_MS = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

export function sessionStatements(s: string): SessionStatements {
  const name = (what: string) => `toolsmith_${what}_${s.replace(/\W/g, '')}`;
  return {
    // $1 app, $2 user, $3 session, $4 session state, $5 user state, $6 app state, $7 time.
    // Scoped initial state is written only when the session row was inserted; the state returned is
    // the merged view after the write (a CTE's result, since the statement's own reads see the snapshot before it).
    create: {
      name: name('create'),
      text: `
        WITH ins AS (
          INSERT INTO ${s}.sessions (app_name, user_id, session_id, state, create_time, update_time)
          VALUES ($1, $2, $3, $4::jsonb, $7, $7)
          ON CONFLICT DO NOTHING
          RETURNING 1
        ), u AS (
          INSERT INTO ${s}.user_state AS t (app_name, user_id, state)
          SELECT $1, $2, $5::jsonb FROM ins WHERE $5::jsonb <> '{}'
          ON CONFLICT (app_name, user_id) DO UPDATE SET state = t.state || excluded.state
          RETURNING t.state
        ), a AS (
          INSERT INTO ${s}.app_state AS t (app_name, state)
          SELECT $1, $6::jsonb FROM ins WHERE $6::jsonb <> '{}'
          ON CONFLICT (app_name) DO UPDATE SET state = t.state || excluded.state
          RETURNING t.state
        )
        SELECT EXISTS (SELECT 1 FROM ins) AS created,
          coalesce((SELECT state FROM a), (SELECT state FROM ${s}.app_state WHERE app_name = $1)) AS app_state,
          coalesce((SELECT state FROM u), (SELECT state FROM ${s}.user_state WHERE app_name = $1 AND user_id = $2)) AS user_state`,
    },
    // $1 app, $2 user, $3 session, $4 events at or after this time (or null), $5 only the last N (or null).
    // The session row first (sequence 0: its state, app and user state), then one row per event, in order:
    // each event is a value of its own, never one aggregated value (V8 takes a string of at most ~512 MiB,
    // and pg reads a value as one string, so a grown session aggregated would kill every process reading it).
    // No row: no session (events go with their session).
    get: {
      name: name('get'),
      text: `
        SELECT s.state, s.last_sequence, s.update_time, a.state AS app_state, u.state AS user_state, NULL::json AS data, 0::bigint AS sequence
        FROM ${s}.sessions s
        LEFT JOIN ${s}.app_state a ON a.app_name = s.app_name
        LEFT JOIN ${s}.user_state u ON u.app_name = s.app_name AND u.user_id = s.user_id
        WHERE s.app_name = $1 AND s.user_id = $2 AND s.session_id = $3
        UNION ALL
        SELECT NULL, NULL, NULL, NULL, NULL, e.data, e.sequence FROM (
          SELECT data, sequence FROM ${s}.events
          WHERE app_name = $1 AND user_id = $2 AND session_id = $3 AND ($4::float8 IS NULL OR event_time >= $4::float8)
          ORDER BY sequence DESC LIMIT $5::bigint
        ) e
        ORDER BY sequence`,
    },
    // $1 app, $2 user, $3 after this id (or null), $4 limit (or null).
    list: {
      name: name('list'),
      text: `
        SELECT s.session_id, s.state, s.last_sequence, s.update_time,
          (SELECT state FROM ${s}.app_state WHERE app_name = $1) AS app_state,
          (SELECT state FROM ${s}.user_state WHERE app_name = $1 AND user_id = $2) AS user_state
        FROM ${s}.sessions s
        WHERE s.app_name = $1 AND s.user_id = $2 AND ($3::text IS NULL OR ${utf16Order('s.session_id')} > ${utf16Order('$3::text')})
        ORDER BY ${utf16Order('s.session_id')}
        LIMIT $4::bigint`,
    },
    delete: { name: name('delete'), text: `DELETE FROM ${s}.sessions WHERE app_name = $1 AND user_id = $2 AND session_id = $3` },
    // $1 app, $2 user, $3 session, $4 expected sequence, $5 event id, $6 invocation id, $7 author, $8 time,
    // $9 event JSON, $10/$11 session keys set/removed, $12/$13 user keys, $14/$15 app keys, $16 claimed call ids,
    // $17 the fencing number the writer carries (or null). A claim of another run (a live one, or any
    // newer one than the writer's) makes the UPDATE match nothing.
    // The UPDATE is the sequence check and the row lock (held until this statement commits); everything
    // else happens only when it matched. A second claim of a call id fails the whole statement (unique key).
    append: {
      name: name('append'),
      text: `
        WITH s AS (
          UPDATE ${s}.sessions
          SET last_sequence = last_sequence + 1, update_time = $8,
            state = CASE WHEN $10::jsonb = '{}' AND cardinality($11::text[]) = 0 THEN state ELSE ${merge('state', '$10', '$11')} END
          WHERE app_name = $1 AND user_id = $2 AND session_id = $3 AND last_sequence = $4
            AND NOT EXISTS (
              SELECT 1 FROM ${s}.session_claims k
              WHERE k.app_name = $1 AND k.user_id = $2 AND k.session_id = $3 AND k.fence IS DISTINCT FROM $17::bigint
                AND ($17::bigint IS NOT NULL OR k.expires_at > ${NOW_MS}))
          RETURNING last_sequence
        ), e AS (
          INSERT INTO ${s}.events (app_name, user_id, session_id, sequence, event_id, invocation_id, author, event_time, data)
          SELECT $1, $2, $3, s.last_sequence, $5, $6, $7, $8, $9::json FROM s
        ), c AS (
          INSERT INTO ${s}.answered_calls (app_name, user_id, session_id, call_id, sequence)
          SELECT $1, $2, $3, id, s.last_sequence FROM s, unnest($16::text[]) AS id
        ), u AS (
          INSERT INTO ${s}.user_state AS t (app_name, user_id, state)
          SELECT $1, $2, $12::jsonb FROM s WHERE $12::jsonb <> '{}' OR cardinality($13::text[]) > 0
          ON CONFLICT (app_name, user_id) DO UPDATE SET state = ${merge('t.state', '$12', '$13')}
        ), a AS (
          INSERT INTO ${s}.app_state AS t (app_name, state)
          SELECT $1, $14::jsonb FROM s WHERE $14::jsonb <> '{}' OR cardinality($15::text[]) > 0
          ON CONFLICT (app_name) DO UPDATE SET state = ${merge('t.state', '$14', '$15')}
        )
        SELECT last_sequence FROM s`,
    },
    // Why an append matched nothing (only then; a fresh statement sees what the winner committed):
    // $1 app, $2 user, $3 session, $4 the call ids it claimed.
    appendRefusal: {
      name: name('append_refusal'),
      text: `
        SELECT (SELECT last_sequence FROM ${s}.sessions WHERE app_name = $1 AND user_id = $2 AND session_id = $3) AS last_sequence,
          ARRAY(SELECT call_id FROM ${s}.answered_calls WHERE app_name = $1 AND user_id = $2 AND session_id = $3 AND call_id = ANY($4::text[])) AS claimed,
          k.holder, k.fence, k.expires_at, k.expires_at > ${NOW_MS} AS live
        FROM (SELECT 1) one
        LEFT JOIN ${s}.session_claims k ON k.app_name = $1 AND k.user_id = $2 AND k.session_id = $3`,
    },
    // $1 app, $2 user, $3 session, $4 holder, $5 lease (ms). Granted (a row) when there is no claim or
    // the latest has expired; the fencing number grows with every claim.
    claim: {
      name: name('claim'),
      text: `
        INSERT INTO ${s}.session_claims AS k (app_name, user_id, session_id, holder, fence, expires_at)
        VALUES ($1, $2, $3, $4, 1, ${NOW_MS} + $5::bigint)
        ON CONFLICT (app_name, user_id, session_id) DO UPDATE SET holder = excluded.holder, fence = k.fence + 1, expires_at = excluded.expires_at
        WHERE k.expires_at <= excluded.expires_at - $5::bigint
        RETURNING fence, expires_at`,
    },
    // The claim (the same $1–$5) and, when granted, the session as getSession reads it. The statement's
    // snapshot is taken before the claim is decided, so it may predate the last append of the run whose
    // release the claim found: the session row is read with a lock (FOR SHARE waits for an append in
    // progress and reads the row's newest version, and no append can start until this commits), and
    // the load counts only when the snapshot's events reach that row's last_sequence (else the caller
    // reads the session again). The claim's row first (sequence 0), then one row per event in order, as
    // getSession reads them. No row: not granted.
    claimAndLoad: {
      name: name('claim_and_load'),
      text: `
        WITH k AS (
          INSERT INTO ${s}.session_claims AS k (app_name, user_id, session_id, holder, fence, expires_at)
          VALUES ($1, $2, $3, $4, 1, ${NOW_MS} + $5::bigint)
          ON CONFLICT (app_name, user_id, session_id) DO UPDATE SET holder = excluded.holder, fence = k.fence + 1, expires_at = excluded.expires_at
          WHERE k.expires_at <= excluded.expires_at - $5::bigint
          RETURNING fence, expires_at
        ), cur AS (
          SELECT state, last_sequence, update_time FROM ${s}.sessions
          WHERE app_name = $1 AND user_id = $2 AND session_id = $3 AND EXISTS (SELECT 1 FROM k)
          FOR SHARE
        )
        SELECT k.fence, k.expires_at, cur.state, cur.last_sequence, cur.update_time,
          (SELECT state FROM ${s}.app_state WHERE app_name = $1) AS app_state,
          (SELECT state FROM ${s}.user_state WHERE app_name = $1 AND user_id = $2) AS user_state,
          NULL::json AS data, 0::bigint AS sequence
        FROM k LEFT JOIN cur ON true
        UNION ALL
        SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, e.data, e.sequence FROM ${s}.events e
        WHERE e.app_name = $1 AND e.user_id = $2 AND e.session_id = $3 AND EXISTS (SELECT 1 FROM cur)
        ORDER BY sequence`,
    },
    // Who holds a claim that was not granted (only then).
    claimHolder: {
      name: name('claim_holder'),
      text: `SELECT holder, expires_at FROM ${s}.session_claims WHERE app_name = $1 AND user_id = $2 AND session_id = $3`,
    },
    // $1 app, $2 user, $3 session, $4 fence, $5 lease (ms).
    renewClaim: {
      name: name('renew_claim'),
      text: `UPDATE ${s}.session_claims SET expires_at = ${NOW_MS} + $5::bigint WHERE app_name = $1 AND user_id = $2 AND session_id = $3 AND fence = $4 RETURNING fence`,
    },
    // An append with state updates applied in it (increment, compare-and-set) first locks and reads, in
    // its transaction, the rows those keys live in, in the order the append statement takes them
    // (session, user, app): $1 app, $2 user, $3 session.
    lockSessionState: {
      name: name('lock_session_state'),
      text: `SELECT state FROM ${s}.sessions WHERE app_name = $1 AND user_id = $2 AND session_id = $3 FOR UPDATE`,
    },
    // The row is created when missing, so the lock holds from the first write on. $1 app, $2 user.
    lockUserState: {
      name: name('lock_user_state'),
      text: `INSERT INTO ${s}.user_state AS t (app_name, user_id, state) VALUES ($1, $2, '{}'::jsonb)
        ON CONFLICT (app_name, user_id) DO UPDATE SET state = t.state RETURNING t.state`,
    },
    // $1 app.
    lockAppState: {
      name: name('lock_app_state'),
      text: `INSERT INTO ${s}.app_state AS t (app_name, state) VALUES ($1, '{}'::jsonb)
        ON CONFLICT (app_name) DO UPDATE SET state = t.state RETURNING t.state`,
    },
    // $1 app, $2 user, $3 session, $4 fence.
    releaseClaim: {
      name: name('release_claim'),
      text: `UPDATE ${s}.session_claims SET expires_at = 0 WHERE app_name = $1 AND user_id = $2 AND session_id = $3 AND fence = $4`,
    },
  };
}
