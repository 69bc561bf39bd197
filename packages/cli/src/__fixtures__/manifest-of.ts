import type { ManifestDocument } from '@toolsmith/core/internal';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as ts from 'typescript';
import { findManifestTypes } from '../schema/find-manifest-types';
import { findToolsets } from '../schema/find-toolsets';
import { generateManifest } from '../schema/generate-manifest';

const CORE = resolve(__dirname, '..', '..', '..', 'core', 'src', 'index.ts');

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
  paths: { '@toolsmith/core': [CORE] },
};

// The files outside the temporary projects (core's sources, TypeScript's libraries) are parsed once per test file.
const host = ts.createCompilerHost(OPTIONS, true);
const parsed = new Map<string, ts.SourceFile | undefined>();
const readSourceFile = host.getSourceFile.bind(host);
host.getSourceFile = (fileName, ...rest) => {
  if (fileName.startsWith(tmpdir())) return readSourceFile(fileName, ...rest);
  if (!parsed.has(fileName)) parsed.set(fileName, readSourceFile(fileName, ...rest));
  return parsed.get(fileName);
};

/** A manifest generated in-process from source files written to a new temporary project (paths under its `src/`). */
export interface GeneratedManifest {
  document: ManifestDocument;
  /** The project's directory; the manifest's source paths are relative to it. */
  dir: string;
  /** What the generator warned about. */
  warnings: string[];
}

/**
 * Writes `files` (relative to `src/`) into a new temporary project whose `@toolsmith/core` is this
 * repository's, and generates its manifest as `toolsmith schema` does; a refused source throws the
 * command's `SchemaSourceError`.
 */
export function manifestOf(files: Record<string, string>): GeneratedManifest {
  const dir = mkdtempSync(join(tmpdir(), 'toolsmith-manifest-of-'));
  const rootNames = Object.entries(files).map(([name, text]) => {
    const file = join(dir, 'src', name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  });
  const program = ts.createProgram({ rootNames, options: OPTIONS, host });
  const warnings: string[] = [];
  const document = generateManifest(
    program,
    { toolsets: findToolsets(program), types: findManifestTypes(program) },
    { manifestDir: dir, generator: 'test', warn: (message) => warnings.push(message) },
  );
  return { document, dir, warnings };
}
