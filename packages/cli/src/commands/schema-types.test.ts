import { LlmAgent, Runner, loadManifest, manifestType } from '@toolsmith/core';
import type { Event } from '@toolsmith/core';
import { hashSource } from '@toolsmith/core/internal';
import type { ManifestDocument } from '@toolsmith/core/internal';
import { ScriptedModel } from '@toolsmith/core/testing';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Forecast, Outline } from '../__fixtures__/output-project/src/forecast';
import { runCli } from '../__fixtures__/run-cli';

const FIXTURE = resolve(__dirname, '..', '__fixtures__', 'output-project');

const run = runCli;

async function answers(agent: LlmAgent<unknown>, text: string): Promise<Event[]> {
  const events: Event[] = [];
  const runner = new Runner({ appName: 'app', agent });
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text }] } })) events.push(event);
  return events;
}

describe('toolsmith schema: types named with manifestType, used as an agent output schema', () => {
  let dir: string;
  let out: string;
  let document: ManifestDocument;
  beforeAll(async () => {
    // A copy of the fixture, so the staleness tests can edit it.
    dir = mkdtempSync(join(tmpdir(), 'toolsmith-types-'));
    cpSync(FIXTURE, dir, { recursive: true });
    out = join(dir, 'toolsmith.schema.json');
    const result = await run(['schema'], dir);
    expect(result).toMatchObject({ code: 0, stderr: expect.stringContaining('Wrote toolsmith.schema.json: 0 tools in 0 toolsets, 3 types.') });
    document = JSON.parse(readFileSync(out, 'utf8')) as ManifestDocument;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes each named type with the file that declares it, its hash and its schema', () => {
    const forecastSource = readFileSync(join(dir, 'src', 'forecast.ts'), 'utf8');
    expect(Object.keys(document.types!)).toEqual(['Forecast', 'Outline', 'Verdict']);
    expect(document.types!.Forecast).toEqual({
      source: 'src/forecast.ts',
      sourceHash: hashSource(forecastSource),
      schema: {
        description: "A city's weather, as the forecaster agent answers it.",
        type: 'object',
        properties: {
          city: { description: 'City name, as the user wrote it', type: 'string' },
          celsius: { type: 'number' },
          sky: { enum: ['clear', 'cloudy', 'rain'], type: 'string' },
          days: {
            description: 'The next days, when the user asked for them',
            type: 'array',
            items: { type: 'object', properties: { day: { type: 'number' }, high: { type: 'number' }, low: { type: 'number' } }, required: ['day', 'high', 'low'] },
          },
        },
        required: ['celsius', 'city', 'sky'],
      },
    });
    // A recursive type's definition is at the root, so the root says it is an object.
    expect(document.types!.Outline.schema).toMatchObject({ type: 'object', $defs: { Outline: { type: 'object' } } });
    // A type written inline at the call is recorded with the call's file.
    expect(document.types!.Verdict).toMatchObject({ source: 'src/agents.ts', schema: { type: 'object', required: ['approved'] } });
  });

  it('shows the types with --print, and --check finds the manifest up to date', async () => {
    const printed = await run(['schema', '--print', '-q'], dir);
    expect(printed.stdout).toContain(
      'Types (manifestType)\n' +
        '  Forecast  (src/forecast.ts)\n' +
        '    { city: string; celsius: number; sky: "clear" | "cloudy" | "rain"; days?: { day: number; high: number; low: number }[] }\n' +
        '  Outline  (src/forecast.ts)\n' +
        '    { title: string; subtopics: Outline[] }\n',
    );
    expect(await run(['schema', '--check', '-q'], dir)).toMatchObject({ code: 0, stderr: 'toolsmith.schema.json is up to date.\n' });
  });

  it('gives an agent the type as its output schema: asked for, validated, and typed', async () => {
    const manifest = loadManifest(out);
    const model = new ScriptedModel([
      '{"city":"Paris","celsius":21,"sky":"clear","days":[{"day":1,"high":"hot","low":15}]}',
      '{"city":"Paris","celsius":21,"sky":"clear","days":[{"day":1,"high":24,"low":15}]}',
    ]);
    const agent = new LlmAgent({ name: 'forecaster', model, outputSchema: manifestType<Forecast>('Forecast', { manifest }), outputKey: 'forecast' });
    const events = await answers(agent, 'Weather in Paris tomorrow?');

    expect(model.requests[0].responseSchema).toEqual({ name: 'Forecast', schema: document.types!.Forecast.schema, description: "A city's weather, as the forecaster agent answers it." });
    expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', undefined]);
    expect(events[0].errorMessage).toContain('days[0].high: got "hot", expected number');
    const forecast: Forecast | undefined = agent.outputOf(events[1]);
    expect(forecast?.days?.[0].high).toBe(24);
  });

  it('validates a recursive type at every depth', async () => {
    const manifest = loadManifest(out);
    const model = new ScriptedModel([
      '{"title":"Tools","subtopics":[{"title":"Schemas","subtopics":[{"title":"Manifest"}]}]}',
      '{"title":"Tools","subtopics":[{"title":"Schemas","subtopics":[{"title":"Manifest","subtopics":[]}]}]}',
    ]);
    const agent = new LlmAgent({ name: 'outliner', model, outputSchema: manifestType<Outline>('Outline', { manifest }) });
    const events = await answers(agent, 'Outline the docs.');
    expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', undefined]);
    expect(events[0].errorMessage).toContain('subtopics[0].subtopics[0]');
    expect(agent.outputOf(events[1])?.subtopics[0].subtopics[0].title).toBe('Manifest');
  });

  it('--check names a changed type, and a changed source of an unchanged type', async () => {
    const path = join(dir, 'src', 'forecast.ts');
    const original = readFileSync(path, 'utf8');
    try {
      writeFileSync(path, `${original}// a comment\n`);
      expect(await run(['schema', '--check', '-q'], dir)).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('  - the source of type Forecast (src/forecast.ts) changed\n  - the source of type Outline (src/forecast.ts) changed\n'),
      });
      // At startup the recorded schema is still used, with a warning.
      const warnings: string[] = [];
      loadManifest(out, { warn: (message) => warnings.push(message) }).typeSchema('Forecast');
      expect(warnings).toEqual([expect.stringContaining('the source of type Forecast (src/forecast.ts) changed since the manifest was generated')]);

      writeFileSync(path, original.replace('celsius: number;', 'celsius: number;\n  humidity: number;'));
      const check = await run(['schema', '--check', '-q'], dir);
      expect(check.code).toBe(1);
      expect(check.stderr).toContain('  - the schema of type Forecast changed\n');
    } finally {
      writeFileSync(path, original);
    }
  });

  describe('on calls it cannot read', () => {
    let project: string;
    beforeEach(() => {
      project = mkdtempSync(join(tmpdir(), 'toolsmith-types-bad-'));
      mkdirSync(join(project, 'src'));
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, types: [] }, include: ['src'] }));
    });
    afterEach(() => rmSync(project, { recursive: true, force: true }));

    // Here '@toolsmith/core' does not resolve: the function is still recognised by name.
    it.each([
      ['no type argument', "manifestType('Forecast')", /manifestType\('Forecast'\) has no type argument.*write it: manifestType<Forecast>\('Forecast'\)/],
      ['a computed name', "manifestType<{ a: string }>(`F${1}`)", /needs its name written as a string literal/],
      ['type any', "manifestType<any>('Loose')", /manifestType<any>\('Loose'\) says nothing about the value/],
      ['one name for two types', "[manifestType<{ a: string }>('Answer'), manifestType<{ b: number }>('Answer')]", /manifestType\('Answer'\) names another type than at .*bad\.ts:2:/],
    ])('rejects %s with the place and the fix', async (_name, call, message) => {
      writeFileSync(join(project, 'src', 'bad.ts'), `import { manifestType } from '@toolsmith/core';\nexport const output = ${call};\n`);
      const result = await run(['schema', '-q'], project);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain('[SCHEMA_SOURCE_UNSUPPORTED]');
      expect(result.stderr).toContain(join(project, 'src', 'bad.ts'));
    });
  });
});
