import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The dev UI's script and stylesheet, ready to serve. */
export interface PageBundle {
  /** The page's script, served as `/app.js`: one minified bundle, preact included. */
  js: string;
  /** The page's stylesheet, served as `/app.css`. */
  css: string;
}

/** The minimal part of esbuild's JS API used here (esbuild is needed only where the page is not prebuilt). */
interface Esbuild {
  build(options: Record<string, unknown>): Promise<{ outputFiles: Array<{ path: string; text: string }> }>;
}

let cached: Promise<PageBundle> | undefined;

/**
 * The page's bundle: the prebuilt `dist/page/app.js` and `app.css` (written by the repository's `npm run
 * build` and by the package's own, shipped in the package) when present, else bundled once from `src/page` with
 * esbuild and kept for the life of the process (a clean clone after `tsc -b`, and the tests). Nothing
 * is fetched from a CDN: preact is bundled in, so the page works offline.
 */
export function loadPageBundle(): Promise<PageBundle> {
  cached ??= load().catch((error: unknown) => {
    cached = undefined; // a failed bundle is retried on the next page load
    throw error;
  });
  return cached;
}

async function load(): Promise<PageBundle> {
  const prebuilt = join(__dirname, 'page');
  if (existsSync(join(prebuilt, 'app.js'))) {
    return { js: readFileSync(join(prebuilt, 'app.js'), 'utf8'), css: readFileSync(join(prebuilt, 'app.css'), 'utf8') };
  }
  return bundlePage();
}

/** Bundles the page from its sources with esbuild (minified, preact included). Used by the build script and when no prebuilt page exists. */
export async function bundlePage(): Promise<PageBundle> {
  const entry = [join(__dirname, 'page', 'main.tsx'), join(__dirname, '..', 'src', 'page', 'main.tsx')].find((file) => existsSync(file));
  if (!entry) throw new Error(`The dev UI's sources are missing (looked for src/page/main.tsx from ${__dirname}).`);
  const esbuild = require('esbuild') as Esbuild;
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    outdir: 'out',
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const output = (extension: string) => result.outputFiles.find((file) => file.path.endsWith(extension))?.text ?? '';
  return { js: output('.js'), css: output('.css') };
}
