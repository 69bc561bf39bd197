import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ManifestError } from '../errors/manifest-errors';
import { manifestSetAfterScanMessage } from '../errors/messages';
import { MANIFEST_FILE_NAME } from './manifest-document';
import { type ManifestOptions, type ToolManifest, loadManifest } from './manifest';

/** Environment variable naming the manifest to use, or `off` to disable discovery. */
export const MANIFEST_ENV = 'TOOLSMITH_MANIFEST';

// `undefined`: not decided yet (discover on first use); `null`: decided, there is none.
let current: ToolManifest | null | undefined;
// Set once a class was scanned with the default manifest: scans are cached per class, so changing the
// default after that would be silently ignored for the classes already scanned.
let consulted = false;

/**
 * Sets the process-wide manifest the scanner uses when `scanTools` gets none: a loaded
 * {@link ToolManifest}, a path to load, or `null` for none (reflection only, no discovery). Call it at
 * startup: once a class was scanned with the default manifest, changing it throws
 * `MANIFEST_SET_AFTER_SCAN` (the scanned classes would keep their schemas).
 *
 * @example
 * ```ts
 * useManifest(join(__dirname, 'toolsmith.schema.json'), { onStale: 'error' });
 * ```
 */
export function useManifest(manifest: ToolManifest | string | null, options: ManifestOptions = {}): ToolManifest | null {
  const next = typeof manifest === 'string' ? loadManifest(manifest, options) : manifest;
  if (consulted && next !== (current ?? null)) {
    throw new ManifestError('MANIFEST_SET_AFTER_SCAN', manifestSetAfterScanMessage(), next?.path ?? current?.path ?? '');
  }
  current = next;
  return current;
}

/**
 * Finds a `toolsmith.schema.json` next to the compiled code: looks in `startDir` and each parent up to
 * and including the nearest directory with a `package.json` (the app's root), and returns the first
 * found. `startDir` defaults to the directory of the program's entry script.
 */
export function findManifest(startDir: string | undefined = entryDirectory()): string | undefined {
  if (startDir === undefined) return undefined;
  let dir = resolve(startDir);
  for (;;) {
    const candidate = join(dir, MANIFEST_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (existsSync(join(dir, 'package.json')) || parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The manifest the scanner uses by default: the one set with {@link useManifest}, else the file named
 * by `TOOLSMITH_MANIFEST` (`off` disables), else one found by {@link findManifest}. Decided once per
 * process.
 */
export function defaultManifest(): ToolManifest | undefined {
  consulted = true;
  if (current === undefined) {
    const fromEnv = process.env[MANIFEST_ENV];
    if (fromEnv === 'off') current = null;
    else if (fromEnv) current = loadManifest(fromEnv);
    else {
      const found = findManifest();
      current = found ? loadManifest(found) : null;
    }
  }
  return current ?? undefined;
}

function entryDirectory(): string | undefined {
  const entry = require.main?.filename ?? process.argv[1];
  return entry ? dirname(entry) : undefined;
}
