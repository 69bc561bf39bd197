import * as core from '@toolsmith/core';
import { MissingTypeMetadataError, type ToolManifest, loadManifest, scanTools, useManifest } from '@toolsmith/core';
import { hashSource } from '@toolsmith/core/internal';
import { invokeTool } from '@toolsmith/core/testing';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as ts from 'typescript';
import { main } from '../main';

const PROJECT = resolve(__dirname, '..', '__fixtures__', 'project');

/**
 * Compiles a fixture file the way esbuild, tsx or Vite would: decorators kept, no
 * `design:paramtypes` (emitDecoratorMetadata off), type-only imports dropped. Returns its exports.
 */
function compileWithoutMetadata(file: string): Record<string, unknown> {
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      experimentalDecorators: true,
      emitDecoratorMetadata: false,
    },
  });
  expect(outputText).not.toContain('design:paramtypes');
  const module = { exports: {} as Record<string, unknown> };
  const load = (id: string): unknown => {
    if (id === '@toolsmith/core') return core;
    throw new Error(`the fixture should import nothing else at runtime, imported ${id}`);
  };
  new Function('require', 'module', 'exports', outputText)(load, module, module.exports);
  return module.exports;
}

describe('a toolset compiled without decorator metadata', () => {
  let manifest: ToolManifest;
  let TripTools: Function;
  let manifestPath: string;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsmith-nometa-'));
    manifestPath = join(dir, 'toolsmith.schema.json');
    const sink = { write: () => undefined };
    const code = await main(['schema', '-q', '--project', join(PROJECT, 'tsconfig.json'), '--out', manifestPath], {
      stdout: sink,
      stderr: sink,
      cwd: dir,
    });
    expect(code).toBe(0);
    manifest = loadManifest(manifestPath, { onStale: 'error', onMissingMethod: 'error' });
    TripTools = compileWithoutMetadata(join(PROJECT, 'src', 'trip-tools.ts')).TripTools as Function;
  });

  it('fails at startup without a manifest, naming the method and the fix', () => {
    expect(() => scanTools(TripTools, { manifest: null })).toThrow(MissingTypeMetadataError);
    expect(() => scanTools(TripTools, { manifest: null })).toThrow(/TripTools\.getWeather.*toolsmith schema/s);
  });

  it('gets full schemas, descriptions and output schemas from the manifest', () => {
    const tools = scanTools(TripTools, { manifest });
    expect(tools.map((tool) => tool.name)).toEqual(['trip_getWeather', 'trip_planRoute', 'trip_listCategories']);
    const [weather, route, categories] = tools;
    expect(weather.description).toBe('Retrieves the current weather report for a city.');
    expect(route.description).toBe('Plans a route (explicit description wins).');
    expect(weather.parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name, e.g. Paris' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius', description: 'Unit of the temperatures' },
        days: { type: 'number', enum: [1, 3, 7], description: 'How many days to forecast' },
      },
      required: ['city'],
      additionalProperties: false,
    });
    expect(weather.responseSchema).toMatchObject({ type: 'object', required: ['city', 'notes', 'temperature', 'unit'] });
    expect(route.parameters.required).toEqual(['stops', 'start', 'departure']);
    expect(categories.parameters.$defs).toHaveProperty('Category');
  });

  it('runs the tools with validated arguments and the context injected where it belongs', async () => {
    useManifest(manifest);
    const ok = await invokeTool(TripTools, 'trip_getWeather', { city: 'Paris', days: 3 });
    expect(ok.isError).toBe(false);
    expect(ok.response).toEqual({ city: 'Paris', temperature: 3, unit: 'celsius', notes: {} });

    const bad = await invokeTool(TripTools, 'trip_getWeather', { city: 'Paris', unit: 'kelvin' });
    expect(bad.isError).toBe(true);
    expect(bad.error?.code).toBe('INVALID_ARGUMENTS');

    // planRoute takes the context first: the arguments must land after it.
    const route = await invokeTool(TripTools, 'trip_planRoute', {
      stops: [{ name: 'A', location: { lat: 1, lon: 2 }, tags: [] }],
      start: { lat: 10, lon: 0 },
      departure: '2026-01-01T10:00:00Z',
    });
    expect(route.response).toEqual({ distanceKm: 11, legs: [] });

    const recursive = await invokeTool(TripTools, 'trip_listCategories', {
      root: { name: 'all', children: [{ name: 'museums', children: [] }] },
    });
    expect(recursive.response).toEqual({ result: [{ name: 'museums', children: [] }] });
    const badRecursive = await invokeTool(TripTools, 'trip_listCategories', { root: { name: 'all', children: [{ name: 1 }] } });
    expect(badRecursive.error?.code).toBe('INVALID_ARGUMENTS');
  });

  it('reports a stale manifest instead of using it', () => {
    const stale = JSON.parse(readFileSync(manifestPath, 'utf8'));
    stale.toolsets.TripTools.sourceHash = hashSource('an older version of the file');
    const stalePath = join(manifestPath, '..', 'stale.json');
    // Keep the source path resolvable from the new location: same directory as the original.
    writeFileSync(stalePath, JSON.stringify(stale));
    const warnings: string[] = [];
    const warned = loadManifest(stalePath, { warn: (message) => warnings.push(message) });
    expect(() => scanTools(TripTools, { manifest: warned })).toThrow(MissingTypeMetadataError);
    expect(warnings[0]).toMatch(/source of toolset TripTools .* changed .*toolsmith schema/);
    expect(() => scanTools(TripTools, { manifest: loadManifest(stalePath, { onStale: 'error' }) })).toThrow(
      expect.objectContaining({ code: 'MANIFEST_STALE' }),
    );
  });
});
