import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type AuthCredential, CredentialDecryptError, type CredentialKey, type CredentialService, PENDING_AUTHORIZATION_TTL_MS, type PendingAuthorization } from '@toolsmith/core';
import { SessionTurns } from '@toolsmith/core/internal';

import { PostgresConfigError } from './errors/postgres-config-error';
import { type PostgresConnectionOptions, PostgresDatabase } from './postgres-database';
import type { SqlExecutor, SqlStatement } from './sql-driver';

/** Options of {@link PostgresCredentialService}: a connection (or a shared database) and the encryption key. */
export type PostgresCredentialServiceOptions = (PostgresConnectionOptions | { database: PostgresDatabase }) & {
  /**
   * The AES-256-GCM key: 32 random bytes, as a Buffer, or as text in base64 (44 characters, e.g. from
   * `openssl rand -base64 32`) or hex (64 characters). Any other text (a passphrase) is refused with
   * `POSTGRES_CONFIG_INVALID`, even one that happens to decode. Keep it outside the database (an environment
   * variable, a secret manager): rows are useless without it.
   */
  encryptionKey: Buffer | string;
};

/**
 * Users' credentials (OAuth2 tokens, API keys) and authorizations in progress (with their PKCE
 * verifier) in PostgreSQL or PGlite, encrypted at rest with AES-256-GCM under a key the app provides.
 * Each value is encrypted with a fresh IV and authenticated with its row's key (app, user, config or
 * `state`) as associated data, so a ciphertext copied to another row does not decrypt. A `state` is
 * redeemed once, whichever process asks (`DELETE … RETURNING`).
 *
 * @example
 * ```ts
 * const sessionService = new PostgresSessionService({ connectionString });
 * const credentialService = new PostgresCredentialService({ database: sessionService.database, encryptionKey: process.env.CREDENTIALS_KEY! });
 * const runner = new Runner({ appName, agent, sessionService, credentialService });
 * ```
 */
export class PostgresCredentialService implements CredentialService {
  /** The database (connections and schema) this service uses. */
  readonly database: PostgresDatabase;
  private readonly key: Buffer;
  /** Updates of one credential take turns within this process. */
  private readonly turns = new SessionTurns();
  private readonly sql: Record<'load' | 'save' | 'remove' | 'savePending' | 'takePending' | 'sweepPending', SqlStatement>;

  constructor(options: PostgresCredentialServiceOptions) {
    this.key = encryptionKeyBytes(options.encryptionKey);
    this.database = 'database' in options ? options.database : PostgresDatabase.open(options);
    const s = this.database.schema;
    this.sql = {
      load: { text: `SELECT secret FROM ${s}.credentials WHERE app_name = $1 AND user_id = $2 AND auth_config_id = $3` },
      save: {
        text: `INSERT INTO ${s}.credentials (app_name, user_id, auth_config_id, secret) VALUES ($1, $2, $3, $4)
               ON CONFLICT (app_name, user_id, auth_config_id) DO UPDATE SET secret = EXCLUDED.secret, updated_at = now()`,
      },
      remove: { text: `DELETE FROM ${s}.credentials WHERE app_name = $1 AND user_id = $2 AND auth_config_id = $3` },
      savePending: { text: `INSERT INTO ${s}.pending_authorizations (state, secret) VALUES ($1, $2) ON CONFLICT (state) DO UPDATE SET secret = EXCLUDED.secret` },
      takePending: { text: `DELETE FROM ${s}.pending_authorizations WHERE state = $1 RETURNING secret` },
      sweepPending: { text: `DELETE FROM ${s}.pending_authorizations WHERE created_at < now() - make_interval(secs => $1)` },
    };
  }

  /** The stored credential, decrypted, or `undefined`; throws {@link CredentialDecryptError} when it cannot be decrypted. */
  async loadCredential(key: CredentialKey): Promise<AuthCredential | undefined> {
    const [row] = await this.database.query<{ secret: string }>(this.sql.load, [key.appName, key.userId, key.authConfigId]);
    return row ? (this.open(row.secret, credentialAad(key), 'credential') as AuthCredential) : undefined;
  }

  /** Encrypts and stores the credential, replacing the one stored for the same app, user and auth config. */
  async saveCredential(key: CredentialKey, credential: AuthCredential): Promise<void> {
    await this.database.query(this.sql.save, [key.appName, key.userId, key.authConfigId, this.seal(credential, credentialAad(key))]);
  }

  /** Deletes the credential of this app, user and auth config; nothing happens when there is none. */
  async deleteCredential(key: CredentialKey): Promise<void> {
    await this.database.query(this.sql.remove, [key.appName, key.userId, key.authConfigId]);
  }

  /**
   * Encrypts and stores the authorization in progress under its `state` (replacing one with the same
   * `state`), after deleting those older than `PENDING_AUTHORIZATION_TTL_MS` (by the database's clock).
   */
  async savePendingAuthorization(pending: PendingAuthorization): Promise<void> {
    await this.database.query(this.sql.sweepPending, [PENDING_AUTHORIZATION_TTL_MS / 1000]);
    await this.database.query(this.sql.savePending, [pending.state, this.seal(pending, pendingAad(pending.state))]);
  }

  /**
   * Deletes and returns the authorization started with `state`, in one statement: of concurrent callers only one gets it.
   * `undefined` when it is unknown or already taken; throws {@link CredentialDecryptError} when it cannot be decrypted.
   */
  async takePendingAuthorization(state: string): Promise<PendingAuthorization | undefined> {
    const [row] = await this.database.query<{ secret: string }>(this.sql.takePending, [state]);
    return row ? (this.open(row.secret, pendingAad(state), 'authorization') as PendingAuthorization) : undefined;
  }

  /**
   * Implements {@link CredentialService.updateCredential}: one update per key at a time in this process
   * and, on a PostgreSQL server, across processes, with a transaction holding an advisory lock on the
   * key. `update` (a token request) runs inside it: the others wait for its result rather than refresh
   * the same token again. Each waiting process holds one connection, and needs no other.
   */
  updateCredential(key: CredentialKey, update: (current: AuthCredential | undefined) => Promise<AuthCredential | undefined>): Promise<AuthCredential | undefined> {
    const aad = credentialAad(key);
    const values = [key.appName, key.userId, key.authConfigId];
    const apply = async (executor: SqlExecutor): Promise<AuthCredential | undefined> => {
      const [row] = await executor.query<{ secret: string }>(this.sql.load, values);
      const current = row ? (this.open(row.secret, aad, 'credential') as AuthCredential) : undefined;
      const next = await update(current);
      if (next === current) return current;
      if (next) await executor.query(this.sql.save, [...values, this.seal(next, aad)]);
      else await executor.query(this.sql.remove, values);
      return next;
    };
    return this.turns.inTurn(key.appName, key.userId, key.authConfigId, () =>
      // PGlite is one process's database: the turns above are the whole lock, and no transaction holds it during the request.
      this.database.kind === 'pglite'
        ? apply(this.database)
        : this.database.transaction(async (tx) => {
            await tx.query({ text: 'SELECT pg_advisory_xact_lock(hashtext($1))' }, [`toolsmith.credential:${aad}`]);
            return apply(tx);
          }),
    );
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts; `aad` binds it to its row. */
  private seal(value: unknown, aad: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  private open(sealed: string, aad: string, what: string): unknown {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new CredentialDecryptError(what);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return JSON.parse(Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8'));
    } catch {
      throw new CredentialDecryptError(what);
    }
  }
}

/**
 * The 32 key bytes: a Buffer as is; text only as canonical base64 / base64url (43 or 44 characters) or hex
 * (64 characters) of exactly 32 bytes. `Buffer.from(text, 'base64')` alone skips characters it cannot read,
 * so a passphrase could decode to 32 bytes of little entropy: such text is refused, as is any other length.
 */
function encryptionKeyBytes(given: Buffer | string): Buffer {
  const fix = 'Fix: generate 32 random bytes (`openssl rand -base64 32`) and pass them as a Buffer or as that base64 (or 64-character hex) text';
  if (Buffer.isBuffer(given)) {
    if (given.length !== 32) throw new PostgresConfigError(`encryptionKey must be 32 random bytes for AES-256-GCM; the Buffer has ${given.length}. ${fix}`);
    return Buffer.from(given);
  }
  if (typeof given === 'string') {
    const text = given.trim();
    if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
    if (/^[A-Za-z0-9+/]{43}=?$/.test(text) || /^[A-Za-z0-9_-]{43}$/.test(text)) {
      const bytes = Buffer.from(text, /[_-]/.test(text) ? 'base64url' : 'base64');
      // 43 characters carry 258 bits: the last character's low two bits must be zero in canonical base64.
      if (bytes.length === 32 && bytes.toString('base64url') === text.replace(/=$/, '').replace(/\+/g, '-').replace(/\//g, '_')) return bytes;
    }
  }
  const shape = typeof given === 'string' ? `text of ${given.length} characters that is neither base64 nor hex of 32 bytes (a passphrase is not a key)` : `a ${typeof given}`;
  throw new PostgresConfigError(`encryptionKey must be 32 random bytes for AES-256-GCM; got ${shape}. ${fix}`);
}

const credentialAad = (key: CredentialKey): string => JSON.stringify(['credential', key.appName, key.userId, key.authConfigId]);
const pendingAad = (state: string): string => JSON.stringify(['pending', state]);
