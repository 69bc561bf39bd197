import type { JsonSchema } from '@toolsmith/core';
import { toElicitationSchema } from './elicitation-form';

describe('toElicitationSchema: a payloadSchema as an MCP elicitation form', () => {
  it('sends the fields as written (every enum kind of SEP-1330, defaults of SEP-1034), without the root keywords a form has no place for', () => {
    const properties = {
      name: { type: 'string', default: 'John Doe', minLength: 1, format: 'email' },
      age: { type: 'integer', minimum: 0, default: 30 },
      verified: { type: 'boolean', default: true },
      plain: { type: 'string', enum: ['a', 'b'] },
      titled: { type: 'string', oneOf: [{ const: 'a', title: 'A' }] },
      legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] },
      many: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 },
      manyTitled: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] } },
    };
    const form = toElicitationSchema('t', { type: 'object', title: 'T', additionalProperties: false, properties, required: ['name'] });
    expect(form).toEqual({ type: 'object', properties, required: ['name'] });
  });

  it.each<[string, JsonSchema, string]>([
    ['a root that is not an object', { type: 'string' }, 'it is not an object schema with "properties"'],
    ['a root keyword', { type: 'object', properties: {}, allOf: [] }, 'its root has "allOf"'],
    ['a nested object', { type: 'object', properties: { a: { type: 'object' } } }, 'field "a" is not a string, number, integer, boolean or multi-select'],
    ['a pattern', { type: 'object', properties: { a: { type: 'string', pattern: 'x' } } }, 'field "a" has "pattern"'],
    ['a $ref', { type: 'object', properties: { a: { $ref: '#/$defs/x' } } }, 'field "a" is not a string'],
    ['another format', { type: 'object', properties: { a: { type: 'string', format: 'ipv4' } } }, 'field "a" has format "ipv4"'],
    ['enumNames that do not match', { type: 'object', properties: { a: { type: 'string', enum: ['x', 'y'], enumNames: ['X'] } } }, 'field "a" has "enumNames"'],
    ['an array of free text', { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }, 'field "a" is an array whose "items"'],
  ])('refuses %s (MCP_FORM_UNSUPPORTED, naming it)', (_what, schema, reason) => {
    expect(() => toElicitationSchema('order', schema)).toThrow(expect.objectContaining({ code: 'MCP_FORM_UNSUPPORTED', message: expect.stringContaining(reason) }));
  });
});
