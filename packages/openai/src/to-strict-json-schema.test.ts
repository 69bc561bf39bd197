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
    [{ type: 'object', properties: { s: { type: 'string', minLength: 2 } } }, 'minLength', '/properties/s'],
    [{ type: 'object', properties: { s: { type: 'string', format: 'uri' } } }, 'format', '/properties/s'],
    [{ type: 'object', properties: { s: { oneOf: [{ type: 'string' }] } } }, 'oneOf', '/properties/s'],
    [{ type: 'object', properties: { s: {} } }, 'type', '/properties/s'],
    [{ type: 'object', properties: { s: { type: 'array' } } }, 'items', '/properties/s'],
    [{ anyOf: [{ type: 'object' }] }, 'anyOf', ''],
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

  it('refuses objects nested deeper than strict mode allows', () => {
    let schema: Record<string, unknown> = { type: 'object', properties: { leaf: { type: 'string' } }, required: ['leaf'] };
    for (let i = 0; i < 11; i++) schema = { type: 'object', properties: { next: schema }, required: ['next'] };
    expect(refusal(schema).message).toContain('nested at most 10 levels');
  });
});
