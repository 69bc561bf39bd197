import { loadManifest } from '@toolsmith/core';
import { hashSource } from '@toolsmith/core/internal';
import type { ManifestDocument, ManifestParameter } from '@toolsmith/core/internal';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../main';
import type { CliIo } from '../cli-io';

const FIXTURE = resolve(__dirname, '..', '__fixtures__', 'project');
const CLI_ROOT = resolve(__dirname, '..', '..');

function collector(isTTY = false): { text: () => string; write: (chunk: string) => void; isTTY: boolean } {
  let text = '';
  return { text: () => text, write: (chunk: string) => void (text += chunk), isTTY };
}

async function run(argv: string[], cwd = FIXTURE): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = collector();
  const stderr = collector();
  const io: CliIo = { stdout, stderr, cwd };
  const code = await main(argv, io);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

function param(document: ManifestDocument, method: string, name: string): ManifestParameter {
  const found = document.toolsets.TripTools.methods[method].parameters.find((p) => p.name === name);
  if (!found) throw new Error(`no parameter ${name}`);
  return found;
}

describe('toolsmith schema', () => {
  let out: string;
  let document: ManifestDocument;
  let firstRun: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    out = join(mkdtempSync(join(tmpdir(), 'toolsmith-schema-')), 'toolsmith.schema.json');
    // The fixture's sources are one level below the manifest's directory in the real layout; here the
    // manifest sits elsewhere, which also exercises relative source paths.
    firstRun = await run(['schema', '--out', out]);
    document = JSON.parse(readFileSync(out, 'utf8')) as ManifestDocument;
  });

  it('writes a manifest keyed by class and method, with the source and its hash', () => {
    expect(firstRun.code).toBe(0);
    expect(document.version).toBe(1);
    expect(Object.keys(document.toolsets)).toEqual(['AgreementTools', 'ArchiveTools', 'TripTools']);
    const toolset = document.toolsets.TripTools;
    expect(Object.keys(toolset.methods)).toEqual(['getWeather', 'planRoute', 'listCategories']);
    expect(resolve(join(out, '..'), toolset.source)).toBe(join(FIXTURE, 'src', 'trip-tools.ts'));
    expect(toolset.sourceHash).toBe(hashSource(readFileSync(join(FIXTURE, 'src', 'trip-tools.ts'), 'utf8')));
    // The written file is a valid manifest for the runtime loader.
    expect(loadManifest(out).sourceStatus('TripTools')).toBe('fresh');
  });

  it('lists inherited @Tool methods under the subclass, and tracks the base class file', () => {
    const archive = document.toolsets.ArchiveTools;
    // `purge` is overridden without @Tool, which hides the base tool (the runtime scanner does the same).
    expect(Object.keys(archive.methods)).toEqual(['archive', 'auditLog']);
    expect(archive.methods.auditLog).toMatchObject({
      description: 'Lists recent audit entries.',
      parameters: [{ name: 'limit', optional: true, schema: { type: 'number', default: 10, description: 'How many entries' } }],
      outputSchema: { type: 'array', items: { type: 'string' } },
    });
    expect(archive.bases).toEqual([
      { source: expect.stringMatching(/src\/base-tools\.ts$/), sourceHash: hashSource(readFileSync(join(FIXTURE, 'src', 'base-tools.ts'), 'utf8')) },
    ]);
    expect(document.toolsets.TripTools.bases).toBeUndefined();
  });

  it('records what startup checks to know the class is the one described: Function.length and parameter count', () => {
    // getWeather(city, unit = 'celsius', days?, ctx?): compiled for ES2022, the default stops Function.length.
    expect(document.toolsets.TripTools.methods.getWeather).toMatchObject({ length: 1, parameterCount: 4 });
    expect(document.toolsets.ArchiveTools.methods.auditLog).toMatchObject({ length: 0, parameterCount: 1 });
  });

  it('shows progress while building the program', () => {
    expect(firstRun.stderr).toMatch(/Building the TypeScript program of .*tsconfig\.json \(5 source files\)…/);
    expect(firstRun.stderr).toMatch(/\d+ files read/);
    expect(firstRun.stderr).toMatch(/7 tools in 3 toolsets/);
  });

  it('uses the JSDoc summary as description, and @param tags for parameters', () => {
    const getWeather = document.toolsets.TripTools.methods.getWeather;
    expect(getWeather.description).toBe('Retrieves the current weather report for a city.');
    expect(param(document, 'getWeather', 'city')).toEqual({
      name: 'city',
      index: 0,
      schema: { type: 'string', description: 'City name, e.g. Paris' },
      optional: false,
      description: 'City name, e.g. Paris',
    });
  });

  it('turns literal unions into enums and marks ? and defaults optional', () => {
    expect(param(document, 'getWeather', 'unit')).toEqual({
      name: 'unit',
      index: 1,
      schema: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius', description: 'Unit of the temperatures' },
      optional: true,
      description: 'Unit of the temperatures',
    });
    expect(param(document, 'getWeather', 'days').schema).toEqual({
      type: 'number',
      enum: [1, 3, 7],
      description: 'How many days to forecast',
    });
    expect(param(document, 'getWeather', 'days').optional).toBe(true);
    expect(param(document, 'planRoute', 'avoidTolls')).toMatchObject({ optional: true, schema: { type: 'boolean', default: false } });
  });

  it('leaves the ToolContext parameter out and records where it goes', () => {
    const { getWeather, planRoute } = document.toolsets.TripTools.methods;
    expect(getWeather.contextIndex).toBe(3);
    expect(getWeather.parameters.map((p) => p.name)).toEqual(['city', 'unit', 'days']);
    expect(planRoute.contextIndex).toBe(0);
    expect(planRoute.parameters.map((p) => [p.name, p.index])).toEqual([
      ['stops', 1],
      ['start', 2],
      ['departure', 3],
      ['avoidTolls', 4],
      ['budget', 5],
    ]);
  });

  it('expands arrays, nested interfaces, type aliases and Date', () => {
    const geoPoint = {
      description: 'A point on the map.',
      type: 'object',
      properties: {
        lat: { description: 'Latitude in degrees.', type: 'number' },
        lon: { description: 'Longitude in degrees.', type: 'number' },
      },
      required: ['lat', 'lon'],
      additionalProperties: false,
    };
    expect(param(document, 'planRoute', 'stops').schema).toEqual({
      type: 'array',
      description: 'The stops, in order',
      items: {
        description: 'A stop on a trip.',
        type: 'object',
        properties: {
          name: { type: 'string' },
          location: geoPoint,
          arrival: { description: 'When the traveller arrives.', type: 'string', format: 'date-time' },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['location', 'name', 'tags'],
        additionalProperties: false,
      },
    });
    expect(param(document, 'planRoute', 'start').schema).toEqual({ ...geoPoint, description: 'Where the trip begins' });
    expect(param(document, 'planRoute', 'departure')).toMatchObject({
      schema: { type: 'string', format: 'date-time', description: 'When to leave' },
      revive: 'date',
    });
    expect(param(document, 'planRoute', 'start').revive).toBeUndefined();
  });

  it('writes Record<string, T> as additionalProperties, at the top and nested', () => {
    expect(param(document, 'planRoute', 'budget').schema).toEqual({
      type: 'object',
      additionalProperties: { type: 'number' },
      description: 'Spending limit per category',
    });
    const output = document.toolsets.TripTools.methods.getWeather.outputSchema as { properties: Record<string, unknown> };
    expect(output.properties.notes).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Free-form notes keyed by source.',
    });
  });

  it('writes the awaited return type as the output schema', () => {
    const { getWeather, planRoute } = document.toolsets.TripTools.methods;
    expect(getWeather.outputSchema).toMatchObject({
      description: 'A weather report.',
      type: 'object',
      required: ['city', 'notes', 'temperature', 'unit'],
      properties: { unit: { enum: ['celsius', 'fahrenheit'], type: 'string' } },
    });
    expect(planRoute.outputSchema).toEqual({
      type: 'object',
      properties: {
        distanceKm: { type: 'number' },
        legs: {
          type: 'array',
          items: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } }, required: ['from', 'to'] },
        },
      },
      required: ['distanceKm', 'legs'],
    });
  });

  it('keeps recursive types as $refs into $defs', () => {
    const method = document.toolsets.TripTools.methods.listCategories;
    expect(method.parameters[0].schema).toEqual({
      $ref: '#/$defs/Category',
      description: 'A category tree: recursive, so it stays a `$ref` into `$defs`.',
    });
    expect(method.$defs?.Category).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Category' } } },
    });
  });

  it('--check passes on a fresh manifest and fails, saying what changed, on a stale one', async () => {
    expect(await run(['schema', '--out', out, '--check', '-q'])).toMatchObject({ code: 0, stderr: expect.stringMatching(/is up to date/) });

    const stale = JSON.parse(readFileSync(out, 'utf8')) as ManifestDocument;
    stale.toolsets.TripTools.sourceHash = hashSource('older source');
    delete (stale.toolsets.TripTools.methods as Record<string, unknown>).listCategories;
    stale.toolsets.TripTools.methods.getWeather.parameters[0].schema = { type: 'number' };
    const stalePath = join(out, '..', 'stale.json');
    writeFileSync(stalePath, JSON.stringify(stale));
    const result = await run(['schema', '--out', stalePath, '--check', '-q']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the source of toolset TripTools (');
    expect(result.stderr).toContain('TripTools.listCategories is not in the manifest');
    expect(result.stderr).toContain('the schemas of TripTools.getWeather changed');
    expect(result.stderr).toContain('Run `toolsmith schema` to update it.');

    const missing = await run(['schema', '--out', join(out, '..', 'missing.json'), '--check', '-q']);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/does not exist/) });
    writeFileSync(stalePath, '{"version": 7}');
    expect((await run(['schema', '--out', stalePath, '--check', '-q'])).code).toBe(1);
  });

  it('--out into a directory that does not exist yet creates it', async () => {
    const target = join(out, '..', 'new', 'nested', 'tools.json');
    const result = await run(['schema', '--quiet', '--out', target]);
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toMatchObject({ version: 1 });
  });

  it('--print shows tools under their final names, as a person reads them, and writes nothing', async () => {
    const target = join(out, '..', 'printed.json');
    const result = await run(['schema', '--print', '--quiet', '--out', target]);
    expect(result.code).toBe(0);
    expect(existsSync(target)).toBe(false);
    expect(result.stdout).toContain('TripTools  (');
    expect(result.stdout).toContain('  trip_getWeather — Retrieves the current weather report for a city.');
    expect(result.stdout).toContain('    unit?: "celsius" | "fahrenheit" = "celsius" — Unit of the temperatures');
    expect(result.stdout).toContain('  trip_planRoute — Plans a route (explicit description wins).');
    expect(result.stdout).toContain('    budget?: Record<string, number> — Spending limit per category');
    expect(result.stdout).toContain('    stops: { name: string; location: { lat: number; lon: number }; arrival?: Date (date-time string); tags: string[] }[]');
    expect(result.stdout).toContain('    returns Category[]');
  });

  it('reports bad usage and missing projects with exit code 2', async () => {
    expect(await run(['schema', '--bogus'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown option --bogus.*\[CLI_USAGE\]/s) });
    expect(await run(['schema', '--out'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--out needs a value/) });
    expect(await run(['schema'], tmpdir())).toMatchObject({ code: 2, stderr: expect.stringMatching(/No TypeScript project at .*--project/) });
    expect(await run(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown command frobnicate/) });
    expect(await run(['schema', '--help'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/--check/) });
  });

  describe('on sources it cannot describe', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'toolsmith-bad-'));
      mkdirSync(join(dir, 'src'));
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { strict: true, experimentalDecorators: true, types: [] }, include: ['src'] }),
      );
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    // Here '@toolsmith/core' does not resolve: decorators are still recognised by name.
    const toolset = (method: string): string =>
      `import { Tool, Toolset } from '@toolsmith/core';\n@Toolset()\nexport class BadTools {\n  @Tool()\n  ${method}\n}\n`;

    it.each([
      ['any', 'find(query: any) { return query; }', /BadTools\.find\).*parameter query has type any.*give it a type/],
      ['destructuring', 'find({ a }: { a: string }) { return a; }', /destructured parameter.*use a named parameter/],
      ['rest parameters', 'find(...ids: string[]) { return ids; }', /rest parameter \.\.\.ids.*use an array parameter/],
    ])('rejects %s with the place and the fix', async (_name, method, message) => {
      writeFileSync(join(dir, 'src', 'bad.ts'), toolset(method));
      const result = await run(['schema', '-q'], dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain('[SCHEMA_SOURCE_UNSUPPORTED]');
      expect(result.stderr).toContain(join(dir, 'src', 'bad.ts'));
    });

    it('rejects two toolsets with the same class name', async () => {
      writeFileSync(join(dir, 'src', 'a.ts'), toolset('a() {}'));
      writeFileSync(join(dir, 'src', 'b.ts'), toolset('b() {}'));
      const result = await run(['schema', '-q'], dir);
      expect(result).toMatchObject({ code: 2, stderr: expect.stringMatching(/Two @Toolset classes are named BadTools.*rename one/) });
    });

    it('prefers a literal @Param description, and keeps results free of literal "defaults"', async () => {
      writeFileSync(
        join(dir, 'src', 'ok.ts'),
        toolset(
          `/**\n   * Says ok.\n   * @param name From JSDoc\n   */\n  ok(@Param('who', { description: 'From @Param' }) name: string, @Param('loud', { optional: true }) loud: boolean) { return { status: 'ok', name, loud }; }`,
        ).replace("import { Tool, Toolset }", "import { Param, Tool, Toolset }"),
      );
      const result = await run(['schema'], dir);
      expect(result.code).toBe(0);
      expect(result.stderr).not.toMatch(/initializer/);
      const written = JSON.parse(readFileSync(join(dir, 'toolsmith.schema.json'), 'utf8')) as ManifestDocument;
      const ok = written.toolsets.BadTools.methods.ok;
      expect(ok.parameters).toEqual([
        { name: 'who', index: 0, schema: { type: 'string', description: 'From @Param' }, optional: false, description: 'From @Param' },
        { name: 'loud', index: 1, schema: { type: 'boolean' }, optional: true },
      ]);
      expect(ok.outputSchema).toEqual({
        type: 'object',
        properties: { status: { type: 'string' }, name: { type: 'string' }, loud: { type: 'boolean' } },
        required: ['loud', 'name', 'status'],
      });
    });

    it('warns when the project has no toolsets, and writes an empty manifest', async () => {
      writeFileSync(join(dir, 'src', 'plain.ts'), 'export const x = 1;\n');
      const result = await run(['schema', '-q'], dir);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/warning: no @Toolset class or manifestType call found/);
      expect(JSON.parse(readFileSync(join(dir, 'toolsmith.schema.json'), 'utf8')).toolsets).toEqual({});
    });

    it('reports a broken tsconfig', async () => {
      writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": { "target": "nope" }, "include": ["src"] }');
      writeFileSync(join(dir, 'src', 'a.ts'), toolset('a() {}'));
      const result = await run(['schema', '-q'], dir);
      expect(result).toMatchObject({ code: 2, stderr: expect.stringMatching(/Cannot load .*tsconfig\.json.*\[PROJECT_LOAD_FAILED\]/s) });
    });
  });

  it('runs from the compiled dist as a real process', () => {
    const bin = join(CLI_ROOT, 'dist', 'bin.js');
    // The compiled CLI must be current: build it (incremental, quick when `npm test` already built it).
    // Errors elsewhere in the tree do not stop tsc from emitting, so only the result is checked.
    spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', CLI_ROOT], { stdio: 'ignore' });
    expect(existsSync(bin)).toBe(true);
    const target = join(out, '..', 'from-process.json');
    execFileSync(process.execPath, [bin, 'schema', '--project', join(FIXTURE, 'tsconfig.json'), '--out', target, '-q'], { stdio: 'pipe' });
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({ ...document, generator: expect.any(String) });
    const check = spawnSync(process.execPath, [bin, 'schema', '-p', join(FIXTURE, 'tsconfig.json'), '--out', join(out, '..', 'none.json'), '--check', '-q']);
    expect(check.status).toBe(1);
    expect(check.stderr.toString()).toMatch(/does not exist/);
  }, 90_000);
});
