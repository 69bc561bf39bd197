import { types } from 'node:util';
import { jsonScalarChars } from './json-chars';

/** What a value breaks: the depth or size limit of its walk, a forbidden key, or JSON itself. */
export type JsonBreachKind = 'depth' | 'size' | 'key' | 'not-json';

/**
 * Why {@link copyJson} made no copy. `key` is where: the key (or array index, as text) holding the bad
 * value, `''` for the value walked itself; for a `key` breach, the forbidden key. `what` says what the
 * bad value is (`is a BigInt (…)`), for a `not-json` breach.
 */
export class JsonBreach {
  constructor(
    readonly kind: JsonBreachKind,
    readonly key: string,
    readonly what: string = '',
  ) {}
}

/** How a walk takes what it finds. Made once (module constants), never per walk. */
export interface JsonCopyRules {
  /**
   * `plain`: only plain data is copied: arrays, objects made by `{}`, JSON.parse or `Object.create(null)`,
   * strings, finite numbers, booleans, `null`; anything else (a class instance, a function such as an own
   * `toJSON`, a symbol, a BigInt, `NaN` or `±Infinity`) is `not-json`. `as-json`: values are taken as
   * `JSON.stringify` takes them (each `toJSON` applied, a boxed primitive as its primitive, another class
   * instance by its own members), and what JSON would drop, change or refuse is `not-json`: a function, a
   * symbol, a BigInt, a non-finite number, a `Map` or `Set`, and what `refuse` names. Under both, `-0` is
   * copied as `0`, as JSON writes it.
   */
  readonly values: 'plain' | 'as-json';
  /**
   * `plain`: an object made by another realm's `{}` or JSON.parse is plain too (an SDK may parse a
   * response with the `fetch` of another realm); the copy is this realm's.
   */
  readonly anyRealm?: boolean;
  /** Keys refused wherever they appear (a `key` breach). */
  readonly forbiddenKeys?: ReadonlySet<string>;
  /** `as-json`: why a class instance is refused (`is a file (…)`), or `undefined` to take it. */
  readonly refuse?: (value: object) => string | undefined;
}

/**
 * One walk's limits and measure. `chars` counts the characters of the copy's JSON text: brackets,
 * commas, colons, each key and string with its two quotes (escapes not counted), each number as JSON
 * writes it, `true`, `false` or `null`; `stringChars` the characters of its strings and keys alone (each
 * may take up to six when escaped, so `chars + 5 × stringChars` bounds the escaped text from above).
 */
export interface JsonWalk {
  /** Deepest nesting of objects and arrays: an object or array deeper than this is a `depth` breach. */
  readonly maxDepth: number;
  /** Most `chars` may reach: past it is a `size` breach (the walk stops there). `Infinity`: measured only. */
  readonly maxChars: number;
  chars: number;
  stringChars: number;
}

/** A new walk's measure. */
export function jsonWalk(maxDepth: number, maxChars: number): JsonWalk {
  return { maxDepth, maxChars, chars: 0, stringChars: 0 };
}

/**
 * `walk` (one whose walk is over, which nothing reads any more) made a new walk's measure again, or a new
 * walk when there is none: for a caller that walks once per call, one after another, and keeps its walk.
 */
export function renewedJsonWalk(walk: JsonWalk | undefined, maxDepth: number, maxChars: number): JsonWalk {
  if (!walk) return jsonWalk(maxDepth, maxChars);
  const renewed = walk as { maxDepth: number; maxChars: number; chars: number; stringChars: number };
  renewed.maxDepth = maxDepth;
  renewed.maxChars = maxChars;
  renewed.chars = 0;
  renewed.stringChars = 0;
  return walk;
}

/**
 * `value` copied as plain JSON data, in one walk that reads each member once (a getter or a Proxy is
 * read once, and what it answered is what the copy holds), measured into `walk` (`value` at `depth`;
 * its members one deeper); or the first {@link JsonBreach} it finds, where the walk stops. The copy
 * shares no object with `value`: strings, numbers and booleans are immutable, every object and array is
 * new. Members whose value is `undefined` are left out and `undefined` array items become `null`, as in
 * JSON; an own `__proto__` key (JSON.parse makes them) stays a key, never the copy's prototype. A
 * getter, Proxy trap or `toJSON` that throws throws here.
 */
export function copyJson(value: unknown, rules: JsonCopyRules, walk: JsonWalk, depth = 1): unknown {
  try {
    return copyValue(value, '', depth, rules, walk);
  } catch (thrown) {
    if (thrown instanceof JsonBreach) return thrown;
    throw thrown;
  }
}

/**
 * A shallow copy of `object`'s own enumerable members, each read once, leaving out those whose value is
 * `undefined`; the values are still `object`'s own. For a walk that reads a few levels by hand before
 * copying what they hold: {@link copyMembers} then copies and measures them.
 */
export function ownMembers(object: object): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  for (const name in object) {
    if (!Object.prototype.hasOwnProperty.call(object, name)) continue;
    const member = (object as Record<string, unknown>)[name];
    if (member !== undefined) setMember(own, name, member);
  }
  return own;
}

/**
 * Copies each member of `own` (made by {@link ownMembers}) in place and measures `own` as an object at
 * `depth`, as {@link copyJson} would have. Returns `own`, or the first breach.
 */
export function copyMembers(own: Record<string, unknown>, rules: JsonCopyRules, walk: JsonWalk, depth: number): Record<string, unknown> | JsonBreach {
  try {
    if (depth > walk.maxDepth) throw new JsonBreach('depth', '');
    let entries = 0;
    for (const name in own) {
      // `own`'s own keys only: a member an enumerable `Object.prototype` member lends it is not the data's.
      if (!Object.prototype.hasOwnProperty.call(own, name)) continue;
      if (rules.forbiddenKeys?.has(name)) throw new JsonBreach('key', name);
      entries++;
      walk.stringChars += name.length;
      spend(walk, name.length + 3);
      setMember(own, name, copyValue(own[name], name, depth + 1, rules, walk));
    }
    spend(walk, entries === 0 ? 2 : entries + 1);
    return own;
  } catch (thrown) {
    if (thrown instanceof JsonBreach) return thrown;
    throw thrown;
  }
}

/**
 * True for an array or a plain object (made by `{}`, JSON.parse or `Object.create(null)`): what the
 * `plain` rules copy by its members (an own `toJSON` is a function member, which they refuse).
 */
export function isPlainData(value: object): boolean {
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * True for a realm's `Object.prototype` (this one's or another's: a `vm` context, jest's test environment,
 * whose `{}`, JSON.parse and structuredClone make objects as plain as this realm's): it has no prototype,
 * and its `constructor` is that realm's `Object`. False, never a throw, for a Proxy whose traps throw.
 */
export function isObjectPrototype(prototype: unknown): boolean {
  if (typeof prototype !== 'object' || prototype === null) return false;
  try {
    if (Object.getPrototypeOf(prototype) !== null) return false;
    const made = Object.getOwnPropertyDescriptor(prototype, 'constructor')?.value as unknown;
    return typeof made === 'function' && made.name === 'Object' && (made as { prototype?: unknown }).prototype === prototype;
  } catch {
    return false;
  }
}

/**
 * `Map` or `Set` when `value` is one: by its internal slots (another realm's too), by this realm's prototype,
 * or by its tag (a Proxy of another realm's, which has no slots and another realm's prototype).
 */
function collectionKind(value: object): 'Map' | 'Set' | undefined {
  if (types.isMap(value) || value instanceof Map) return 'Map';
  if (types.isSet(value) || value instanceof Set) return 'Set';
  // Only a Proxy is asked its tag: a class instance's own tag getter is never called (JSON does not read it).
  if (!types.isProxy(value)) return undefined;
  const tag = Object.prototype.toString.call(value);
  return tag === '[object Map]' ? 'Map' : tag === '[object Set]' ? 'Set' : undefined;
}

/** What {@link boxedPrimitive} answers for an object that boxes no primitive. */
const NOT_BOXED = Symbol('not boxed');

/**
 * The primitive a boxed string, number or boolean holds (JSON writes `new Number(3)` as `3`), read from its
 * internal slot as JSON reads it: of this realm or another's, with no member of it read. A boxed BigInt or
 * symbol is refused, as their primitives are. {@link NOT_BOXED} for any other object.
 */
function boxedPrimitive(value: object, key: string): unknown {
  if (!types.isBoxedPrimitive(value)) return NOT_BOXED;
  if (types.isNumberObject(value)) return Number.prototype.valueOf.call(value);
  if (types.isStringObject(value)) return String.prototype.valueOf.call(value);
  if (types.isBooleanObject(value)) return Boolean.prototype.valueOf.call(value);
  if (types.isBigIntObject(value)) throw new JsonBreach('not-json', key, 'is a BigInt (return it as a string or a number)');
  throw new JsonBreach('not-json', key, 'is a symbol');
}

function spend(walk: JsonWalk, chars: number): void {
  if ((walk.chars += chars) > walk.maxChars) throw new JsonBreach('size', '');
}

/** Sets `copy[name]`, as an own key even when `name` is `__proto__` (never the copy's prototype). */
export function setMember(copy: Record<string, unknown>, name: string, member: unknown): void {
  if (name === '__proto__') Object.defineProperty(copy, name, { value: member, enumerable: true, writable: true, configurable: true });
  else copy[name] = member;
}

function copyValue(value: unknown, key: string, depth: number, rules: JsonCopyRules, walk: JsonWalk): unknown {
  switch (typeof value) {
    case 'string':
      walk.stringChars += value.length;
      if ((walk.chars += value.length + 2) > walk.maxChars) throw new JsonBreach('size', '');
      return value;
    case 'number':
      // JSON has no NaN or Infinity (JSON.stringify writes null) under either rules; its -0 is 0.
      if (!Number.isFinite(value)) throw new JsonBreach('not-json', key, `is ${value} (JSON has no such number)`);
      spend(walk, jsonScalarChars(value));
      return value === 0 ? 0 : value;
    case 'boolean':
      spend(walk, value ? 4 : 5);
      return value;
    case 'undefined':
      return undefined;
    case 'function':
    case 'symbol':
      throw new JsonBreach('not-json', key, `is a ${typeof value}`);
    case 'bigint':
      throw new JsonBreach('not-json', key, 'is a BigInt (return it as a string or a number)');
    default:
      if (value === null) {
        spend(walk, 4);
        return null;
      }
      return copyObject(value as object, key, depth, rules, walk);
  }
}

/**
 * What a `toJSON` returned for the value at `key`, copied as JSON takes it: in that value's place (at its
 * depth), with no `toJSON` of its own applied again (JSON.stringify applies one per value; a `toJSON` that
 * returns `{ ...this }` or `this` is then copied, never called again until the walk overflows).
 */
function copyToJSONResult(result: unknown, key: string, depth: number, rules: JsonCopyRules, walk: JsonWalk): unknown {
  if (typeof result !== 'object' || result === null) return copyValue(result, key, depth, rules, walk);
  return copyObject(result, key, depth, rules, walk, true);
}

/**
 * `applied`: `value` is what a `toJSON` returned, whose own `toJSON` is not applied (see {@link copyToJSONResult}).
 * Under `as-json` rules, what stands for the value in JSON (what its `toJSON` returns, a boxed value's
 * primitive) is found before the depth is checked: a `Date` at the deepest level is its string, as in JSON.
 */
function copyObject(value: object, key: string, depth: number, rules: JsonCopyRules, walk: JsonWalk, applied = false): unknown {
  if (rules.values === 'as-json' && !applied) {
    // An array's `toJSON` (its own, or a subclass's) applies as an object's does; read once, the function read is the one called.
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return copyToJSONResult((toJSON as (key: string) => unknown).call(value, key), key, depth, rules, walk);
  }
  if (Array.isArray(value)) {
    if (depth > walk.maxDepth) throw new JsonBreach('depth', key);
    // The length read once: `[`, `]` and a comma between items, spent before anything is made.
    const length = value.length;
    spend(walk, length === 0 ? 2 : length + 1);
    const array: unknown[] = new Array(length);
    for (let index = 0; index < length; index++) {
      const item = copyValue(value[index], rules.values === 'as-json' ? String(index) : '', depth + 1, rules, walk);
      if (item === undefined) {
        spend(walk, 4);
        array[index] = null;
      } else {
        array[index] = item;
      }
    }
    return array;
  }
  return copyObjectOf(value, Object.getPrototypeOf(value), key, depth, rules, walk, true);
}

/**
 * {@link copyObject} for an object that is not an array, whose prototype has been read (once) as `prototype`.
 * `applied`: `value` is what a `toJSON` returned, whose own `toJSON` is not applied (see {@link copyToJSONResult}).
 */
function copyObjectOf(value: object, prototype: unknown, key: string, depth: number, rules: JsonCopyRules, walk: JsonWalk, applied = false): unknown {
  if (rules.values === 'plain') {
    if (depth > walk.maxDepth) throw new JsonBreach('depth', key);
    // An own `toJSON` is a function member, refused below like any other.
    if (prototype !== Object.prototype && prototype !== null && !(rules.anyRealm === true && isObjectPrototype(prototype))) throw new JsonBreach('not-json', key, 'is not a plain object');
  } else {
    if (!applied) {
      // Read once: the function read is the one called.
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return copyToJSONResult((toJSON as (key: string) => unknown).call(value, key), key, depth, rules, walk);
    }
    if (prototype !== Object.prototype && prototype !== null) {
      const refused = rules.refuse?.(value);
      if (refused !== undefined) throw new JsonBreach('not-json', key, refused);
      const primitive = boxedPrimitive(value, key);
      if (primitive !== NOT_BOXED) return copyValue(primitive, key, depth, rules, walk);
      // By their internal slots (another realm's, a `vm` context's or jest's, too), or by this realm's
      // prototype (a Proxy of one, which has no slots of its own, as before).
      const collection = collectionKind(value);
      if (collection) throw new JsonBreach('not-json', key, `is a ${collection} (convert it to an object or an array)`);
    }
    if (depth > walk.maxDepth) throw new JsonBreach('depth', key);
  }
  const copy: Record<string, unknown> = {};
  let entries = 0;
  // for-in with an own-key check: no key array per object (V8 walks its enum cache); JSON also takes only own enumerable keys.
  for (const name in value) {
    if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
    if (rules.forbiddenKeys?.has(name)) throw new JsonBreach('key', name);
    const member = copyValue((value as Record<string, unknown>)[name], name, depth + 1, rules, walk);
    if (member === undefined) continue;
    entries++;
    // The key with its quotes and colon.
    walk.stringChars += name.length;
    if ((walk.chars += name.length + 3) > walk.maxChars) throw new JsonBreach('size', '');
    if (name === '__proto__') setMember(copy, name, member);
    else copy[name] = member;
  }
  // `{`, `}` and a comma between entries.
  spend(walk, entries === 0 ? 2 : entries + 1);
  return copy;
}

/**
 * `copyJson(value, rules, walk)` for `as-json` rules (a tool's result), with the same copy, measure,
 * breaches and reads, the usual result (an object made by `{}` with no `toJSON`) copied by a loop of its
 * own: its sites see results alone, not every kind of data the generic walk copies.
 */
export function copyJsonResult(value: unknown, rules: JsonCopyRules, walk: JsonWalk): unknown {
  try {
    if (typeof value !== 'object' || value === null || walk.maxDepth < 1 || rules.values !== 'as-json' || Array.isArray(value)) return copyValue(value, '', 1, rules, walk);
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype) return copyObjectOf(value, prototype, '', 1, rules, walk);
    // Read once: the function read is the one called.
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return copyToJSONResult((toJSON as (key: string) => unknown).call(value, ''), '', 1, rules, walk);
    // copyObject's loop (the same reads, measure and breaches), scalars copied in place.
    const copy: Record<string, unknown> = {};
    let entries = 0;
    for (const name in value) {
      if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
      if (rules.forbiddenKeys?.has(name)) throw new JsonBreach('key', name);
      const read = (value as Record<string, unknown>)[name];
      let member: unknown;
      if (typeof read === 'string') {
        walk.stringChars += read.length;
        if ((walk.chars += read.length + 2) > walk.maxChars) throw new JsonBreach('size', '');
        member = read;
      } else {
        member = copyValue(read, name, 2, rules, walk);
        if (member === undefined) continue;
      }
      entries++;
      walk.stringChars += name.length;
      if ((walk.chars += name.length + 3) > walk.maxChars) throw new JsonBreach('size', '');
      if (name === '__proto__') setMember(copy, name, member);
      // The first members each added by a store of their own: a tool's results come in one shape call after call,
      // so each of these stores adds one key to one shape. One store adding every key of every result sees many
      // keys and shapes, and V8 then adds each property the slow way (~3% of a valid turn in the bench).
      else if (entries === 1) copy[name] = member;
      else if (entries === 2) copy[name] = member;
      else if (entries === 3) copy[name] = member;
      else if (entries === 4) copy[name] = member;
      else copy[name] = member;
    }
    spend(walk, entries === 0 ? 2 : entries + 1);
    return copy;
  } catch (thrown) {
    if (thrown instanceof JsonBreach) return thrown;
    throw thrown;
  }
}

/**
 * `copyJson(value, rules, walk)` for `plain` rules (a call's arguments), with the same copy, measure,
 * breaches and reads, the usual arguments (an object made by `{}`, JSON.parse or `Object.create(null)`)
 * copied by a loop of its own: its sites see arguments alone, not every kind of data the generic walk copies.
 */
export function copyJsonArguments(value: unknown, rules: JsonCopyRules, walk: JsonWalk): unknown {
  try {
    if (typeof value !== 'object' || value === null || walk.maxDepth < 1 || rules.values !== 'plain' || Array.isArray(value)) return copyValue(value, '', 1, rules, walk);
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return copyObjectOf(value, prototype, '', 1, rules, walk);
    // copyObject's loop (the same reads, measure and breaches), strings copied in place.
    const copy: Record<string, unknown> = {};
    let entries = 0;
    for (const name in value) {
      if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
      if (rules.forbiddenKeys?.has(name)) throw new JsonBreach('key', name);
      const read = (value as Record<string, unknown>)[name];
      let member: unknown;
      if (typeof read === 'string') {
        walk.stringChars += read.length;
        if ((walk.chars += read.length + 2) > walk.maxChars) throw new JsonBreach('size', '');
        member = read;
      } else {
        member = copyValue(read, name, 2, rules, walk);
        if (member === undefined) continue;
      }
      entries++;
      walk.stringChars += name.length;
      if ((walk.chars += name.length + 3) > walk.maxChars) throw new JsonBreach('size', '');
      if (name === '__proto__') setMember(copy, name, member);
      else copy[name] = member;
    }
    spend(walk, entries === 0 ? 2 : entries + 1);
    return copy;
  } catch (thrown) {
    if (thrown instanceof JsonBreach) return thrown;
    throw thrown;
  }
}
