import { runInNewContext } from 'node:vm';
import { type ArgumentLimits, parseArguments } from './argument-parser';
import { type JsonCopyRules, JsonBreach, copyJson, copyJsonArguments, jsonWalk } from './json-copy';

const LIMITS: ArgumentLimits = { maxChars: 1000, maxDepth: 8 };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

// The usual arguments (a plain object) are copied and measured by a loop of their own; these are the
// arguments it must copy, measure and refuse as the generic walk does, or leave to it.
describe('parseArguments: arguments given as an object', () => {
  it('measures the JSON text as the walk does: refused one character past the limit', () => {
    // `{"city":"Paris","n":12,"t":true}`: 32 characters.
    const args = { city: 'Paris', n: 12, t: true };
    expect(parseArguments('t', args, { maxChars: 32, maxDepth: 8 })).toEqual(args);
    expect(codeOf(() => parseArguments('t', args, { maxChars: 31, maxDepth: 8 }))).toBe('ARGUMENTS_TOO_LARGE');
  });

  it('copies: undefined left out, -0 as 0, nested objects and arrays new', () => {
    const nested = { list: [1, undefined] };
    const args = { gone: undefined, zero: -0, nested };
    const copy = parseArguments('t', args, LIMITS);
    expect(copy).toEqual({ zero: 0, nested: { list: [1, null] } });
    expect(Object.keys(copy)).toEqual(['zero', 'nested']);
    expect(Object.is(copy.zero, 0)).toBe(true);
    expect(copy).not.toBe(args);
    expect(copy.nested).not.toBe(nested);
    (copy.nested as { list: unknown[] }).list.push(2);
    expect(nested.list).toEqual([1, undefined]);
  });

  it('refuses the prototype-reaching keys, an own "__proto__" too, and what is not plain data', () => {
    expect(codeOf(() => parseArguments('t', JSON.parse('{"a":1,"__proto__":{}}') as Record<string, unknown>, LIMITS))).toBe('MALFORMED_ARGUMENTS');
    expect(() => parseArguments('t', { a: 'x', constructor: 'y' }, LIMITS)).toThrow(/the key "constructor" is not allowed/);
    expect(() => parseArguments('t', { a: 'x', n: NaN }, LIMITS)).toThrow(/must be plain JSON objects/);
    expect(() => parseArguments('t', { a: 'x', f: () => 1 }, LIMITS)).toThrow(/must be plain JSON objects/);
    expect(() => parseArguments('t', { a: 'x', d: new Date(0) }, LIMITS)).toThrow(/must be plain JSON objects/);
    class Args {
      city = 'Paris';
    }
    expect(() => parseArguments('t', new Args() as unknown as Record<string, unknown>, LIMITS)).toThrow(/must be plain JSON objects/);
    // Another realm's object is not plain to the argument rules (the model's calls reach here as this realm's copies).
    expect(() => parseArguments('t', runInNewContext("({ city: 'Paris' })") as Record<string, unknown>, LIMITS)).toThrow(/must be plain JSON objects/);
  });

  it('takes an object without a prototype, and refuses any object at a depth limit of 0', () => {
    const bare = Object.assign(Object.create(null) as object, { city: 'Paris' }) as Record<string, unknown>;
    const copy = parseArguments('t', bare, LIMITS);
    expect(copy).toEqual({ city: 'Paris' });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(codeOf(() => parseArguments('t', { city: 'Paris' }, { maxChars: 1000, maxDepth: 0 }))).toBe('ARGUMENTS_TOO_DEEP');
    expect(codeOf(() => parseArguments('t', { a: { b: {} } }, { maxChars: 1000, maxDepth: 2 }))).toBe('ARGUMENTS_TOO_DEEP');
  });

  it('reads a getter once and keeps what it answered', () => {
    let reads = 0;
    const args = {
      get city() {
        reads++;
        return reads === 1 ? 'Paris' : 'Rome';
      },
    };
    expect(parseArguments('t', args, LIMITS)).toEqual({ city: 'Paris' });
    expect(reads).toBe(1);
    const gets: string[] = [];
    const proxy = new Proxy({ city: 'Paris', n: 1 } as Record<string, unknown>, { get: (target, key, receiver) => (gets.push(String(key)), Reflect.get(target, key, receiver) as unknown) });
    expect(parseArguments('t', proxy, LIMITS)).toEqual({ city: 'Paris', n: 1 });
    expect(gets).toEqual(['city', 'n']);
  });

  it('measures arguments parsed inside a getter of others by their own walk', () => {
    // The inner parse (1,000 characters allowed) happens in the middle of the outer one (20 allowed).
    let inner: Record<string, unknown> | undefined;
    const outer = {
      a: 'x'.repeat(5),
      get b() {
        inner = parseArguments('inner', { long: 'y'.repeat(100) }, LIMITS);
        return 'z';
      },
    };
    // `{"a":"xxxxx","b":"z"}`: 21 characters.
    expect(codeOf(() => parseArguments('outer', outer, { maxChars: 20, maxDepth: 8 }))).toBe('ARGUMENTS_TOO_LARGE');
    expect(inner).toEqual({ long: 'y'.repeat(100) });
    expect(parseArguments('outer', outer, { maxChars: 21, maxDepth: 8 })).toEqual({ a: 'xxxxx', b: 'z' });
  });
});

describe('copyJsonArguments: what copyJson copies, measures and refuses', () => {
  const rules: JsonCopyRules = { values: 'plain', forbiddenKeys: new Set(['__proto__', 'constructor', 'prototype']) };
  const inputs: Array<[string, () => unknown]> = [
    ['strings', () => ({ city: 'Paris', unit: 'celsius' })],
    ['scalars', () => ({ n: 1.5, z: -0, t: true, f: false, nothing: null, gone: undefined })],
    ['nested', () => ({ a: { b: [1, 'two', { c: null }] }, d: [] })],
    ['empty', () => ({})],
    ['no prototype', () => Object.assign(Object.create(null) as object, { k: 'v' })],
    ['own __proto__', () => JSON.parse('{"a":"x","__proto__":"y"}') as unknown],
    ['a key after the size', () => ({ long: 'x'.repeat(50), prototype: 1 })],
    ['too large', () => ({ long: 'x'.repeat(200) })],
    ['a BigInt', () => ({ a: 'x', big: 1n })],
    ['an array', () => [1, 2]],
    ['a string', () => 'text'],
    ['a class instance', () => new (class { a = 1; })()],
  ];
  it.each(inputs)('%s', (_name, make) => {
    for (const [maxDepth, maxChars] of [[8, 100], [1, 100], [0, 100], [8, 20]]) {
      const fast = jsonWalk(maxDepth, maxChars);
      const walked = jsonWalk(maxDepth, maxChars);
      const copy = copyJsonArguments(make(), rules, fast);
      const expected = copyJson(make(), rules, walked);
      if (expected instanceof JsonBreach) expect(copy).toEqual(expected);
      else expect(copy).toStrictEqual(expected);
      expect([fast.chars, fast.stringChars]).toEqual([walked.chars, walked.stringChars]);
    }
  });
});
