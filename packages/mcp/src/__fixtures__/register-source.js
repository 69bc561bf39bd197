// Preloaded (`node -r`) by child processes the tests spawn, so they run the TypeScript sources the way
// jest does: ts-node (transpile only, decorator metadata on) and `@toolsmith/<pkg>` (and its `/testing`, `/internal`, `/adapter-kit` entries) mapped to
// `packages/<pkg>/src` instead of a possibly stale `dist`.
const path = require('node:path');
const Module = require('node:module');

const root = path.resolve(__dirname, '../../../..');
require('ts-node').register({ transpileOnly: true, project: path.join(root, 'tsconfig.jest.json') });

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const match = /^@toolsmith\/([a-z-]+)(?:\/(testing|internal|adapter-kit))?$/.exec(request);
  if (match) request = path.join(root, 'packages', match[1], 'src', match[2] ? `${match[2]}/index.ts` : 'index.ts');
  return resolveFilename.call(this, request, ...rest);
};
