import { LlmAgent, Runner, loadManifest, scanTools, useManifest } from '@toolsmith/core';
import type { Event, FunctionResponse, ToolManifest } from '@toolsmith/core';
import type { ManifestDocument } from '@toolsmith/core/internal';
import { ScriptedModel } from '@toolsmith/core/testing';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { OrderTools } from '../__fixtures__/constraints-project/src/order-tools';
import { runCli } from '../__fixtures__/run-cli';

const FIXTURE = resolve(__dirname, '..', '__fixtures__', 'constraints-project');

const run = runCli;

describe('toolsmith schema: constraints from JSDoc on parameters and type aliases', () => {
  let dir: string;
  let document: ManifestDocument;
  let manifest: ToolManifest;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolsmith-constraints-'));
    const out = join(dir, 'toolsmith.schema.json');
    const result = await run(['schema', '-q', '--project', join(FIXTURE, 'tsconfig.json'), '--out', out], dir);
    expect(result).toMatchObject({ code: 0, stderr: 'Wrote toolsmith.schema.json: 2 tools in 1 toolsets.\n' });
    document = JSON.parse(readFileSync(out, 'utf8')) as ManifestDocument;
    manifest = loadManifest(out, { onStale: 'error', onMissingMethod: 'error' });
    useManifest(manifest);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const schemaOf = (name: string) => document.toolsets.OrderTools.methods.findOrders.parameters.find((p) => p.name === name)?.schema;

  it('writes the tags of a type alias, of an alias of an alias, and of the parameter itself', () => {
    expect(schemaOf('id')).toEqual({ type: 'string', pattern: '^A-\\d{4}$', description: 'The order to start from' });
    expect(schemaOf('note')).toEqual({ type: 'string', minLength: 1, maxLength: 20, description: 'Why the user asks' });
    expect(schemaOf('pageSize')).toEqual({ type: 'integer', minimum: 1, maximum: 50, default: 10 });
    expect(schemaOf('offset')).toEqual({ type: 'integer', minimum: 0, default: 0 });
    expect(schemaOf('related')).toEqual({ type: 'array', items: { type: 'string', pattern: '^A-\\d{4}$' } });
    expect(schemaOf('notify')).toEqual({ type: 'string', format: 'email' });
    expect(document.toolsets.OrderTools.methods.findOrders.parameters.find((p) => p.name === 'offset')?.optional).toBe(true);
  });

  it('reads every documented tag, and alias tags through a null union and Array<T>', () => {
    const tagOrder = Object.fromEntries(document.toolsets.OrderTools.methods.tagOrder.parameters.map((p) => [p.name, p.schema]));
    expect(tagOrder).toEqual({
      id: { type: ['null', 'string'], pattern: '^A-\\d{4}$' },
      also: { type: 'array', items: { type: 'string', pattern: '^A-\\d{4}$' } },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true },
      weight: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 100, multipleOf: 0.5 },
      labels: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 1, maxProperties: 2 },
    });
  });

  it('keeps the tags of interface properties, @integer included, and an alias used by a property', () => {
    expect(schemaOf('shipTo')).toEqual({
      description: 'Where a parcel goes.',
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 2 },
        contact: { type: 'string', format: 'email' },
        floor: { type: 'integer' },
        lastOrder: { description: 'An order number as the shop prints it.', type: 'string', pattern: '^A-\\d{4}$' },
      },
      required: ['city', 'contact', 'floor'],
      additionalProperties: false,
    });
  });

  it('the runner refuses arguments that break them, each with the constraint in the message', async () => {
    const tools = scanTools(OrderTools, { manifest });
    expect(tools[0].parameters.properties).toMatchObject({ id: { pattern: '^A-\\d{4}$' }, pageSize: { type: 'integer', maximum: 50 } });

    const badArgs = { id: 'B-1', note: '', pageSize: 2.5, offset: -1, related: ['A-1234', 'nope'], notify: 'not-an-address', shipTo: { city: 'X', contact: 'a@b.co', floor: 1.5 } };
    const model = new ScriptedModel([
      { calls: [{ id: 'c1', name: 'findOrders', args: badArgs }] },
      { calls: [{ id: 'c2', name: 'findOrders', args: { id: 'A-0001', related: ['A-0002'], pageSize: 50 } }] },
      'done',
    ]);
    const agent = new LlmAgent({ name: 'orders', model, tools: [OrderTools] });
    const runner = new Runner({ appName: 'app', agent });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'find' }] } })) events.push(event);
    const responses = events.flatMap((e) => e.content?.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse as FunctionResponse] : []));
    const refused = responses[0].response as { error: { code: string; message: string } };
    expect(refused.error.code).toBe('INVALID_ARGUMENTS');
    expect(refused.error.message).toBe(
      'Invalid arguments: id: got "B-1", expected a string matching "^A-\\\\d{4}$"; note: got "", expected at least 1 character; ' +
        'pageSize: got 2.5, expected integer; offset: got -1, expected >= 0; related[1]: got "nope", expected a string matching "^A-\\\\d{4}$"; ' +
        'notify: got "not-an-address", expected format "email"; shipTo.city: got "X", expected at least 2 characters; shipTo.floor: got 1.5, expected integer.',
    );
    expect(responses[1].response).toEqual({ ids: ['A-0001', 'A-0002'] });
  });

  describe('on tags it cannot read', () => {
    let project: string;
    beforeEach(() => {
      project = mkdtempSync(join(tmpdir(), 'toolsmith-bad-tags-'));
      mkdirSync(join(project, 'src'));
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, experimentalDecorators: true, types: [] }, include: ['src'] }));
    });
    afterEach(() => rmSync(project, { recursive: true, force: true }));

    it.each([
      ['a minimum that is not a number', '/** @minimum one */ type N = number;', 'n: N', /@minimum "one" is not a number; write it as e\.g\. @minimum 1/],
      ['a pattern that is not a regular expression', '/** @pattern ([a-z */ type S = string;', 's: S', /type S: JSDoc tag @pattern .* is not a regular expression/],
      ['@integer on a string', '', '/** @integer */ s: string', /@integer is for numbers, and this is "string"/],
      ['@asType other than integer', '', '/** @asType string */ s: string', /@asType "string" is not "integer"/],
      ['@default on a required parameter', '', '/** @default 3 */ n: number', /has a @default but is required in TypeScript.*\(n = 3\) or make it optional \(n\?\)/],
    ])('refuses %s, naming the place and the fix', async (_name, prelude, parameter, message) => {
      writeFileSync(
        join(project, 'src', 'bad.ts'),
        `import { Tool, Toolset } from '@toolsmith/core';\n${prelude}\n@Toolset()\nexport class BadTools {\n  @Tool()\n  find(${parameter}) { return { ok: true }; }\n}\n`,
      );
      const result = await run(['schema', '-q'], project);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain(join(project, 'src', 'bad.ts'));
    });
  });
});
