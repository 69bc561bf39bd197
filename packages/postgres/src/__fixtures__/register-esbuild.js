// Preloaded (`node -r`) by the child processes of the multi-process and data-directory-lock tests and by
// @toolsmith/dbos's durable-run workers: runs the TypeScript sources with esbuild's per-file transform
// (legacy decorators on, class fields as tsconfig.base.json's ES2022 target has them, no decorator
// metadata: the children's tools are function tools), `@toolsmith/<pkg>[/<entry>]` mapped to `packages/<pkg>/src` as jest maps it. A worker starts
// in about a second this way; ts-node's TypeScript transpile of core takes several CPU seconds per process.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '../../../..');
require.extensions['.ts'] = (module, filename) => {
  const { code } = esbuild.transformSync(fs.readFileSync(filename, 'utf8'), {
    loader: 'ts',
    format: 'cjs',
    target: 'node20',
    sourcefile: filename,
    sourcemap: 'inline',
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: true, target: 'ES2022' } },
  });
  module._compile(code, filename);
};

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const match = /^@toolsmith\/([a-z-]+)(?:\/(testing|adapter-kit|internal))?$/.exec(request);
  if (match) request = path.join(root, 'packages', match[1], 'src', match[2] ? `${match[2]}/index.ts` : 'index.ts');
  return resolveFilename.call(this, request, ...rest);
};
