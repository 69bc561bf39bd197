import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../../..');

/**
 * Bundles a TypeScript fixture of this directory, with the Toolsmith sources it imports (`@toolsmith/<pkg>`
 * and its entries mapped to `packages/<pkg>/src`, as the register-esbuild.js preload does), into one CommonJS file a
 * child process starts in about a second (ts-node needs many on a loaded machine). npm packages stay
 * external, so the file is written under the repository's node_modules/.cache, where node finds them.
 * Returns the file's path. (esbuild emits no decorator metadata: for fixtures without decorated classes.)
 */
export async function bundleFixture(fixture: string): Promise<string> {
  const esbuild = require('esbuild') as typeof import('esbuild');
  const outdir = join(root, 'node_modules', '.cache', 'toolsmith-mcp-fixtures');
  await mkdir(outdir, { recursive: true });
  const outfile = join(outdir, `${fixture.replace(/\.ts$/, '')}-${process.pid}.js`);
  await esbuild.build({
    entryPoints: [join(__dirname, fixture)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    tsconfig: join(root, 'tsconfig.jest.json'),
    logLevel: 'error',
    plugins: [
      {
        name: 'toolsmith-sources',
        setup(build) {
          build.onResolve({ filter: /^@toolsmith\// }, (args) => {
            const match = /^@toolsmith\/([a-z-]+)(?:\/(testing|internal|adapter-kit))?$/.exec(args.path);
            return match ? { path: join(root, 'packages', match[1], 'src', match[2] ? `${match[2]}/index.ts` : 'index.ts') } : undefined;
          });
        },
      },
    ],
  });
  return outfile;
}
