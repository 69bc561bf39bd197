import { toFunctionCall } from './to-function-call';

const schema = { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] };

describe('toFunctionCall', () => {
  it('treats empty arguments as {}', () => {
    expect(toFunctionCall({ id: 'c', name: 'f', arguments: '' }, undefined)).toEqual({ id: 'c', name: 'f', args: {} });
    expect(toFunctionCall({ id: 'c', name: 'f', arguments: null }, undefined).args).toEqual({});
  });

  it('parses JSON and maps strict nulls back to absent', () => {
    expect(toFunctionCall({ id: 'c', name: 'f', arguments: '{"city":"Oslo","unit":null}' }, schema).args).toEqual({ city: 'Oslo' });
    expect(toFunctionCall({ id: 'c', name: 'f', arguments: '{"city":"Oslo","unit":null}' }, undefined).args).toEqual({ city: 'Oslo', unit: null });
  });

  it('passes malformed or non-object arguments on as raw text', () => {
    expect(toFunctionCall({ id: 'c', name: 'f', arguments: '{"city": "Os' }, schema).args).toBe('{"city": "Os');
    expect(toFunctionCall({ id: 'c', name: 'f', arguments: '[1,2]' }, schema).args).toBe('[1,2]');
  });

  it('takes arguments a compatible server sent as an object', () => {
    const raw = { id: 'c', name: 'f', arguments: { city: 'Oslo', unit: null } as unknown as string };
    expect(toFunctionCall(raw, schema).args).toEqual({ city: 'Oslo' });
  });

  it('keeps a number JSON cannot carry in object arguments, for the argument check to refuse (never null)', () => {
    const raw = { id: 'c', name: 'f', arguments: JSON.parse('{"city":"Oslo","n":[1,{"m":1e999}]}') as string };
    for (const strict of [schema, undefined]) expect((toFunctionCall(raw, strict).args as { n: [number, { m: number }] }).n[1].m).toBe(Infinity);
  });

  it('generates an id when the server sent none', () => {
    expect(toFunctionCall({ name: 'f', arguments: '{}' }, undefined).id).toMatch(/^call_/);
  });
});
