import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metaSchemaProblems } from './meta-schema-check';
import { getAjv } from './schema-validator';

describe('metaSchemaProblems (precompiled draft 2020-12 meta-schema)', () => {
  it('is the generator output for the installed ajv (run the generator after upgrading ajv)', () => {
    const { generate } = jest.requireActual<{ generate: () => string }>(join(__dirname, '..', '..', 'scripts', 'generate-meta-schema-validator.js'));
    expect(readFileSync(join(__dirname, 'meta-schema-validator.generated.ts'), 'utf8')).toBe(generate());
  });

  const schemas: unknown[] = [
    { type: 'object', properties: { a: { type: 'string', minLength: 1 } }, required: ['a'] },
    { type: 'strin' },
    { type: 'object', properties: { n: { minimum: 'zero' } } },
    { type: 'object', required: 'a' },
    { anyOf: [{ type: 'string' }, { type: 'number' }], $defs: { X: { type: 'boolean' } } },
    { type: 'array', items: [{ type: 'string' }] },
    { enum: [] },
    { type: 'object', additionalProperties: { $ref: '#/$defs/Y' }, $defs: { Y: { type: 'integer' } } },
  ];

  it.each(schemas.map((schema) => [JSON.stringify(schema), schema]))('agrees with ajv.validateSchema: %s', (_, schema) => {
    const ajv = getAjv();
    const valid = ajv.validateSchema(schema as object) as boolean;
    const problems = metaSchemaProblems(schema);
    expect(problems === undefined).toBe(valid);
    // ajv's own words, each problem once (ajv repeats one reached by several paths of the meta-schema).
    if (!valid) expect(problems).toBe([...new Set(ajv.errorsText(ajv.errors, { dataVar: 'schema' }).split(', '))].join(', '));
  });

  it("says each problem once: a draft-07 tuple's items array is refused once, not once per meta-schema path", () => {
    expect(metaSchemaProblems({ type: 'array', items: [{ type: 'string' }] })).toBe('schema/items must be object,boolean');
  });
  // What the meta-schema allows but ajv's compile refuses, found without compiling (review r41c explicit C, D).
  const compileFailures: unknown[] = [
    { type: 'object', properties: { a: { type: 'string', pattern: '(' } } },
    { type: 'object', patternProperties: { '[': { type: 'string' } } },
    { type: 'object', properties: { a: { $ref: '#/$defs/Nope' } } },
    { type: 'array', items: { anyOf: [{ $ref: '#/definitions/Gone' }] } },
  ];
  const compiling: unknown[] = [
    { type: 'object', properties: { a: { type: 'string', pattern: '^\\p{L}+$' } } },
    { type: 'object', properties: { a: { $ref: '#/$defs/Node' } }, $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } } },
    { type: 'object', properties: { a: { $ref: '#' } } },
    { type: 'object', properties: { a: { $ref: '#/$defs/a~1b' } }, $defs: { 'a/b': { type: 'string' } } },
    // Data that looks like keywords is not a schema.
    { type: 'object', properties: { a: { const: { pattern: '(', $ref: '#/nope' } } } },
  ];

  it.each(compileFailures.map((schema) => [JSON.stringify(schema), schema]))('finds what ajv cannot compile: %s', (_, schema) => {
    expect(() => getAjv().compile(schema as object)).toThrow();
    expect(metaSchemaProblems(schema)).toMatch(/is not a regular expression|points to nothing in the schema/);
  });

  it.each(compiling.map((schema) => [JSON.stringify(schema), schema]))('passes what ajv compiles: %s', (_, schema) => {
    expect(() => getAjv().compile(schema as object)).not.toThrow();
    expect(metaSchemaProblems(schema)).toBeUndefined();
  });
});
