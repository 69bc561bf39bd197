import { runInNewContext } from 'node:vm';
import { DEFAULT_ARGUMENT_LIMITS } from '../validation/argument-parser';
import { argsAsObject, argsFromJsonText, argsFromJsonValue } from './function-call-args';

describe('argsFromJsonText', () => {
  it.each([
    ['', {}],
    ['  ', {}],
    ['{"city":"Paris","days":[1,2]}', { city: 'Paris', days: [1, 2] }],
    ['{"city": "Pa', '{"city": "Pa'],
    ['[1,2]', '[1,2]'],
    ['null', 'null'],
    ['"text"', '"text"'],
  ])('maps %j to %j', (text, expected) => {
    expect(argsFromJsonText(text)).toEqual(expected);
  });
});

describe('argsFromJsonValue', () => {
  it('copies objects into plain objects of this realm', () => {
    const foreign = runInNewContext('({ city: "Paris", nested: { a: [1] } })') as Record<string, unknown>;
    expect(Object.getPrototypeOf(foreign)).not.toBe(Object.prototype);
    const args = argsFromJsonValue(foreign) as Record<string, unknown>;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(args.nested)).toBe(Object.prototype);
    expect(args).toEqual({ city: 'Paris', nested: { a: [1] } });
  });

  it('leaves an object that is not plain data as it is, for the argument check to refuse: JSON would make null of Infinity', () => {
    const sdkParsed = JSON.parse('{"n":[1,{"m":-1e999}]}') as Record<string, unknown>;
    const fromAnotherRealm = runInNewContext('({ n: 1e999 })') as Record<string, unknown>;
    const withFunction = { n: 1, f: () => 1 };
    const withToJson = { when: new Date(0) };
    for (const value of [sdkParsed, fromAnotherRealm, withFunction, withToJson]) expect(argsFromJsonValue(value)).toBe(value);
    // Undefined members are dropped, as JSON drops them.
    expect(argsFromJsonValue({ a: 1, b: undefined })).toStrictEqual({ a: 1 });
  });

  it('hands arguments that throw when read (a getter, a revoked Proxy) on as they are, for the argument check to refuse: never throws', () => {
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    const getter = { get n(): number { throw new Error('boom'); } };
    const holding = { nested: revocable.proxy };
    for (const value of [getter, holding, revocable.proxy]) expect(argsFromJsonValue(value)).toBe(value);
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(argsFromJsonValue(cycle)).toBe('[]');
    expect(argsFromJsonValue(10n)).toBe('10');
    expect(argsFromJsonValue(Symbol('s'))).toBe('Symbol(s)');
  });

  it('copies no more than the default argument limits allow: larger arguments go on as they are, for the argument check and the run\'s limits', () => {
    const wide = { list: new Array<number>(DEFAULT_ARGUMENT_LIMITS.maxChars).fill(0) };
    expect(argsFromJsonValue(wide)).toBe(wide);
    const within = { list: new Array<number>(1000).fill(0) };
    expect(argsFromJsonValue(within)).not.toBe(within);
    expect(argsFromJsonValue(within)).toEqual(within);
  });

  it('turns non-objects into JSON text for the executor to report, and a missing value into {}', () => {
    expect(argsFromJsonValue('oops')).toBe('"oops"');
    expect(argsFromJsonValue([1])).toBe('[1]');
    expect(argsFromJsonValue(null)).toBe('null');
    expect(argsFromJsonValue(undefined)).toEqual({});
  });
});

describe('argsAsObject', () => {
  it('keeps objects, parses JSON text, and makes {} of text that is no object', () => {
    const args = { city: 'Paris' };
    expect(argsAsObject(args)).toBe(args);
    expect(argsAsObject('{"city":"Paris"}')).toEqual({ city: 'Paris' });
    expect(argsAsObject('')).toEqual({});
    expect(argsAsObject('{"city": "Pa')).toEqual({});
    expect(argsAsObject('[1]')).toEqual({});
  });
});
