import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManifestError } from '../errors/manifest-errors';
import { type ManifestDocument, manifestParametersSchema } from './manifest-document';
import { hashSource } from './manifest-hash';
import { loadManifest, parseManifest } from './manifest';
import { findManifest, useManifest } from './manifest-registry';

const SOURCE = 'export class WeatherTools {}\n';

function documentFor(source: string, sourceHash = hashSource(SOURCE)): ManifestDocument {
  return {
    version: 1,
    generator: 'test',
    toolsets: {
      WeatherTools: {
        source,
        sourceHash,
        methods: {
          getWeather: {
            description: 'Retrieves the weather.',
            parameters: [
              { name: 'city', index: 0, schema: { type: 'string', description: 'City name' }, optional: false, description: 'City name' },
              { name: 'unit', index: 2, schema: { enum: ['celsius', 'fahrenheit'], type: 'string' }, optional: true },
            ],
            contextIndex: 1,
          },
        },
      },
    },
  };
}

describe('manifest', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolsmith-manifest-'));
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'src', 'weather.ts'), SOURCE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function write(document: unknown, name = 'dist/toolsmith.schema.json'): string {
    const path = join(dir, name);
    writeFileSync(path, typeof document === 'string' ? document : JSON.stringify(document));
    return path;
  }

  it('hashes sources with normalized line endings', () => {
    expect(hashSource('a\r\nb\n')).toBe(hashSource('a\nb\n'));
    expect(hashSource('a')).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(hashSource('a')).not.toBe(hashSource('b'));
  });

  it('returns a fresh method and builds its parameters schema', () => {
    const manifest = loadManifest(write(documentFor('../src/weather.ts')));
    expect(manifest.sourceStatus('WeatherTools')).toBe('fresh');
    const method = manifest.methodFor('WeatherTools', 'getWeather')!;
    expect(method.contextIndex).toBe(1);
    expect(manifestParametersSchema(method)).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        unit: { enum: ['celsius', 'fahrenheit'], type: 'string' },
      },
      required: ['city'],
      additionalProperties: false,
    });
  });

  it('leaves classes it does not know to reflection, silently', () => {
    const warn = jest.fn();
    const manifest = loadManifest(write(documentFor('../src/weather.ts')), { warn });
    expect(manifest.methodFor('OtherTools', 'x')).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
  });

  it('reports a stale source once and does not use it', () => {
    const warn = jest.fn();
    const manifest = loadManifest(write(documentFor('../src/weather.ts', hashSource('old text'))), { warn });
    expect(manifest.methodFor('WeatherTools', 'getWeather')).toBeUndefined();
    expect(manifest.methodFor('WeatherTools', 'getWeather')).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/source of toolset WeatherTools \(\.\.\/src\/weather\.ts\) changed.*toolsmith schema/);
  });

  it('treats a changed base class file as stale too', () => {
    writeFileSync(join(dir, 'src', 'base.ts'), 'export class Base {}\n');
    const document = documentFor('../src/weather.ts');
    document.toolsets.WeatherTools.bases = [{ source: '../src/base.ts', sourceHash: hashSource('export class Base {}\n') }];
    expect(loadManifest(write(document)).sourceStatus('WeatherTools')).toBe('fresh');
    document.toolsets.WeatherTools.bases = [{ source: '../src/base.ts', sourceHash: hashSource('an older base') }];
    expect(loadManifest(write(document), { warn: () => undefined }).sourceStatus('WeatherTools')).toBe('stale');
    // A base file recorded but gone while the class's own file is there was deleted or renamed since.
    document.toolsets.WeatherTools.bases = [{ source: '../src/gone.ts', sourceHash: hashSource('gone') }];
    expect(loadManifest(write(document), { warn: () => undefined }).sourceStatus('WeatherTools')).toBe('stale');
  });

  it('treats a changed file of an imported type as stale too, for toolsets and types (checked once per file)', () => {
    const TYPES = "export type Status = 'open' | 'shipped';\n";
    writeFileSync(join(dir, 'src', 'types.ts'), TYPES);
    const document = documentFor('../src/weather.ts');
    document.toolsets.WeatherTools.dependencies = [{ source: '../src/types.ts', sourceHash: hashSource(TYPES) }];
    const schema = { type: 'object', properties: { status: { enum: ['open', 'shipped'] } } };
    document.types = { Order: { source: '../src/weather.ts', sourceHash: hashSource(SOURCE), dependencies: [{ source: '../src/types.ts', sourceHash: hashSource(TYPES) }], schema } };
    const path = write(document);
    expect(loadManifest(path, { onStale: 'error' }).methodFor('WeatherTools', 'getWeather')).toBeDefined();
    expect(loadManifest(path, { onStale: 'error' }).typeSchema('Order')).toEqual(schema);

    // Only the imported file changed: the toolset's own file is as recorded.
    writeFileSync(join(dir, 'src', 'types.ts'), "export type Status = 'open' | 'cancelled';\n");
    const manifest = loadManifest(path, { onStale: 'error' });
    expect(manifest.sourceStatus('WeatherTools')).toBe('stale');
    expect(() => manifest.methodFor('WeatherTools', 'getWeather')).toThrow(
      expect.objectContaining({ code: 'MANIFEST_STALE', message: expect.stringMatching(/toolset WeatherTools \(\.\.\/src\/types\.ts\) changed/) }),
    );
    expect(() => manifest.typeSchema('Order')).toThrow(
      expect.objectContaining({ code: 'MANIFEST_STALE', message: expect.stringMatching(/type Order \(\.\.\/src\/types\.ts\) changed/) }),
    );
    const warn = jest.fn();
    expect(loadManifest(path, { warn }).methodFor('WeatherTools', 'getWeather')).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    // A recorded dependency that is gone while the toolset's own file is there (deleted or renamed
    // since) is stale, reported by the stale policy; with no file deployed, nothing is compared.
    rmSync(join(dir, 'src', 'types.ts'));
    const gone = loadManifest(path, { onStale: 'error' });
    expect(gone.sourceStatus('WeatherTools')).toBe('stale');
    expect(() => gone.methodFor('WeatherTools', 'getWeather')).toThrow(
      expect.objectContaining({ code: 'MANIFEST_STALE', message: expect.stringContaining('(../src/types.ts: no longer there) changed') }),
    );
    expect(() => gone.typeSchema('Order')).toThrow(expect.objectContaining({ code: 'MANIFEST_STALE', message: expect.stringContaining('../src/types.ts: no longer there') }));
    rmSync(join(dir, 'src', 'weather.ts'));
    expect(loadManifest(path).sourceStatus('WeatherTools')).toBe('unavailable');
    expect(() => parseManifest(JSON.stringify({ ...document, toolsets: { A: { ...document.toolsets.WeatherTools, dependencies: [{ source: 'x' }, 3] } } }), 'm.json')).toThrow(
      /"toolsets\.A\.dependencies\.0\.sourceHash" must be "sha256:" and 64 hex digits; "toolsets\.A\.dependencies\.1" must be an object/,
    );
  });

  it('throws MANIFEST_STALE when told to', () => {
    const manifest = loadManifest(write(documentFor('../src/weather.ts', hashSource('old text'))), { onStale: 'error' });
    expect(() => manifest.methodFor('WeatherTools', 'getWeather')).toThrow(
      expect.objectContaining({ code: 'MANIFEST_STALE', name: 'ManifestError' }),
    );
  });

  it('skips the hash check when the source is not deployed', () => {
    const manifest = loadManifest(write(documentFor('../src/gone.ts', hashSource('whatever'))));
    expect(manifest.sourceStatus('WeatherTools')).toBe('unavailable');
    expect(manifest.methodFor('WeatherTools', 'getWeather')).toBeDefined();
  });

  it('reports a missing method, or throws MANIFEST_METHOD_MISSING', () => {
    const warn = jest.fn();
    const path = write(documentFor('../src/weather.ts'));
    expect(loadManifest(path, { warn }).methodFor('WeatherTools', 'refund')).toBeUndefined();
    expect(warn.mock.calls[0][0]).toMatch(/WeatherTools has no entry for the @Tool method refund/);
    expect(() => loadManifest(path, { onMissingMethod: 'error' }).methodFor('WeatherTools', 'refund')).toThrow(
      expect.objectContaining({ code: 'MANIFEST_METHOD_MISSING' }),
    );
  });

  it('does not treat inherited object keys as classes or methods', () => {
    const warn = jest.fn();
    const manifest = loadManifest(write(documentFor('../src/weather.ts')), { warn });
    expect(manifest.methodFor('constructor', 'toString')).toBeUndefined();
    expect(manifest.methodFor('WeatherTools', 'toString')).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('rejects files that are missing, not JSON, or not a manifest', () => {
    expect(() => loadManifest(join(dir, 'nope.json'))).toThrow(expect.objectContaining({ code: 'MANIFEST_INVALID' }));
    expect(() => loadManifest(write('{ not json'))).toThrow(/is not valid JSON/);
    const wrongVersion = { ...documentFor('x'), version: 2 };
    expect(() => loadManifest(write(wrongVersion))).toThrow(ManifestError);
    expect(() => parseManifest(JSON.stringify({ version: 1, generator: 'x', toolsets: { A: { source: 'a.ts' } } }), 'm.json')).toThrow(
      /"toolsets\.A\.sourceHash" must be "sha256:" and 64 hex digits; "toolsets\.A\.methods" must be an object/,
    );
  });

  it('names every problem of a malformed method entry', () => {
    const document = documentFor('x') as unknown as { toolsets: { WeatherTools: { methods: Record<string, unknown> } } };
    document.toolsets.WeatherTools.methods.bad = {
      contextIndex: -1,
      outputSchema: 'no',
      parameters: [{ name: '', index: 1.5, schema: 3, optional: 'yes', revive: 'regexp' }, 'x'],
    };
    let message = '';
    try {
      parseManifest(JSON.stringify(document), 'm.json');
    } catch (error) {
      message = (error as Error).message;
    }
    const where = '"toolsets.WeatherTools.methods.bad';
    for (const expected of [
      `${where}.contextIndex" must be an integer >= 0`,
      `${where}.outputSchema" must be a JSON Schema`,
      `${where}.parameters.0.name" must be a non-empty string`,
      `${where}.parameters.0.index" must be an integer >= 0`,
      `${where}.parameters.0.schema" must be a JSON Schema`,
      `${where}.parameters.0.optional" must be a boolean`,
      `${where}.parameters.0.revive" must be "date"`,
      `${where}.parameters.1" must be an object`,
    ]) {
      expect(message).toContain(expected);
    }
    expect(() => parseManifest('[]', 'm.json')).toThrow(/the document must be an object/);
  });

  it('names every problem of a malformed types section, and reads a good one', () => {
    const types = { Bad: { source: '', sourceHash: 'md5:1', schema: 'no' }, Worse: 3 };
    expect(() => parseManifest(JSON.stringify({ ...documentFor('x'), types }), 'm.json')).toThrow(
      /"types\.Bad\.source" must be a non-empty string; "types\.Bad\.sourceHash" must be "sha256:" and 64 hex digits; "types\.Bad\.schema" must be a JSON Schema; "types\.Worse" must be an object/,
    );
    expect(() => parseManifest(JSON.stringify({ ...documentFor('x'), types: [] }), 'm.json')).toThrow(/"types" must be an object/);
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    const manifest = loadManifest(write({ ...documentFor('../src/weather.ts'), types: { Place: { source: '../src/weather.ts', sourceHash: hashSource(SOURCE), schema } } }));
    expect(manifest.typeSchema('Place')).toEqual(schema);
    // Inherited object keys are not types.
    expect(() => manifest.typeSchema('constructor')).toThrow(expect.objectContaining({ code: 'MANIFEST_TYPE_MISSING' }));
  });

  it('checks a method\'s schemas when it is first used: MANIFEST_INVALID, not a failure at every call', () => {
    const document = documentFor('../src/weather.ts');
    const { getWeather } = document.toolsets.WeatherTools.methods;
    getWeather.parameters[0].schema = { type: 'strin' };
    expect(() => loadManifest(write(document)).methodFor('WeatherTools', 'getWeather')).toThrow(
      expect.objectContaining({ code: 'MANIFEST_INVALID', message: expect.stringMatching(/parameters schema of WeatherTools\.getWeather .*properties\/city\/type/) }),
    );
    // A tuple written the draft-07 way (`items: [...]`) is not draft 2020-12.
    getWeather.parameters[0].schema = { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } as never;
    expect(() => loadManifest(write(document)).methodFor('WeatherTools', 'getWeather')).toThrow(expect.objectContaining({ code: 'MANIFEST_INVALID' }));
    getWeather.parameters[0].schema = { type: 'string' };
    getWeather.outputSchema = { type: 'object', properties: { high: { type: 'numbr' } } };
    expect(() => loadManifest(write(document)).methodFor('WeatherTools', 'getWeather')).toThrow(/output schema of WeatherTools\.getWeather/);
    delete getWeather.outputSchema;
    expect(loadManifest(write(document)).methodFor('WeatherTools', 'getWeather')).toBeDefined();
    const types = { Place: { source: '../src/weather.ts', sourceHash: hashSource(SOURCE), schema: { type: 'object', properties: { city: { type: 7 } } } } };
    expect(() => loadManifest(write({ ...document, types })).typeSchema('Place')).toThrow(expect.objectContaining({ code: 'MANIFEST_INVALID', message: expect.stringMatching(/type Place/) }));
  });

  it('finds the manifest next to the compiled code, up to the package root', () => {
    writeFileSync(join(dir, 'package.json'), '{}');
    mkdirSync(join(dir, 'dist', 'tools'));
    expect(findManifest(join(dir, 'dist', 'tools'))).toBeUndefined();
    const atRoot = write(documentFor('src/weather.ts'), 'toolsmith.schema.json');
    expect(findManifest(join(dir, 'dist', 'tools'))).toBe(atRoot);
    const inDist = write(documentFor('../src/weather.ts'));
    expect(findManifest(join(dir, 'dist', 'tools'))).toBe(inDist);
  });

  it('useManifest loads a path and can clear the default', () => {
    const manifest = useManifest(write(documentFor('../src/weather.ts')));
    expect(manifest?.toolset('WeatherTools')?.source).toBe('../src/weather.ts');
    expect(useManifest(null)).toBeNull();
  });

  it('refuses a new default manifest once a class was scanned with the old one (its schemas would be kept)', () => {
    const path = write(documentFor('../src/weather.ts'));
    // A fresh module registry: this file's other tests must not have scanned anything yet.
    jest.isolateModules(() => {
      const { Tool } = jest.requireActual<typeof import('../tools/tool')>('../tools/tool');
      const { Param } = jest.requireActual<typeof import('../decorators/param.decorator')>('../decorators/param.decorator');
      const { scanTools } = jest.requireActual<typeof import('./tool-scanner')>('./tool-scanner');
      const registry = jest.requireActual<typeof import('./manifest-registry')>('./manifest-registry');
      class EchoTools {
        echo(text: string) {
          return { text };
        }
      }
      Param('text', { schema: { type: 'string' } })(EchoTools.prototype, 'echo', 0);
      Tool()(EchoTools.prototype, 'echo', Object.getOwnPropertyDescriptor(EchoTools.prototype, 'echo')!);
      registry.useManifest(null);
      expect(registry.useManifest(null)).toBeNull(); // the same default again is fine
      scanTools(EchoTools);
      expect(() => registry.useManifest(path)).toThrow(expect.objectContaining({ code: 'MANIFEST_SET_AFTER_SCAN' }));
      expect(() => registry.useManifest(path)).toThrow(/before the first Runner, createClassTools or scanTools call/);
      expect(registry.useManifest(null)).toBeNull();
    });
  });
});
