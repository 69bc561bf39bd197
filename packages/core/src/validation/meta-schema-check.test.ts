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
    if (!valid) expect(problems).toBe(ajv.errorsText(ajv.errors, { dataVar: 'schema' }));
  });
});
