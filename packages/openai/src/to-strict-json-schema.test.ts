import { CONSTRAINT_NOTE_PREFIX } from '@toolsmith/core/adapter-kit';
import { StrictSchemaError } from './strict-schema-error';
import { toStrictJsonSchema } from './to-strict-json-schema';

const strict = (schema: Record<string, unknown>) => toStrictJsonSchema('t', schema);
const refusal = (schema: Record<string, unknown>): StrictSchemaError => {
  try {
    strict(schema);
  } catch (error) {
    return error as StrictSchemaError;
  }
  throw new Error('expected a StrictSchemaError');
};

describe('toStrictJsonSchema', () => {
  it('requires every property, makes optional ones nullable and closes every object', () => {
    const input = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' },
        days: { type: 'integer', minimum: 1 },
        where: {
          type: 'object',
          properties: { lat: { type: 'number' }, lon: { type: 'number' }, label: { type: ['string', 'null'] } },
          required: ['lat', 'lon'],
        },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
      },
      required: ['city', 'where'],
    };
    const copy = structuredClone(input);
    expect(strict(input)).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City' },
        unit: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit', null], description: 'Default: "celsius".' },
        days: { type: ['integer', 'null'], minimum: 1 },
        where: {
          type: 'object',
          properties: { lat: { type: 'number' }, lon: { type: 'number' }, label: { type: ['string', 'null'] } },
          required: ['lat', 'lon', 'label'],
          additionalProperties: false,
        },
        tags: { type: ['array', 'null'], items: { type: 'string' }, maxItems: 3 },
      },
      required: ['city', 'unit', 'days', 'where', 'tags'],
      additionalProperties: false,
    });
    expect(input).toEqual(copy);
  });

  it('drops keywords strict mode does not know (annotations, vendor extensions)', () => {
    expect(
      strict({
        type: 'object',
        title: 'Args',
        properties: { n: { type: 'integer', examples: [1], 'x-unit': 'km', $comment: 'why', deprecated: true, maximum: 9 } },
        required: ['n'],
      }),
    ).toEqual({ type: 'object', properties: { n: { type: 'integer', maximum: 9 } }, required: ['n'], additionalProperties: false });
  });

  it('turns a tool without parameters into an empty closed object', () => {
    expect(strict({ type: 'object' })).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
    expect(strict({})).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
  });

  it('keeps $defs and $ref, wrapping optional refs and consts in anyOf with null', () => {
    expect(
      strict({
        type: 'object',
        properties: { a: { $ref: '#/$defs/A' }, b: { $ref: '#/$defs/A', description: 'B' }, c: { const: 'x' } },
        $defs: { A: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        a: { anyOf: [{ $ref: '#/$defs/A' }, { type: 'null' }] },
        b: { description: 'B', anyOf: [{ $ref: '#/$defs/A' }, { type: 'null' }] },
        c: { anyOf: [{ const: 'x', type: 'string' }, { type: 'null' }] },
      },
      required: ['a', 'b', 'c'],
      additionalProperties: false,
      $defs: { A: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false } },
    });
  });

  it('adds a null branch to an optional anyOf', () => {
    const out = strict({ type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'number' }] } } });
    expect((out.properties as Record<string, unknown>).v).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] });
  });

  it.each([
    [{ type: 'object', properties: { m: { type: 'object', patternProperties: { '^x': { type: 'string' } } } } }, 'patternProperties', '/properties/m'],
    [{ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'number' } } } }, 'additionalProperties', '/properties/m'],
    [{ type: 'object', properties: {}, additionalProperties: true }, 'additionalProperties', ''],
    [{ type: 'object', properties: { m: { type: 'object' } } }, 'properties', '/properties/m'],
    [{ type: 'object', properties: { s: {} } }, 'type', '/properties/s'],
    [{ type: 'object', properties: { s: { type: 'array' } } }, 'items', '/properties/s'],
    [{ anyOf: [{ type: 'object' }] }, 'anyOf', ''],
    [{ type: 'object', properties: { s: { allOf: [{ type: 'string' }, { minLength: 1 }] } } }, 'allOf', '/properties/s'],
    [{ type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'string' }] } } }, 'prefixItems', '/properties/t'],
    [{ type: 'object', properties: { s: { $ref: 'https://example.com/s.json' } } }, '$ref', '/properties/s'],
  ])('refuses %j (keyword %s)', (schema, keyword, path) => {
    const error = refusal(schema);
    expect(error).toBeInstanceOf(StrictSchemaError);
    expect(error.code).toBe('STRICT_SCHEMA_UNSUPPORTED');
    expect(error.keyword).toBe(keyword);
    expect(error.schemaPath).toBe(path);
    expect(error.message).toContain('Tool "t"');
    expect(error.message).toContain(`keyword "${keyword}"`);
    expect(error.message).toContain('strict: false');
  });

  it('moves constraints strict mode cannot carry into the description, and keeps the rest', () => {
    const strict = toStrictJsonSchema('t', {
      type: 'object',
      properties: {
        code: { type: 'string', description: 'Code', minLength: 3, maxLength: 8, pattern: '^[A-Z]+$' },
        site: { type: 'string', format: 'uri' },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 5 },
      },
      required: ['code', 'site', 'tags'],
    });
    expect(strict.properties).toEqual({
      code: { type: 'string', description: `Code. ${CONSTRAINT_NOTE_PREFIX} {"minLength":3,"maxLength":8}.`, pattern: '^[A-Z]+$' },
      site: { type: 'string', description: `${CONSTRAINT_NOTE_PREFIX} {"format":"uri"}.` },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 5, description: `${CONSTRAINT_NOTE_PREFIX} {"uniqueItems":true}.` },
    });
  });

  it('sends oneOf and a one-schema allOf as anyOf, and rules about an object (email or phone) in its description', () => {
    const strict = toStrictJsonSchema('t', {
      type: 'object',
      properties: {
        email: { type: 'string' },
        phone: { type: 'string' },
        pick: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        home: { allOf: [{ $ref: '#/$defs/A' }], description: 'Home' },
      },
      required: ['pick', 'home'],
      anyOf: [{ required: ['email'] }, { required: ['phone'] }],
      $defs: { A: { type: 'object', properties: { street: { type: 'string' } }, required: ['street'] } },
    });
    expect(strict.anyOf).toBeUndefined();
    expect(strict.description).toBe(`${CONSTRAINT_NOTE_PREFIX} {"anyOf":[{"required":["email"]},{"required":["phone"]}]}.`);
    const properties = strict.properties as Record<string, Record<string, unknown>>;
    expect(properties.pick).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }], description: expect.stringContaining('exactly one') });
    expect(properties.home).toEqual({ description: 'Home', anyOf: [{ $ref: '#/$defs/A' }] });
  });
});
