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
});
