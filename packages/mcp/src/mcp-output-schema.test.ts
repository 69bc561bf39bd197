import { toMcpOutputSchema } from './mcp-output-schema';

describe('toMcpOutputSchema', () => {
  it('declares an object schema as it is, without $schema', () => {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'string' } } };
    expect(toMcpOutputSchema(schema)).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });

  it('wraps other types as { result }, as the executor wraps such results, keeping $defs at the root', () => {
    const schema = { type: 'array', items: { $ref: '#/$defs/city' }, $defs: { city: { type: 'string' } } };
    expect(toMcpOutputSchema(schema)).toEqual({
      type: 'object',
      properties: { result: { type: 'array', items: { $ref: '#/$defs/city' } } },
      required: ['result'],
      $defs: { city: { type: 'string' } },
    });
    expect(toMcpOutputSchema({ type: ['string', 'null'] })).toMatchObject({ properties: { result: { type: ['string', 'null'] } } });
  });

  it('declares nothing when the shape cannot be told or may be an object among others', () => {
    expect(toMcpOutputSchema(undefined)).toBeUndefined();
    expect(toMcpOutputSchema({ anyOf: [{ type: 'string' }, { type: 'object' }] })).toBeUndefined();
    expect(toMcpOutputSchema({ $ref: '#/$defs/x' })).toBeUndefined();
    expect(toMcpOutputSchema({ type: ['object', 'null'] })).toBeUndefined();
  });

  it('converts each schema object once', () => {
    const schema = { type: 'string' };
    expect(toMcpOutputSchema(schema)).toBe(toMcpOutputSchema(schema));
  });
});
