'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS loaded by jest's runtime, which gives it require() */
// Jest maps '@electric-sql/pglite' here (jest.config.ts). PGlite loads its WebAssembly with import(),
// which jest's CommonJS sandbox refuses (it needs --experimental-vm-modules), and Node refuses it too
// for modules required from inside the sandbox. So the real package is compiled here in Node's main
// context with Node's default loader for import(): tests then use the same PGlite an app gets.
// Plain Node (apps, examples, the multi-process tests' children) never comes here.
const { readFileSync } = require('node:fs');
const { dirname } = require('node:path');
const vm = require('node:vm');
const { createRequire } = process.getBuiltinModule('node:module');

const file = createRequire(__filename).resolve('@electric-sql/pglite');
const source = readFileSync(file, 'utf8');
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
  filename: file,
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const loaded = { exports: {} };
script.runInThisContext()(loaded.exports, createRequire(file), loaded, file, dirname(file));

// Rows would hold objects of Node's main realm, whose prototypes differ from the sandbox's (and the
// runner checks that arguments are plain objects). JSON columns are parsed with the sandbox's JSON.
const JSON_TYPES = { 114: (text) => JSON.parse(text), 3802: (text) => JSON.parse(text) };
class PGlite extends loaded.exports.PGlite {
  constructor(dataDirOrOptions, options) {
    const merged = typeof dataDirOrOptions === 'object' && dataDirOrOptions !== null ? { ...dataDirOrOptions } : { ...options, dataDir: dataDirOrOptions };
    merged.parsers = { ...JSON_TYPES, ...merged.parsers };
    super(merged);
  }
}
module.exports = { ...loaded.exports, PGlite };
/* eslint-enable @typescript-eslint/no-require-imports */
