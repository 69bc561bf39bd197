import { CONSTRAINT_NOTE_PREFIX } from '@toolsmith/core/adapter-kit';
import { GeminiSchemaError } from './gemini-schema-error';
import { toGeminiOpenApiSchema } from './to-gemini-openapi-schema';

describe('toGeminiOpenApiSchema', () => {
  it('inlines $refs, strips $schema / additionalProperties, states constraints it has no keyword for in the description and upper-cases types', () => {
    expect(
      toGeminiOpenApiSchema(
        {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          additionalProperties: false,
          properties: {
            address: { $ref: '#/$defs/Address', description: 'Where to ship.' },
            tags: { type: 'array', items: { type: 'string', format: 'email' }, minItems: 1, uniqueItems: true },
            quantity: { type: 'integer', minimum: 1, exclusiveMaximum: 100, format: 'int32' },
            when: { type: 'string', format: 'date-time' },
          },
          required: ['address', 'ghost'],
          $defs: { Address: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'], additionalProperties: false } },
        },
        'ship',
      ),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        address: { type: 'OBJECT', description: 'Where to ship.', properties: { city: { type: 'STRING', minLength: 1 } }, required: ['city'], propertyOrdering: ['city'] },
        tags: {
          type: 'ARRAY',
          minItems: 1,
          description: `${CONSTRAINT_NOTE_PREFIX} {"uniqueItems":true}.`,
          items: { type: 'STRING', description: `${CONSTRAINT_NOTE_PREFIX} {"format":"email"}.` },
        },
        quantity: { type: 'INTEGER', minimum: 1, format: 'int32', description: `${CONSTRAINT_NOTE_PREFIX} {"exclusiveMaximum":100}.` },
        when: { type: 'STRING', format: 'date-time' },
      },
      required: ['address'],
      propertyOrdering: ['address', 'tags', 'quantity', 'when'],
    });
  });

  it('turns const into a one-value enum and "X or null" into nullable X', () => {
    expect(
      toGeminiOpenApiSchema(
        {
          type: 'object',
          properties: {
            kind: { const: 'refund' },
            note: { type: ['string', 'null'] },
            size: { anyOf: [{ enum: ['s', 'm'] }, { type: 'null' }] },
            level: { oneOf: [{ type: 'null' }, { type: 'integer', maximum: 5 }], description: 'Level' },
            color: { enum: ['red', null] },
          },
        },
        'order',
      ).properties,
    ).toEqual({
      kind: { type: 'STRING', enum: ['refund'], format: 'enum' },
      note: { type: 'STRING', nullable: true },
      size: { type: 'STRING', nullable: true, enum: ['s', 'm'], format: 'enum' },
      level: { type: 'INTEGER', nullable: true, maximum: 5, description: 'Level' },
      color: { type: 'STRING', nullable: true, enum: ['red'], format: 'enum' },
    });
  });

  it.each([
    [{ type: 'object', properties: { a: { type: ['string', 'number'] } } }, '/properties/a/type', 'is a union'],
    [{ type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'number' }] } } }, '/properties/a/anyOf', 'union'],
    [{ type: 'object', properties: { a: { not: { type: 'string' } , type: 'string' } } }, '/properties/a/not', '"not"'],
    [{ type: 'object', properties: { a: { type: 'object', additionalProperties: { type: 'string' } } } }, '/properties/a', 'free-form map'],
    [{ type: 'object', properties: { a: {} } }, '/properties/a', 'add "type"'],
    [{ type: 'object', properties: { a: { type: 'array', prefixItems: [{ type: 'string' }] } } }, '/properties/a', 'tuples'],
    [{ type: 'object', properties: { a: { $ref: '#' } } }, '/properties/a/$ref', 'recursive'],
  ])('refuses %j with a GeminiSchemaError at the right path', (schema, schemaPath, reason) => {
    let error: unknown;
    try {
      toGeminiOpenApiSchema(schema, 'lookup');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GeminiSchemaError);
    expect(error).toMatchObject({
      code: 'GEMINI_SCHEMA_UNSUPPORTED',
      toolName: 'lookup',
      schemaPath,
      message: expect.stringContaining(reason),
    });
    expect((error as Error).message).toContain("schemaDialect: 'json-schema'");
  });
});
