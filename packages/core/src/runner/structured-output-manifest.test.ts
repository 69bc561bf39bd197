import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LlmAgent } from '../agents/llm-agent';
import { ManifestError } from '../errors/manifest-errors';
import type { JsonSchema } from '../model/json-schema';
import { loadManifest } from '../scanning/manifest';
import type { ManifestDocument } from '../scanning/manifest-document';
import { hashSource } from '../scanning/manifest-hash';
import { useManifest } from '../scanning/manifest-registry';
import { manifestType } from '../scanning/manifest-type';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { collect } from './__fixtures__/test-tools';
import { Runner } from './runner';

/** The type `toolsmith schema` found at a `manifestType<Forecast>('Forecast')` call. */
interface Forecast {
  city: string;
  celsius: number;
  sky: 'clear' | 'cloudy' | 'rain';
}

const SOURCE = "export interface Forecast { city: string; celsius: number; sky: 'clear' | 'cloudy' | 'rain' }\n";

// The schema `toolsmith schema` writes for Forecast (packages/cli/src/commands/schema-types.test.ts generates one from source).
const FORECAST: JsonSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' }, sky: { enum: ['clear', 'cloudy', 'rain'], type: 'string' } },
  required: ['celsius', 'city', 'sky'],
};

function manifestDocument(types: ManifestDocument['types']): ManifestDocument {
  return { version: 1, generator: 'test', toolsets: {}, types };
}

describe('LlmAgent outputSchema: a TypeScript type through the build-time manifest', () => {
  let dir: string;
  let manifestPath: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolsmith-output-type-'));
    writeFileSync(join(dir, 'forecast.ts'), SOURCE);
    manifestPath = join(dir, 'toolsmith.schema.json');
    writeFileSync(manifestPath, JSON.stringify(manifestDocument({ Forecast: { source: 'forecast.ts', sourceHash: hashSource(SOURCE), schema: FORECAST } })));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('asks for the manifest schema under the type name, validates the answer and types it as the type', async () => {
    const manifest = loadManifest(manifestPath);
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel(['{"city":"Paris","celsius":"warm","sky":"clear"}', '{"city":"Paris","celsius":21,"sky":"clear"}']);
    const agent = new LlmAgent({ name: 'forecaster', model, outputSchema: manifestType<Forecast>('Forecast', { manifest }), outputKey: 'forecast' });
    const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'Weather in Paris?');

    expect(model.requests.map((request) => request.responseSchema)).toEqual([
      { name: 'Forecast', schema: FORECAST },
      { name: 'Forecast', schema: FORECAST },
    ]);
    expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', undefined]);
    expect(events[0].errorMessage).toContain('celsius: got "warm", expected number');
    const output: Forecast | undefined = agent.outputOf(events[1]);
    // @ts-expect-error: the answer is typed as the manifest type, not as anything else.
    const wrong: { city: number } | undefined = agent.outputOf(events[1]);
    expect(wrong).toBe(output);
    expect(output).toEqual({ city: 'Paris', celsius: 21, sky: 'clear' });
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.state.forecast).toEqual({ city: 'Paris', celsius: 21, sky: 'clear' });
  });

  it('reads the type when the Runner is built, so a missing one fails there with MANIFEST_TYPE_MISSING', () => {
    const manifest = loadManifest(manifestPath);
    // Building the agent reads nothing yet.
    const agent = new LlmAgent({ name: 'forecaster', model: new ScriptedModel([]), outputSchema: manifestType<Forecast>('Forcast', { manifest }) });
    let error: unknown;
    try {
      new Runner({ appName: 'app', agent });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ManifestError);
    expect(error).toMatchObject({ code: 'MANIFEST_TYPE_MISSING', manifestPath, details: { typeName: 'Forcast' } });
    expect((error as Error).message).toBe(
      `${manifestPath}: there is no type "Forcast" in the manifest. Fix: run \`toolsmith schema\` again; it writes a type for each ` +
        "manifestType<T>('Forcast') call it finds in the project's sources (the type argument and a string literal must be written at the call).",
    );
  });

  it('refuses a manifest type that is not an object, as a JSON Schema would be refused', () => {
    writeFileSync(manifestPath, JSON.stringify(manifestDocument({ Names: { source: 'forecast.ts', sourceHash: hashSource(SOURCE), schema: { type: 'array', items: { type: 'string' } } } })));
    const agent = new LlmAgent({ name: 'lister', model: new ScriptedModel([]), outputSchema: manifestType<string[]>('Names', { manifest: loadManifest(manifestPath) }) });
    expect(() => new Runner({ appName: 'app', agent })).toThrow(
      expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('its root type is "array", not "object"') }),
    );
  });

  it('warns about a changed source and uses the recorded schema; onStale "error" refuses it', async () => {
    writeFileSync(join(dir, 'forecast.ts'), `${SOURCE}// edited\n`);
    const warnings: string[] = [];
    const warned = loadManifest(manifestPath, { warn: (message) => warnings.push(message) });
    const model = new ScriptedModel(['{"city":"Oslo","celsius":-3,"sky":"cloudy"}']);
    const agent = new LlmAgent({ name: 'forecaster', model, outputSchema: manifestType<Forecast>('Forecast', { manifest: warned }) });
    const events = await collect(new Runner({ appName: 'app', agent }), 'Weather in Oslo?');
    expect(agent.outputOf(events[0])).toEqual({ city: 'Oslo', celsius: -3, sky: 'cloudy' });
    expect(warnings).toEqual([
      `[toolsmith] ${manifestPath}: the source of type Forecast (forecast.ts) changed since the manifest was generated; its recorded ` +
        'schema is used, and it may no longer match the type. Run `toolsmith schema` again.',
    ]);

    const strict = loadManifest(manifestPath, { onStale: 'error' });
    const strictAgent = new LlmAgent({ name: 'forecaster', model: new ScriptedModel([]), outputSchema: manifestType<Forecast>('Forecast', { manifest: strict }) });
    expect(() => new Runner({ appName: 'app', agent: strictAgent })).toThrow(expect.objectContaining({ code: 'MANIFEST_STALE' }));
  });

  it('uses the default manifest, which may be set after the agent was built', async () => {
    const model = new ScriptedModel(['{"city":"Rome","celsius":30,"sky":"clear"}']);
    const agent = new LlmAgent({ name: 'forecaster', model, outputSchema: manifestType<Forecast>('Forecast') });
    useManifest(manifestPath);
    const events = await collect(new Runner({ appName: 'app', agent }), 'Weather in Rome?');
    expect(model.requests[0].responseSchema).toEqual({ name: 'Forecast', schema: FORECAST });
    expect(agent.outputOf(events[0])).toEqual({ city: 'Rome', celsius: 30, sky: 'clear' });
  });

  it('says how to get a manifest when there is none', () => {
    // The default manifest is decided once per process: a fresh copy of the modules starts undecided.
    jest.isolateModules(() => {
      const registry = jest.requireActual<typeof import('../scanning/manifest-registry')>('../scanning/manifest-registry');
      const agents = jest.requireActual<typeof import('../agents/llm-agent')>('../agents/llm-agent');
      const runner = jest.requireActual<typeof import('./runner')>('./runner');
      const scripted = jest.requireActual<typeof import('../testing/scripted-model')>('../testing/scripted-model');
      registry.useManifest(null);
      const agent = new agents.LlmAgent({ name: 'forecaster', model: new scripted.ScriptedModel([]), outputSchema: manifestType<Forecast>('Forecast') });
      expect(() => new runner.Runner({ appName: 'app', agent })).toThrow(
        expect.objectContaining({
          code: 'MANIFEST_TYPE_MISSING',
          message: expect.stringMatching(/^manifestType\('Forecast'\) needs the build-time manifest, and none was found .* Fix: run `toolsmith schema`/),
        }),
      );
    });
  });
});
