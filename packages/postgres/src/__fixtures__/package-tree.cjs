'use strict';
// Finding and placing installed packages, for the embedded PostgreSQL server of the tests
// (embedded-postgres-server.mjs) and for the test that starts it from a private folder.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS, loaded by the ES module server script and by a jest test
const { chmodSync, copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } = require('node:fs');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const { createRequire } = require('node:module');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const { join } = require('node:path');

/** The folder of package `name` as Node would find it from `fromDir`. */
function packageDir(name, fromDir) {
  const found = createRequire(join(fromDir, 'noop.js'))
    .resolve.paths(name)
    .map((modules) => join(modules, name))
    .find((candidate) => existsSync(join(candidate, 'package.json')));
  if (!found) throw new Error(`cannot find ${name} from ${fromDir}`);
  return found;
}

/** Copies a folder as hard links (a copy where links cannot be made), keeping symlinks; folders readable by all. */
function linkTree(from, to) {
  mkdirSync(to, { recursive: true });
  chmodSync(to, 0o755);
  for (const entry of readdirSync(from)) {
    const source = join(from, entry);
    const target = join(to, entry);
    const stat = lstatSync(source);
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (stat.isDirectory()) linkTree(source, target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    }
  }
}

module.exports = { packageDir, linkTree };
