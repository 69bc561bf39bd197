import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metaSchemaProblems } from './meta-schema-check';
import Ajv2020 from 'ajv/dist/2020';
import { fullFormats } from 'ajv-formats/dist/formats';
import { AJV_FORMATS, KEYWORDS, NOT_READ_BY_AJV } from './schema-keywords';
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

  // $refs that are not #/ pointers: ajv resolves them only against what the schema defines (h42d 1).
  const refsAjvCannotResolve: Array<[unknown, string]> = [
    [{ type: 'object', properties: { a: { $ref: 'other.json#/x' } } }, 'schema/properties/a/$ref "other.json#/x" is not in the schema: ajv loads no other document'],
    [{ type: 'object', properties: { a: { $ref: 'https://example.com/x.json' } } }, 'schema/properties/a/$ref "https://example.com/x.json" is not in the schema'],
    [{ type: 'object', properties: { a: { $ref: '#adress' } }, $defs: { A: { $anchor: 'address', type: 'string' } } }, 'schema/properties/a/$ref "#adress" names an anchor no $anchor of the schema defines (did you mean "address"?)'],
    // The anchor is another resource's (under an $id): # is the root's.
    [{ type: 'object', properties: { a: { $ref: '#x' } }, $defs: { O: { $id: 'other.json', $defs: { y: { $anchor: 'x', type: 'string' } } } } }, 'schema/properties/a/$ref "#x" names an anchor'],
    [{ type: 'object', properties: { a: { $ref: 'other.json#/$defs/z' } }, $defs: { O: { $id: 'other.json', $defs: { y: { type: 'string' } } } } }, 'schema/properties/a/$ref "other.json#/$defs/z" points to nothing in the schema'],
  ];
  const refsAjvResolves: unknown[] = [
    { type: 'object', properties: { a: { $ref: '#address' } }, $defs: { A: { $anchor: 'address', type: 'string' } } },
    { type: 'object', properties: { a: { $ref: '#node' } }, $defs: { N: { $dynamicAnchor: 'node', type: 'string' } } },
    { type: 'object', properties: { a: { $ref: 'other.json#/$defs/y' } }, $defs: { O: { $id: 'other.json', $defs: { y: { type: 'string' } } } } },
    { type: 'object', properties: { a: { $ref: 'other.json#x' } }, $defs: { O: { $id: 'other.json', $defs: { y: { $anchor: 'x', type: 'string' } } } } },
    { type: 'object', properties: { a: { $ref: 'other.json' } }, $defs: { O: { $id: 'other.json', type: 'string' } } },
    { $id: 'https://example.com/root.json', type: 'object', properties: { a: { $ref: 'https://example.com/root.json#/$defs/s' }, b: { $ref: 'sub.json' } }, $defs: { s: { type: 'string' }, t: { $id: 'sub.json', type: 'string' } } },
    { type: 'object', properties: { a: { $ref: 'https://json-schema.org/draft/2020-12/schema' } } },
  ];

  it.each(refsAjvCannotResolve.map(([schema, problem]) => [JSON.stringify(schema), schema, problem]))('refuses a $ref ajv cannot resolve: %s', (_, schema, problem) => {
    expect(() => new Ajv2020({ strict: false }).compile(schema as object)).toThrow(/can't resolve reference/);
    expect(metaSchemaProblems(schema)).toContain(problem);
  });

  it.each(refsAjvResolves.map((schema) => [JSON.stringify(schema), schema]))('passes a $ref ajv resolves: %s', (_, schema) => {
    expect(() => new Ajv2020({ strict: false }).compile(schema as object)).not.toThrow();
    expect(metaSchemaProblems(schema)).toBeUndefined();
  });

  // Keywords and formats ajv does not know are not checked: the author's constraint would silently not hold (h42d 2).
  const notChecked: Array<[unknown, string]> = [
    [{ type: 'object', properties: { email: { type: 'string', fromat: 'email' } } }, 'schema/properties/email/fromat is not a JSON Schema keyword ajv knows, so the constraint would not be checked (did you mean "format"?)'],
    [{ type: 'object', properties: { name: { type: 'string', minLenght: 1 } } }, 'schema/properties/name/minLenght is not a JSON Schema keyword ajv knows, so the constraint would not be checked (did you mean "minLength"?)'],
    [{ type: 'object', properties: { a: { type: 'string' } }, requried: ['a'] }, 'schema/requried is not a JSON Schema keyword ajv knows, so the constraint would not be checked (did you mean "required"?)'],
    [{ type: 'object', properties: { a: { type: 'string', maxlength: 3 } } }, '(did you mean "maxLength"?)'],
    [{ type: 'object', properties: { a: { type: 'string', check: 'strict' } } }, 'schema/properties/a/check is not a JSON Schema keyword ajv knows, so the constraint would not be checked; annotations of your own go under a name starting with x-'],
    [{ type: 'array', prefixItems: [{ type: 'string' }], additionalItems: false }, 'schema/additionalItems: additionalItems is a draft-07 keyword that draft 2020-12 (ajv) ignores'],
    [{ type: 'object', properties: { when: { type: 'string', format: 'datetime' } } }, 'schema/properties/when/format "datetime" is not a format ajv checks, so it would not be checked (did you mean "date-time"?)'],
    [{ type: 'object', properties: { phone: { type: 'string', format: 'phone' } } }, 'schema/properties/phone/format "phone" is not a format ajv checks, so it would not be checked'],
    [{ type: 'object', properties: { a: { $defs: { b: { type: 'string', e: 1 } } } } }, 'schema/properties/a/$defs/b/e is not a JSON Schema keyword'],
  ];

  it.each(notChecked.map(([schema, problem]) => [JSON.stringify(schema), schema, problem]))('refuses what ajv would not check: %s', (_, schema, problem) => {
    expect(metaSchemaProblems(schema)).toContain(problem);
    // Not for a Standard Schema's converted schema: its library judges the values.
    if (!problem.includes('additionalItems')) expect(metaSchemaProblems(schema, false)).toBeUndefined();
  });

  it("takes the annotations of JSON Schema and of the providers' dialects, x- extensions, and every format ajv checks", () => {
    const schema = {
      type: 'object',
      title: 'Refund',
      $comment: 'note',
      'x-internal': { anything: true },
      discriminator: { propertyName: 'kind' },
      propertyOrdering: ['amount', 'note'],
      properties: {
        amount: { type: 'number', example: 12, examples: [12], deprecated: true, readOnly: false, default: 1 },
        note: { type: 'string', nullable: true, format: 'email' },
        ...Object.fromEntries(Object.keys(fullFormats).map((format) => [format, { type: 'string', format }])),
      },
    };
    expect(metaSchemaProblems(schema)).toBeUndefined();
  });

  it("knows the keywords and formats ajv knows (update schema-keywords.ts after upgrading ajv or ajv-formats)", () => {
    const ajv = new Ajv2020({ strict: false }) as unknown as { RULES: { keywords: Record<string, unknown> } };
    const ajvKeywords = Object.keys(ajv.RULES.keywords).filter((keyword) => NOT_READ_BY_AJV[keyword] === undefined);
    // $anchor is read by ajv's reference resolver, not by a keyword rule.
    const others = ['$anchor', 'example', 'discriminator', 'propertyOrdering'];
    expect(Object.keys(KEYWORDS).sort()).toEqual([...ajvKeywords, ...others].sort());
    expect(Object.keys(AJV_FORMATS).sort()).toEqual(Object.keys(fullFormats).sort());
  });
});
