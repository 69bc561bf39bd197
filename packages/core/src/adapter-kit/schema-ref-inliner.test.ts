import { ToolsmithError } from '../errors/toolsmith-error';
import { SchemaRefError, inlineSchemaRefs } from './schema-ref-inliner';

describe('inlineSchemaRefs', () => {
  it('replaces $defs and definitions references (nested and in arrays) and drops the definitions', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        home: { $ref: '#/$defs/Address' },
        offices: { type: 'array', items: { $ref: '#/definitions/Address' } },
        $ref: { type: 'string' },
      },
      $defs: { Address: { type: 'object', properties: { city: { $ref: '#/$defs/City' } } }, City: { type: 'string', minLength: 1 } },
      definitions: { Address: { type: 'object', properties: { zip: { type: 'string' } } } },
    };
    expect(inlineSchemaRefs(schema)).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        home: { type: 'object', properties: { city: { type: 'string', minLength: 1 } } },
        offices: { type: 'array', items: { type: 'object', properties: { zip: { type: 'string' } } } },
        $ref: { type: 'string' },
      },
    });
    // The input is not modified.
    expect(schema.properties.home).toEqual({ $ref: '#/$defs/Address' });
  });

  it('keeps keywords beside $ref, which win over the target’s, and decodes JSON Pointer escapes', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/a~1b', description: 'Local description' } },
      $defs: { 'a/b': { type: 'integer', description: 'Shared description' } },
    };
    expect(inlineSchemaRefs(schema).properties).toEqual({ a: { type: 'integer', description: 'Local description' } });
  });

  it.each([
    [{ type: 'object', properties: { next: { $ref: '#' } } }, 'recursive', '/properties/next/$ref'],
    [{ $defs: { Node: { properties: { child: { $ref: '#/$defs/Node' } } } }, properties: { n: { $ref: '#/$defs/Node' } } }, 'recursive', '/properties/n/$ref/properties/child/$ref'],
    [{ properties: { a: { $ref: '#/$defs/Missing' } } }, 'nothing in the schema', '/properties/a/$ref'],
    [{ properties: { a: { $ref: 'https://example.com/a.json' } } }, 'only references inside', '/properties/a/$ref'],
  ])('refuses %j (%s) with SchemaRefError', (schema, reason, schemaPath) => {
    let error: unknown;
    try {
      inlineSchemaRefs(schema);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaRefError);
    expect(ToolsmithError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'SCHEMA_REF_UNRESOLVABLE', schemaPath, message: expect.stringContaining(reason) });
  });
});
