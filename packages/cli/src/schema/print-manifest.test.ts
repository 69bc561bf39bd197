import { typeText } from './print-manifest';

describe('typeText', () => {
  it.each([
    [{ type: 'string' }, 'string'],
    [{ type: ['string', 'null'] }, 'string | null'],
    [{ type: ['null', 'string'] }, 'string | null'], // as TypeScript 7 may emit it: printed the way code writes it
    [{ anyOf: [{ type: 'null' }, { type: 'number' }] }, 'number | null'],
    [{ type: 'string', format: 'date-time' }, 'Date (date-time string)'],
    [{ enum: ['a', 1, null] }, '"a" | 1 | null'],
    [{ const: 'x' }, '"x"'],
    [{ anyOf: [{ type: 'number' }, { type: 'object', properties: { a: { type: 'boolean' } }, required: ['a'] }] }, 'number | { a: boolean }'],
    [{ type: 'array', items: { enum: ['a', 'b'] } }, '("a" | "b")[]'],
    [{ type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } }, '{ a?: string }[]'],
    [{ type: 'array' }, 'unknown[]'],
    [{ type: 'object', additionalProperties: { type: 'number' } }, 'Record<string, number>'],
    [{ type: 'object' }, 'object'],
    [{ $ref: '#/$defs/Category' }, 'Category'],
    [{}, 'unknown'],
    [true, 'any'],
  ])('%j reads as %s', (schema, text) => {
    expect(typeText(schema as never)).toBe(text);
  });
});
