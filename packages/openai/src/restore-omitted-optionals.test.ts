import { restoreOmittedOptionals } from './restore-omitted-optionals';

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    unit: { type: 'string', enum: ['c', 'f'] },
    note: { type: ['string', 'null'] },
    where: { $ref: '#/$defs/Where' },
    stops: { type: 'array', items: { $ref: '#/$defs/Where' } },
    choice: { anyOf: [{ type: 'string' }, { type: 'object', properties: { x: { type: 'number' } } }] },
  },
  required: ['city'],
  $defs: { Where: { type: 'object', properties: { lat: { type: 'number' }, label: { type: 'string' } }, required: ['lat'] } },
};

describe('restoreOmittedOptionals', () => {
  it('removes nulls of optional properties, also of those that accept null (null is how strict mode says "left out")', () => {
    expect(restoreOmittedOptionals({ city: 'Paris', unit: null, note: null }, schema)).toEqual({ city: 'Paris' });
  });

  it('keeps nulls of required properties (validation then reports them)', () => {
    expect(restoreOmittedOptionals({ city: null }, schema)).toEqual({ city: null });
  });

  it('works through $ref, arrays and anyOf object branches', () => {
    expect(
      restoreOmittedOptionals(
        { city: 'x', where: { lat: 1, label: null }, stops: [{ lat: 2, label: null }, { lat: 3, label: 'b' }], choice: { x: null } },
        schema,
      ),
    ).toEqual({ city: 'x', where: { lat: 1 }, stops: [{ lat: 2 }, { lat: 3, label: 'b' }], choice: {} });
  });

  it('leaves unknown keys and non-objects alone and does not mutate the input', () => {
    const input = { city: 'x', extra: null, unit: null };
    expect(restoreOmittedOptionals(input, schema)).toEqual({ city: 'x', extra: null });
    expect(input).toEqual({ city: 'x', extra: null, unit: null });
    expect(restoreOmittedOptionals('text', schema)).toBe('text');
  });

  it('survives a self-referencing schema', () => {
    const loop = { $ref: '#' };
    expect(restoreOmittedOptionals({ a: 1 }, loop)).toEqual({ a: 1 });
  });
});
