#!/usr/bin/env node
// The `toolsmith` command. A committed file, not a build output, so that npm links it at install time
// in a clone of the monorepo too (`npm ci` runs before any build); it loads the compiled CLI.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const compiled = join(__dirname, '..', 'dist', 'bin.js');
if (!existsSync(compiled)) {
  process.stderr.write(`toolsmith: ${compiled} is missing: build the CLI first (npm run build in the Toolsmith repository).\n`);
  process.exitCode = 70;
} else {
  require(compiled);
}
