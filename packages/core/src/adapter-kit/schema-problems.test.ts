import { schemaProblems } from './schema-problems';

describe('schemaProblems', () => {
  const schema = {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
    required: ['city'],
  };

  it('finds nothing wrong with a conforming value', () => {
    expect(schemaProblems(schema, { city: 'Paris', days: 2 })).toEqual([]);
  });

  it('describes each mismatch in a readable sentence, with its path', () => {
    const problems = schemaProblems(schema, { days: 0 });
    expect(problems.map((problem) => problem.message)).toEqual(['city: missing, expected a value (required)', 'days: got 0, expected >= 1']);
    expect(problems[1].path).toBe('/days');
  });

  it('understands draft 2020-12 ($defs and $ref)', () => {
    const withDefs = { $defs: { day: { type: 'integer' } }, type: 'array', items: { $ref: '#/$defs/day' } };
    expect(schemaProblems(withDefs, [1, 2])).toEqual([]);
    expect(schemaProblems(withDefs, [1, 'x'])).toHaveLength(1);
  });

  it('throws for a schema ajv cannot compile', () => {
    expect(() => schemaProblems({ type: 'no-such-type' }, 1)).toThrow();
  });
});
