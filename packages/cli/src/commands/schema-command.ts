import { ManifestError } from '@toolsmith/core';
import { MANIFEST_FILE_NAME, parseManifest } from '@toolsmith/core/internal';
import type { ManifestDependencies, ManifestDocument } from '@toolsmith/core/internal';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { CliUsageError } from '../cli-errors';
import type { CliIo } from '../cli-io';
import { Progress } from '../progress';
import { compiledDtoSchemas } from '../schema/compiled-dto-schemas';
import { createProgram } from '../schema/create-program';
import { type Drift, findDrift } from '../schema/find-drift';
import { findManifestTypes } from '../schema/find-manifest-types';
import { findToolsets } from '../schema/find-toolsets';
import { generateManifest } from '../schema/generate-manifest';
import { printManifest } from '../schema/print-manifest';
import { CLI_VERSION } from '../version';

/** Usage text of `toolsmith schema`. */
export const SCHEMA_USAGE = `Usage: toolsmith schema [--project tsconfig.json] [--out ${MANIFEST_FILE_NAME}] [--check] [--print] [--quiet]

Reads every @Tool method of every @Toolset class in the project and writes the build-time schema
manifest that the scanner uses at startup (explicit schemas beat the manifest, which beats reflection).

  --project, -p  tsconfig.json of the project (default: ./tsconfig.json)
  --out, -o      manifest file (default: ${MANIFEST_FILE_NAME} beside the tsconfig)
  --check        write nothing; exit 1 when the manifest is missing or stale, or when a type and its
                 decorators or schema disagree (drift that reflection cannot see) (for CI)
  --print        write nothing; show the tools and what the model gets (a DTO tool: from its compiled class)
  --quiet, -q    no progress output
`;

/** Options of `toolsmith schema`, parsed from the command line. */
export interface SchemaCommandOptions {
  /** `--project`: the tsconfig.json of the project, relative to the working directory; default `tsconfig.json`. */
  project: string;
  /** `--out`: the manifest file, relative to the working directory; absent writes `toolsmith.schema.json` beside the tsconfig. */
  out?: string;
  /** `--check`: write nothing, compare with the file on disk and exit 1 when it is missing or stale, or when drift is found (for CI). */
  check: boolean;
  /** `--print`: write nothing and show the tools and what the model gets, on stdout. */
  print: boolean;
  /** `--quiet`: no progress output on stderr (warnings and the summary still appear). */
  quiet: boolean;
}

import { EXIT_ERROR, EXIT_OK, EXIT_STALE } from '../exit-codes';

export { EXIT_ERROR, EXIT_OK, EXIT_STALE };

/** Parses `toolsmith schema`'s flags; throws {@link CliUsageError} on unknown or incomplete ones. */
export function parseSchemaArgs(argv: readonly string[]): SchemaCommandOptions {
  const options: SchemaCommandOptions = { project: 'tsconfig.json', check: false, print: false, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? splitOnce(argv[i]) : [argv[i], undefined];
    const value = (): string => {
      const found = inline ?? argv[++i];
      if (found === undefined || found === '') throw new CliUsageError(`${flag} needs a value.\n\n${SCHEMA_USAGE}`);
      return found;
    };
    switch (flag) {
      case '--project':
      case '-p':
        options.project = value();
        break;
      case '--out':
      case '-o':
        options.out = value();
        break;
      case '--check':
        options.check = true;
        break;
      case '--print':
        options.print = true;
        break;
      case '--quiet':
      case '-q':
        options.quiet = true;
        break;
      default:
        throw new CliUsageError(`Unknown option ${argv[i]} for toolsmith schema.\n\n${SCHEMA_USAGE}`);
    }
  }
  return options;
}

/**
 * Runs `toolsmith schema`: builds the project's TypeScript program, generates the manifest, and writes
 * it (default), compares it with the file on disk (`--check`), or shows it (`--print`). Returns the exit
 * code; problems with the project are thrown as Toolsmith errors for {@link main} to report.
 */
export function runSchemaCommand(options: SchemaCommandOptions, io: CliIo): number {
  const tsconfigPath = resolve(io.cwd, options.project);
  if (!existsSync(tsconfigPath)) {
    throw new CliUsageError(`No TypeScript project at ${tsconfigPath}. Pass one with --project <tsconfig.json>.`);
  }
  const outPath = resolve(options.out === undefined ? dirname(tsconfigPath) : io.cwd, options.out ?? MANIFEST_FILE_NAME);
  const progress = new Progress(options.quiet ? { write: () => undefined } : io.stderr);

  const program = createProgram(tsconfigPath, progress);
  progress.step('Reading @Toolset classes and manifestType calls, and generating schemas');
  const toolsets = findToolsets(program);
  const types = findManifestTypes(program);
  const document = generateManifest(program, { toolsets, types }, {
    manifestDir: dirname(outPath),
    generator: `@toolsmith/cli ${CLI_VERSION}`,
    warn: (message) => io.stderr.write(`warning: ${message}\n`),
  });
  const toolCount = toolsets.reduce((sum, toolset) => sum + toolset.tools.length, 0);
  const typeCount = Object.keys(document.types ?? {}).length;
  const summary = `${toolCount} tools in ${toolsets.length} toolsets${typeCount > 0 ? `, ${typeCount} ${typeCount === 1 ? 'type' : 'types'}` : ''}`;
  progress.done(summary);
  if (toolsets.length === 0 && typeCount === 0) {
    io.stderr.write(`warning: no @Toolset class or manifestType call found in the sources of ${tsconfigPath}; check its "include".\n`);
  }

  if (options.print) io.stdout.write(printManifest(document, toolsets, compiledDtoSchemas(program, toolsets, { document, path: outPath })));
  const shownPath = relative(io.cwd, outPath) || outPath;
  if (options.check) {
    const manifestCode = checkManifest(outPath, shownPath, document, io);
    const driftCode = reportDrift(findDrift(program, toolsets, document), io);
    return manifestCode !== EXIT_OK ? manifestCode : driftCode;
  }
  if (options.print) return EXIT_OK;

  const text = `${JSON.stringify(document, null, 2)}\n`;
  // Unchanged content is not rewritten, so build tools watching the file see no change.
  if (!existsSync(outPath) || readFileSync(outPath, 'utf8') !== text) {
    mkdirSync(dirname(outPath), { recursive: true }); // `--out build/schema/tools.json` into a new directory
    writeFileSync(outPath, text);
  }
  io.stderr.write(`Wrote ${shownPath}: ${summary}.\n`);
  return EXIT_OK;
}

function checkManifest(outPath: string, shownPath: string, generated: ManifestDocument, io: CliIo): number {
  if (!existsSync(outPath)) {
    io.stderr.write(`${shownPath} does not exist. Run \`toolsmith schema\` and commit it.\n`);
    return EXIT_STALE;
  }
  let existing: ManifestDocument;
  try {
    existing = parseManifest(readFileSync(outPath, 'utf8'), outPath);
  } catch (error) {
    if (!ManifestError.isInstance(error)) throw error;
    io.stderr.write(`${error.message}\n`);
    return EXIT_STALE;
  }
  const differences = diffManifests(existing, generated);
  if (differences.length === 0) {
    io.stderr.write(`${shownPath} is up to date.\n`);
    return EXIT_OK;
  }
  io.stderr.write(`${shownPath} is stale:\n${differences.map((line) => `  - ${line}\n`).join('')}Run \`toolsmith schema\` to update it.\n`);
  return EXIT_STALE;
}

/** Writes one entry per drift (place relative to the working directory, problem, fix) on stderr; `EXIT_STALE` when there is any. */
function reportDrift(drifts: readonly Drift[], io: CliIo): number {
  if (drifts.length === 0) return EXIT_OK;
  const count = drifts.length === 1 ? '1 place where' : `${drifts.length} places where`;
  io.stderr.write(
    `${count} a type and what the runtime is told about it disagree:\n` +
      drifts.map((drift) => `  - ${relative(io.cwd, drift.at)}: ${drift.problem}.\n    Fix: ${drift.fix}.\n`).join(''),
  );
  return EXIT_STALE;
}

/** What differs between a manifest on disk and a freshly generated one, one line per difference. */
export function diffManifests(existing: ManifestDocument, generated: ManifestDocument): string[] {
  const lines: string[] = [];
  const names = new Set([...Object.keys(existing.toolsets), ...Object.keys(generated.toolsets)]);
  for (const name of [...names].sort()) {
    const before = existing.toolsets[name];
    const after = generated.toolsets[name];
    if (!before) lines.push(`toolset ${name} is not in the manifest`);
    else if (!after) lines.push(`toolset ${name} is no longer in the project`);
    else {
      if (before.source !== after.source) lines.push(`toolset ${name} moved from ${before.source} to ${after.source}`);
      else if (before.sourceHash !== after.sourceHash) lines.push(`the source of toolset ${name} (${after.source}) changed`);
      if (JSON.stringify(before.bases ?? []) !== JSON.stringify(after.bases ?? [])) {
        lines.push(`the base classes of toolset ${name} (${(after.bases ?? []).map((base) => base.source).join(', ') || 'none'}) changed`);
      }
      const dependencies = changedDependencies(before, after);
      if (dependencies) lines.push(`the files toolset ${name}'s schemas were built from (${dependencies}) changed`);
      const methods = new Set([...Object.keys(before.methods), ...Object.keys(after.methods)]);
      for (const method of [...methods].sort()) {
        if (!before.methods[method]) lines.push(`${name}.${method} is not in the manifest`);
        else if (!after.methods[method]) lines.push(`${name}.${method} is no longer a @Tool method`);
        else if (JSON.stringify(before.methods[method]) !== JSON.stringify(after.methods[method])) {
          lines.push(`the schemas of ${name}.${method} changed`);
        }
      }
    }
  }
  const typeNames = new Set([...Object.keys(existing.types ?? {}), ...Object.keys(generated.types ?? {})]);
  for (const name of [...typeNames].sort()) {
    const before = existing.types?.[name];
    const after = generated.types?.[name];
    if (!before) lines.push(`type ${name} is not in the manifest`);
    else if (!after) lines.push(`type ${name} is no longer named by a manifestType call`);
    else if (before.source !== after.source) lines.push(`type ${name} moved from ${before.source} to ${after.source}`);
    else if (JSON.stringify(before.schema) !== JSON.stringify(after.schema)) lines.push(`the schema of type ${name} changed`);
    else if (before.sourceHash !== after.sourceHash) lines.push(`the source of type ${name} (${after.source}) changed`);
    else if (changedDependencies(before, after)) lines.push(`the files type ${name}'s schema was built from (${changedDependencies(before, after)}) changed`);
  }
  return lines;
}

/** The imported files (see `ManifestDependencies`) that were added, removed or changed, or `''` when none. */
function changedDependencies(before: ManifestDependencies, after: ManifestDependencies): string {
  const recorded = new Map((before.dependencies ?? []).map((file) => [file.source, file.sourceHash]));
  const now = new Map((after.dependencies ?? []).map((file) => [file.source, file.sourceHash]));
  const sources = new Set([...recorded.keys(), ...now.keys()]);
  return [...sources].filter((source) => recorded.get(source) !== now.get(source)).sort().join(', ');
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
}
