import { runInNewContext } from 'node:vm';
import { InvalidToolResultError } from '../errors/tool-call-errors';
import { inspectResult } from './result-budget';

// The usual result (a `{}` object with no `toJSON`) is copied and measured by a loop of its own; these are
// the results it must copy and measure as the generic walk does, or leave to it.
describe('inspectResult: the usual result and what it falls back from', () => {
  it('bounds the JSON text from above as the walk does: the text is made only past the budget', () => {
    // `{"a":"bc","n":12,"t":true}`: 26 characters, 5 of them in strings and keys (each may take 6 escaped).
    const result = { a: 'bc', n: 12, t: true };
    expect(inspectResult('t', result, 26 + 5 * 5)).toEqual({ response: result });
    expect(inspectResult('t', result, 26 + 5 * 5 - 1)).toEqual({ response: result, text: JSON.stringify(result) });
  });

  it('copies members as JSON takes them: undefined left out, -0 as 0, nested objects copied, an own "__proto__" a key', () => {
    const nested = { list: [1, undefined] };
    const { response } = inspectResult('t', JSON.parse('{"__proto__":"x","a":1}') as Record<string, unknown>, 1000);
    expect(Object.getPrototypeOf(response)).toBe(Object.prototype);
    expect(Object.keys(response)).toEqual(['__proto__', 'a']);
    const copy = inspectResult('t', { gone: undefined, zero: -0, nested }, 1000).response;
    expect(copy).toEqual({ zero: 0, nested: { list: [1, null] } });
    expect(Object.keys(copy)).toEqual(['zero', 'nested']);
    expect(Object.is(copy.zero, 0)).toBe(true);
    expect(copy.nested).not.toBe(nested);
  });

  it('refuses what JSON cannot carry, naming its key', () => {
    expect(() => inspectResult('t', { ok: 'x', total: 10n }, 1000)).toThrow(/the value of "total" is a BigInt/);
    expect(() => inspectResult('t', { ok: 'x', n: NaN }, 1000)).toThrow(/the value of "n" is NaN/);
  });

  it('reads a getter once and keeps what it answered; one that throws refuses the result', () => {
    let reads = 0;
    const result = {
      get report() {
        reads++;
        return reads === 1 ? 'first' : 'second';
      },
    };
    expect(inspectResult('t', result, 1000).response).toEqual({ report: 'first' });
    expect(reads).toBe(1);
    const throwing = { get report(): string { throw new Error('no'); } };
    expect(() => inspectResult('t', throwing, 1000)).toThrow(InvalidToolResultError);
    expect(() => inspectResult('t', throwing, 1000)).toThrow(/reading it failed \(no\)/);
  });

  it('reads a Proxy once per member', () => {
    const gets: string[] = [];
    const result = new Proxy({ status: 'ok' } as Record<string, unknown>, { get: (target, key, receiver) => (gets.push(String(key)), Reflect.get(target, key, receiver) as unknown) });
    expect(inspectResult('t', result, 1000).response).toEqual({ status: 'ok' });
    // `toJSON` asked for first, as JSON.stringify does, then each member once.
    expect(gets).toEqual(['toJSON', 'status']);
  });

  it('applies an own or inherited toJSON, takes a class instance and another realm\'s object by their own members', () => {
    expect(inspectResult('t', { toJSON: () => ({ a: 1 }) }, 1000).response).toEqual({ a: 1 });
    expect(inspectResult('t', { toJSON: () => 'text' }, 1000).response).toEqual({ result: 'text' });
    class Report {
      status = 'ok';
      get computed(): string {
        return 'not own';
      }
    }
    const copy = inspectResult('t', new Report() as unknown as Record<string, unknown>, 1000).response;
    expect(copy).toEqual({ status: 'ok' });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    const inherited = Object.assign(Object.create({ toJSON: () => ({ b: 2 }) }) as object, { a: 1 });
    expect(inspectResult('t', inherited as Record<string, unknown>, 1000).response).toEqual({ b: 2 });
    expect(inspectResult('t', Object.assign(Object.create(null) as object, { a: 1 }) as Record<string, unknown>, 1000).response).toEqual({ a: 1 });
    const foreign = runInNewContext("({ status: 'ok', n: -0 })") as Record<string, unknown>;
    const fromThere = inspectResult('t', foreign, 1000).response;
    expect(Object.getPrototypeOf(fromThere)).toBe(Object.prototype);
    expect(fromThere).toEqual({ status: 'ok', n: 0 });
    expect(() => inspectResult('t', new Map() as unknown as Record<string, unknown>, 1000)).toThrow(/is a Map/);
  });
});

describe('inspectResult: toJSON as JSON.stringify applies it', () => {
  it.each([
    ['is inherited and returns itself', new (class Row { a = 1; toJSON() { return this; } })()],
    ['returns an object whose members have a toJSON', { toJSON: () => ({ when: new Date(0), n: 1 }) }],
    ['returns a boxed number', { toJSON: () => Object(5) as object }],
  ])('applies a toJSON that %s once, as JSON.stringify does', (_what, result) => {
    const { response } = inspectResult('t', result as unknown as Record<string, unknown>, 1000);
    const json = JSON.parse(JSON.stringify(result)) as unknown;
    expect(response).toEqual(typeof json === 'object' && json !== null && !Array.isArray(json) ? json : { result: json });
  });

  it.each([
    ['returns a copy of itself', { a: 1, toJSON(this: object) { return { ...this, extra: 2 }; } }],
    ['returns itself', { a: 1, toJSON(this: object) { return this; } }],
    ['returns an object with a toJSON of its own', { toJSON: () => ({ d: 1, toJSON: () => 'second' }) }],
  ])('refuses what a toJSON that %s holds, a function, naming it (never calls it again, never "circular")', (_what, result) => {
    expect(() => inspectResult('t', result, 1000)).toThrow('the value of "toJSON" is a function');
  });

  it("applies an array's toJSON (its own or a subclass's), at the top and nested, as JSON does", () => {
    const list = Object.assign([1, 2], { toJSON: () => 'summary' });
    expect(inspectResult('t', { list } as Record<string, unknown>, 1000).response).toEqual({ list: 'summary' });
    class Rows extends Array<number> {
      toJSON() {
        return { count: this.length };
      }
    }
    const rows = Rows.from([1, 2, 3]);
    expect(inspectResult('t', rows as unknown as Record<string, unknown>, 1000).response).toEqual(JSON.parse(JSON.stringify(rows)));
    expect(inspectResult('t', { rows } as Record<string, unknown>, 1000).response).toEqual({ rows: { count: 3 } });
  });

  it('reads toJSON once: the function it answered is the one called', () => {
    let reads = 0;
    const result = {
      a: 1,
      get toJSON() {
        reads++;
        return reads === 1 ? () => ({ b: 2 }) : undefined;
      },
    };
    expect(inspectResult('t', result, 1000)).toEqual({ response: { b: 2 } });
    expect(reads).toBe(1);
    let nestedReads = 0;
    const nested = { row: { get toJSON() { nestedReads++; return nestedReads === 1 ? () => 'r' : undefined; } } };
    expect(inspectResult('t', nested, 1000)).toEqual({ response: { row: 'r' } });
    expect(nestedReads).toBe(1);
  });
});

describe("inspectResult: another realm's boxed values, Map and Set", () => {
  it('takes a boxed string, number or boolean as its primitive, as JSON does', () => {
    const boxed = runInNewContext('({ s: new String("hello"), n: new Number(5), b: new Boolean(false) })') as Record<string, unknown>;
    expect(inspectResult('t', boxed, 1000).response).toEqual({ s: 'hello', n: 5, b: false });
    expect(inspectResult('t', boxed, 1000).response).toEqual(JSON.parse(JSON.stringify(boxed)));
  });

  it.each([
    ['Map', 'new Map([["a", 1]])', /is a Map/],
    ['Set', 'new Set([1])', /is a Set/],
    ['boxed BigInt', 'Object(1n)', /is a BigInt/],
    ['boxed symbol', 'Object(Symbol("s"))', /is a symbol/],
  ])("refuses another realm's %s as this realm's", (_what, code, problem) => {
    expect(() => inspectResult('t', { v: runInNewContext(code) as unknown }, 1000)).toThrow(problem);
  });

  it('refuses a Proxy of a Map or a Set, as before', () => {
    expect(() => inspectResult('t', { v: new Proxy(new Map([['a', 1]]), {}) }, 1000)).toThrow(/the value of "v" is a Map/);
    expect(() => inspectResult('t', { v: new Proxy(new Set([1]), {}) }, 1000)).toThrow(/the value of "v" is a Set/);
  });

  it("refuses this realm's boxed BigInt and symbol too", () => {
    expect(() => inspectResult('t', { v: Object(1n) as object }, 1000)).toThrow(/the value of "v" is a BigInt/);
    expect(() => inspectResult('t', { v: Object(Symbol('s')) as object }, 1000)).toThrow(/the value of "v" is a symbol/);
  });
});

describe('inspectResult: what stands for a value in JSON is found before its depth is checked', () => {
  const nest = (depth: number, leaf: unknown): Record<string, unknown> => {
    let value: Record<string, unknown> = { leaf };
    for (let level = 1; level < depth; level++) value = { next: value };
    return value;
  };

  it.each([
    ['a Date', new Date(0)],
    ['a toJSON returning a number', { toJSON: () => 7 }],
    ['a boxed string', Object('s') as object],
    ["an array's toJSON returning text", Object.assign([1], { toJSON: () => 'x' })],
  ])('takes %s at the deepest level, as a string there is taken', (_what, leaf) => {
    expect(() => inspectResult('t', nest(512, 'plain'), 100_000)).not.toThrow();
    expect(inspectResult('t', nest(512, leaf), 100_000).response).toEqual(JSON.parse(JSON.stringify(nest(512, leaf))));
  });

  it('still refuses an object one level too deep', () => {
    expect(() => inspectResult('t', nest(512, { a: 1 }), 100_000)).toThrow(/nested deeper than 512 levels/);
  });

  it("refuses a Proxy of another realm's Map or Set", () => {
    expect(() => inspectResult('t', { m: new Proxy(runInNewContext('new Map([[1, 2]])') as object, {}) }, 1000)).toThrow(/the value of "m" is a Map/);
    expect(() => inspectResult('t', { s: new Proxy(runInNewContext('new Set([1])') as object, {}) }, 1000)).toThrow(/the value of "s" is a Set/);
  });
});

describe("inspectResult: a class instance's own tag", () => {
  it('is never read, and never makes it a Map: it is copied by its members, as JSON does', () => {
    let reads = 0;
    class Registry {
      name = 'r';
      count = 2;
      get [Symbol.toStringTag]() {
        reads++;
        return 'Map';
      }
    }
    expect(inspectResult('t', { v: new Registry() } as Record<string, unknown>, 1000).response).toEqual({ v: { name: 'r', count: 2 } });
    expect(reads).toBe(0);
  });
});
