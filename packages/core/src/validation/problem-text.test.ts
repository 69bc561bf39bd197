import { readablePath } from './problem-text';
import { toArgumentProblems, validatorFor } from './schema-validator';

describe('problem text', () => {
  function problemsOf(schema: Record<string, unknown>, value: unknown): string[] {
    const validate = validatorFor({ type: 'object', properties: { v: schema }, required: ['v'] });
    expect(validate({ v: value })).toBe(false);
    return toArgumentProblems(validate.errors, { v: value }).map((problem) => problem.message);
  }

  it.each([
    [{ type: 'string', minLength: 1 }, '', 'v: got "", expected at least 1 character'],
    [{ type: 'string', minLength: 3 }, 'ab', 'v: got "ab", expected at least 3 characters'],
    [{ type: 'string', maxLength: 1 }, 'ab', 'v: got "ab", expected at most 1 character'],
    [{ type: 'array', minItems: 1 }, [], 'v: got [], expected at least 1 item'],
    [{ type: 'array', maxItems: 2 }, [1, 2, 3], 'v: got [1,2,3], expected at most 2 items'],
    [{ type: 'object', minProperties: 1 }, {}, 'v: got {}, expected at least 1 property'],
    [{ type: 'object', maxProperties: 1 }, { a: 1, b: 2 }, 'v: got {"a":1,"b":2}, expected at most 1 property'],
    // ajv's "must NOT be valid" (class-validator's @IsNotEmpty, @NotEquals, @IsNotIn) said in what it means.
    [{ not: { const: '' } }, '', 'v: got "", expected any value but this one'],
  ])('says %j of %j in words that agree with the number', (schema, value, message) => {
    expect(problemsOf(schema, value)).toEqual([message]);
  });

  it('echoes each received value as JSON writes it, cut at 60 characters', () => {
    const values: unknown[] = ['plain', 'a"b', 'a\\b', 'line\nbreak', '\u0001', '\ud800', '😀', 'x'.repeat(57), 'x'.repeat(58), 'x'.repeat(59), 1e21, -0, 1.5, -7, true, false, null];
    for (const value of values) {
      const json = JSON.stringify(value);
      const echoed = json.length > 60 ? `${json.slice(0, 59)}…` : json;
      expect(problemsOf({ enum: ['zz'] }, value)).toEqual([`v: got ${echoed}, expected one of "zz"`]);
    }
  });

  it("merges each union's alternatives at one path into one problem, for every union path of the call", () => {
    const union = { anyOf: [{ type: 'string' }, { type: 'integer' }, { enum: [false] }] };
    const validate = validatorFor({ type: 'object', properties: { a: union, b: union, c: { type: 'string' } } });
    const value = { a: true, c: 1, b: 1.5 };
    expect(validate(value)).toBe(false);
    expect(toArgumentProblems(validate.errors, value).map((problem) => problem.message)).toEqual([
      'a: got true, expected string or integer or one of false',
      'b: got 1.5, expected string or integer or one of false',
      'c: got 1, expected string',
    ]);
  });

  it('names paths with escaped keys (`~1` is `/`, `~0` is `~`), array indexes and the value found there', () => {
    const validate = validatorFor({
      type: 'object',
      properties: { 'a/b': { type: 'object', properties: { '~x': { type: 'array', items: { type: 'integer' } } } } },
      additionalProperties: false,
    });
    const value = { 'a/b': { '~x': [1, 'two'] }, 'c/d~': 1 };
    expect(validate(value)).toBe(false);
    expect(toArgumentProblems(validate.errors, value)).toEqual([
      { path: '/c~1d~0', keyword: 'additionalProperties', message: 'c/d~: unknown property, expected it left out' },
      { path: '/a~1b/~0x/1', keyword: 'type', message: 'a/b.~x[1]: got "two", expected integer' },
    ]);
    expect([readablePath(''), readablePath('/lines/0/qty'), readablePath('/0/12x/3', 'output'), readablePath('/a//b'), readablePath('/~01')]).toEqual([
      'arguments',
      'lines[0].qty',
      '[0].12x[3]',
      'a..b',
      '~1',
    ]);
  });
});
