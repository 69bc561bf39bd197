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
  ])('says %j of %j in words that agree with the number', (schema, value, message) => {
    expect(problemsOf(schema, value)).toEqual([message]);
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
