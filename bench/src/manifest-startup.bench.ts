import 'reflect-metadata';
import { Param, Tool, Toolset, loadManifest, scanTools } from '@toolsmith/core';
import { MANIFEST_VERSION } from '@toolsmith/core/internal';
import type { ManifestDocument, ManifestMethod } from '@toolsmith/core/internal';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';

/** Result of {@link runManifestStartupBench}: startup times of 500 tools by schema source. */
export interface ManifestStartupResult {
  tools: number;
  /** Median ms to scan every class from `design:paramtypes` and `@Param`, warm process. */
  reflectionMs: number;
  /** Median ms to read and check `toolsmith.schema.json` and scan every class from it, warm process. */
  manifestMs: number;
  /** Whether the TypeScript compiler was loaded in this process (it must not be). */
  typescriptLoaded: boolean;
}

/** The two ways to start, measured by {@link coldStart}. */
export type SchemaSource = 'reflection' | 'manifest';

/** Wall time of `toolsmith schema` over the same 500 tools as TypeScript sources: the work moved to the build. */
export interface SchemaGenerationResult {
  ms: number;
  tools: number;
}

const CLASSES = 50;
const METHODS = 10;
const UNITS = ['celsius', 'fahrenheit'];

// What tsc would emit for `getN(@Param('city') city: string, @Param('days') days: number,
// @Param('unit', { enum }) unit: string)`: parameter decorators plus design:paramtypes.
function reflectedClasses(round: number): Function[] {
  return Array.from({ length: CLASSES }, (_, c) => {
    const cls = namedClass(`ReflectedTools${round}_${c}`);
    for (let m = 0; m < METHODS; m++) {
      const key = defineMethod(cls, `get${m}`);
      Param('city', { description: 'City name' })(cls.prototype, key, 0);
      Param('days', { description: 'How many days' })(cls.prototype, key, 1);
      Param('unit', { enum: UNITS, optional: true })(cls.prototype, key, 2);
      Reflect.defineMetadata('design:paramtypes', [String, Number, String], cls.prototype, key);
      Tool({ description: `Tool ${m}` })(cls.prototype, key, Object.getOwnPropertyDescriptor(cls.prototype, key)!);
    }
    Toolset()(cls);
    return cls;
  });
}

// What esbuild or tsx emit: `@Tool()` only, no parameter decorators, no design metadata.
function manifestClasses(round: number): Function[] {
  return Array.from({ length: CLASSES }, (_, c) => {
    const cls = namedClass(`ManifestTools${round}_${c}`);
    for (let m = 0; m < METHODS; m++) {
      const key = defineMethod(cls, `get${m}`);
      Tool()(cls.prototype, key, Object.getOwnPropertyDescriptor(cls.prototype, key)!);
    }
    Toolset()(cls);
    return cls;
  });
}

function manifestFor(classes: Function[]): ManifestDocument {
  const method: ManifestMethod = {
    description: 'Retrieves the weather.',
    parameters: [
      { name: 'city', index: 0, schema: { type: 'string', description: 'City name' }, optional: false, description: 'City name' },
      { name: 'days', index: 1, schema: { type: 'number', description: 'How many days' }, optional: false, description: 'How many days' },
      { name: 'unit', index: 2, schema: { type: 'string', enum: UNITS }, optional: true },
    ],
  };
  const document: ManifestDocument = { version: MANIFEST_VERSION, generator: 'bench', toolsets: {} };
  for (const cls of classes) {
    const methods: Record<string, ManifestMethod> = {};
    for (let m = 0; m < METHODS; m++) methods[`get${m}`] = method;
    // The source is not deployed (as in production): no hash to compare.
    document.toolsets[cls.name] = { source: `src/${cls.name}.ts`, sourceHash: `sha256:${'0'.repeat(64)}`, methods };
  }
  return document;
}

function namedClass(name: string): { new (): object; prototype: object } {
  const cls = class {};
  Object.defineProperty(cls, 'name', { value: name });
  return cls;
}

function defineMethod(cls: { prototype: object }, key: string): string {
  Object.defineProperty(cls.prototype, key, {
    value: function (city: string, days: number, unit?: string) {
      return { city, days, unit };
    },
    writable: true,
    configurable: true,
  });
  return key;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Startup of 500 tools (50 `@Toolset` classes of 10 tools) from runtime reflection and from a
 * build-time manifest: the manifest path reads a JSON file and never loads the TypeScript compiler.
 * Each round scans fresh classes, since scans are cached per class. Warm: see {@link coldStart}.
 */
export function runManifestStartupBench(rounds = 15): ManifestStartupResult {
  const dir = mkdtempSync(join(tmpdir(), 'toolsmith-bench-'));
  const reflection: number[] = [];
  const manifest: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      // Alternate which path goes first, so neither always pays for the other's warm-up.
      const order = round % 2 === 0 ? [measureManifest, measureReflection] : [measureReflection, measureManifest];
      for (const measure of order) measure(round);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    tools: CLASSES * METHODS,
    reflectionMs: median(reflection),
    manifestMs: median(manifest),
    typescriptLoaded: Object.keys(require.cache).some((path) => /[\\/]node_modules[\\/]typescript[\\/]/.test(path)),
  };

  function measureReflection(round: number): void {
    const classes = reflectedClasses(round);
    collectGarbage();
    const start = performance.now();
    let count = 0;
    for (const cls of classes) count += scanTools(cls, { manifest: null }).length;
    reflection.push(performance.now() - start);
    if (count !== CLASSES * METHODS) throw new Error(`reflection made ${count} tools`);
  }

  function measureManifest(round: number): void {
    const classes = manifestClasses(round);
    const path = join(dir, `toolsmith.schema.${round}.json`);
    writeFileSync(path, JSON.stringify(manifestFor(classes)));
    collectGarbage();
    const start = performance.now();
    const loaded = loadManifest(path, { onMissingMethod: 'error', onStale: 'error' });
    let count = 0;
    for (const cls of classes) count += scanTools(cls, { manifest: loaded }).length;
    manifest.push(performance.now() - start);
    if (count !== CLASSES * METHODS) throw new Error(`the manifest made ${count} tools`);
  }
}

// run-all starts benchmarks with --expose-gc: collect before timing so garbage from setup is not billed.
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * Runs the compiled `toolsmith schema` as a child process over 50 generated toolset files (500 tools):
 * what generating schemas from TypeScript costs, paid at build time instead of at every startup.
 */
export function runSchemaGeneration(): SchemaGenerationResult {
  const dir = mkdtempSync(join(tmpdir(), 'toolsmith-bench-project-'));
  try {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, experimentalDecorators: true, types: [] }, include: ['src'] }));
    for (let c = 0; c < CLASSES; c++) {
      const methods = Array.from(
        { length: METHODS },
        (_, m) => `  /**\n   * Tool ${m}.\n   * @param city City name\n   * @param days How many days\n   */\n  @Tool()\n  get${m}(city: string, days: number, unit: Unit = 'celsius') { return { city, days, unit }; }\n`,
      ).join('\n');
      writeFileSync(
        join(dir, 'src', `tools-${c}.ts`),
        `import { Tool, Toolset } from '@toolsmith/core';\ntype Unit = 'celsius' | 'fahrenheit';\n@Toolset()\nexport class Tools${c} {\n${methods}}\n`,
      );
    }
    const bin = join(dirname(require.resolve('@toolsmith/cli')), 'bin.js');
    const start = performance.now();
    const child = spawnSync(process.execPath, [bin, 'schema', '-q', '--project', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    const ms = performance.now() - start;
    if (child.status !== 0) throw new Error(`toolsmith schema failed: ${child.stderr}`);
    return { ms, tools: CLASSES * METHODS };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One cold start in this process: builds the 500 tools' classes, then times their first scan (and,
 * for the manifest, reading the file), with nothing warmed up. Meant for a fresh process: see {@link main}.
 */
export function coldStart(source: SchemaSource): number {
  const dir = mkdtempSync(join(tmpdir(), 'toolsmith-bench-cold-'));
  try {
    const classes = source === 'reflection' ? reflectedClasses(0) : manifestClasses(0);
    const path = join(dir, 'toolsmith.schema.json');
    if (source === 'manifest') writeFileSync(path, JSON.stringify(manifestFor(classes)));
    collectGarbage();
    const start = performance.now();
    const manifest = source === 'manifest' ? loadManifest(path, { onMissingMethod: 'error', onStale: 'error' }) : null;
    let count = 0;
    for (const cls of classes) count += scanTools(cls, { manifest }).length;
    const ms = performance.now() - start;
    if (count !== CLASSES * METHODS) throw new Error(`${source} made ${count} tools`);
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function coldStartInChild(source: SchemaSource): number {
  const script = `process.stdout.write(String(require(${JSON.stringify(__filename)}).coldStart(${JSON.stringify(source)})))`;
  const child = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`cold start (${source}) failed: ${child.stderr}`);
  return Number(child.stdout);
}

/** Entry point for `run-all`: prints cold (fresh process, median of 5) and warm startup, and the build-time cost. */
export function main(): void {
  const cold = { reflection: [] as number[], manifest: [] as number[] };
  for (let i = 0; i < 5; i++) {
    cold.reflection.push(coldStartInChild('reflection'));
    cold.manifest.push(coldStartInChild('manifest'));
  }
  const warm = runManifestStartupBench();
  if (warm.typescriptLoaded) throw new Error('the manifest path loaded the TypeScript compiler');
  const generation = runSchemaGeneration();
  const row = (label: string, coldMs: number, warmMs: number) =>
    `  ${label.padEnd(46)} cold ${coldMs.toFixed(1).padStart(6)} ms   warm ${warmMs.toFixed(1).padStart(6)} ms`;
  console.log(
    [
      `startup of ${warm.tools} tools (${CLASSES} @Toolset classes x ${METHODS} @Tool methods, 3 parameters each)`,
      row('reflection (design:paramtypes + @Param)', median(cold.reflection), warm.reflectionMs),
      row('manifest (read toolsmith.schema.json + scan)', median(cold.manifest), warm.manifestMs),
      `  TypeScript compiler loaded at runtime: no`,
      `  \`toolsmith schema\` over the same tools as TypeScript sources (build time, once): ${generation.ms.toFixed(0)} ms`,
    ].join('\n'),
  );
}
