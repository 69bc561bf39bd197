// Preloaded (`node -r`) by the test child processes that run the TypeScript sources (postgres's multi-process
// and data-directory-lock children, @toolsmith/dbos's durable-run workers, @toolsmith/mcp's stdio servers and
// `toolsmith mcp` from source): each file goes through esbuild's per-file transform (legacy decorators on, class
// fields as tsconfig.base.json's ES2022 target has them), `@toolsmith/<pkg>[/<entry>]` mapped to
// `packages/<pkg>/src` as jest maps it. esbuild emits no decorator metadata, so a file it finds decorators in
// (its output calls its `__decorateClass` helper) is transpiled again by TypeScript with tsconfig.base.json's
// options (emitDecoratorMetadata: `design:paramtypes` for constructors and @Param), as ts-node did for every
// file. A child starts in about a second this way; TypeScript's transpile of all of core takes several CPU
// seconds per process.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '../../../..');
let typescriptOptions;
function transpileWithMetadata(source, filename) {
  const ts = require('typescript');
  if (!typescriptOptions) {
    const base = ts.readConfigFile(path.join(root, 'tsconfig.base.json'), ts.sys.readFile).config.compilerOptions;
    typescriptOptions = {
      ...ts.convertCompilerOptionsFromJson(base, root).options,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      sourceMap: false,
      inlineSourceMap: true,
      declaration: false,
      declarationMap: false,
      composite: false,
    };
  }
  return ts.transpileModule(source, { compilerOptions: typescriptOptions, fileName: filename }).outputText;
}

require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  let { code } = esbuild.transformSync(source, {
    loader: 'ts',
    format: 'cjs',
    target: 'node20',
    sourcefile: filename,
    sourcemap: 'inline',
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: true, target: 'ES2022' } },
  });
  if (code.includes('__decorateClass(')) code = transpileWithMetadata(source, filename);
  module._compile(code, filename);
};

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const match = /^@toolsmith\/([a-z-]+)(?:\/(testing|adapter-kit|internal))?$/.exec(request);
  if (match) request = path.join(root, 'packages', match[1], 'src', match[2] ? `${match[2]}/index.ts` : 'index.ts');
  return resolveFilename.call(this, request, ...rest);
};
