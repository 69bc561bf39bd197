import { runInNewContext } from 'node:vm';
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
