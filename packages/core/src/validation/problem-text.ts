import type { ErrorObject } from 'ajv/dist/2020';
import type { ArgumentProblem } from '../errors/tool-call-errors';

/** Longest rendering of a received value in a problem; longer ones are cut with `…`. */
const MAX_VALUE_CHARS = 60;
/** Longest property name echoed in a path (`lines[0].qty`); longer ones are cut with `…`. */
const MAX_KEY_CHARS = 60;

/**
 * ajv's errors as {@link ArgumentProblem}s: `path: got <value>, expected <what>`, short enough for a model
 * to read and act on. Paths are dotted (`lines[0].qty`); the arguments object itself is `arguments`. The
 * alternatives of a union at one path (`type`, `const`, `enum` of each branch) become one problem:
 * `id: got true, expected string or integer`.
 */
export function describeProblems(errors: readonly ErrorObject[], data: unknown, root = 'arguments'): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  // The first `type`/`const`/`enum` problem in a slot of its own; a map only once a second one comes
  // (most invalid calls have at most one: no map to make).
  let first: Alternatives | undefined;
  let alternatives: Map<string, Alternatives> | undefined;
  for (let i = 0; i < errors.length; i++) {
    const e = errors[i];
    const p = e.params as Record<string, unknown>;
    const keyword = e.keyword;
    if (keyword === 'required' || keyword === 'additionalProperties' || keyword === 'unevaluatedProperties') {
      const property = String(p.missingProperty ?? p.additionalProperty ?? p.unevaluatedProperty);
      // The property's readable path directly: escaping it into the pointer and back gives it unchanged.
      const readable = appendSegment(readableSegments(e.instancePath), cut(property, MAX_KEY_CHARS));
      problems.push({ path: `${e.instancePath}/${escapePointer(property)}`, keyword, message: `${readable}: ${keyword === 'required' ? MISSING : UNKNOWN}` });
      continue;
    }
    const got = data === undefined ? '' : `got ${renderValue(valueAt(data, e.instancePath))}, `;
    const expected = expectation(e, p);
    if (keyword === 'type' || keyword === 'const' || keyword === 'enum') {
      const earlier = first?.path === e.instancePath ? first : alternatives?.get(e.instancePath);
      if (earlier) {
        if (!earlier.expected.includes(expected)) earlier.expected.push(expected);
        problems[earlier.index].message = `${readablePath(e.instancePath, root)}: ${earlier.got}expected ${earlier.expected.join(' or ')}`;
        continue;
      }
      const entry: Alternatives = { path: e.instancePath, index: problems.length, expected: [expected], got };
      if (!first) first = entry;
      else (alternatives ??= new Map([[first.path, first]])).set(e.instancePath, entry);
    }
    problems.push({ path: e.instancePath, keyword, message: `${readablePath(e.instancePath, root)}: ${got}expected ${expected}` });
  }
  return problems;
}

/** The alternatives of a union at one path, merged into one problem (see {@link describeProblems}). */
interface Alternatives {
  path: string;
  index: number;
  expected: string[];
  got: string;
}

const MISSING = 'missing, expected a value (required)';
const UNKNOWN = 'unknown property, expected it left out';

/** `1 character`, `2 characters`. */
function count(limit: unknown, one: string, many: string): string {
  return `${String(limit)} ${limit === 1 ? one : many}`;
}

function expectation(e: ErrorObject, p: Record<string, unknown>): string {
  switch (e.keyword) {
    case 'enum':
      return enumExpectation(p.allowedValues as unknown[]);
    case 'const':
      return JSON.stringify(p.allowedValue);
    case 'type':
      return String(p.type).replace(/,/g, ' or ');
    case 'minLength':
      return `at least ${count(p.limit, 'character', 'characters')}`;
    case 'maxLength':
      return `at most ${count(p.limit, 'character', 'characters')}`;
    case 'minItems':
      return `at least ${count(p.limit, 'item', 'items')}`;
    case 'maxItems':
      return `at most ${count(p.limit, 'item', 'items')}`;
    case 'minProperties':
      return `at least ${count(p.limit, 'property', 'properties')}`;
    case 'maxProperties':
      return `at most ${count(p.limit, 'property', 'properties')}`;
    case 'pattern':
      return `a string matching ${JSON.stringify(p.pattern)}`;
    case 'format':
      return `format ${JSON.stringify(p.format)}`;
    case 'uniqueItems':
      return 'no duplicate items';
    case 'not':
      // ajv's "must NOT be valid" says nothing to a model: the value is the one the schema rules out.
      return 'any value but this one';
    default: {
      // minimum, maximum, exclusive*, multipleOf say "must be >= 1" and the like.
      const message = e.message ?? `to pass "${e.keyword}"`;
      return message.startsWith('must be ') ? message.slice('must be '.length) : message.replace(/^must /, 'to ');
    }
  }
}

/** `one of "a" | "b"` of each enum, built once: ajv passes the schema's own `enum` array as `allowedValues`. */
const enumTexts = new WeakMap<readonly unknown[], string>();

function enumExpectation(values: readonly unknown[]): string {
  let text = enumTexts.get(values);
  if (text === undefined) enumTexts.set(values, (text = `one of ${values.map((v) => JSON.stringify(v)).join(' | ')}`));
  return text;
}

/**
 * A class-validator problem in the same form as ajv's: `email: got "nope", expected an email`. `text` is
 * class-validator's message without the property name (`must be an email`); its "must be" becomes
 * "expected", other wording is kept after the value.
 */
export function describeValidatorProblem(path: string, value: unknown, text: string, root = 'arguments'): string {
  const got = value === undefined ? 'got nothing' : `got ${renderValue(value)}`;
  const expected = text.startsWith('must be ') ? `expected ${text.slice('must be '.length)}` : text.startsWith('must ') ? `expected to ${text.slice('must '.length)}` : text;
  return `${readablePath(path, root)}: ${got}, ${expected}`;
}

/** `/lines/0/qty` → `lines[0].qty`; `""` → `root` (`arguments`). Property names over 60 characters are cut with `…`. */
export function readablePath(pointer: string, root = 'arguments'): string {
  return pointer === '' ? root : readableSegments(pointer);
}

/** {@link readablePath} without a root: `""` for `""`. */
function readableSegments(pointer: string): string {
  let out = '';
  for (let start = 1; start <= pointer.length; ) {
    const end = segmentEnd(pointer, start);
    out = appendSegment(out, cut(unescapePointer(pointer.slice(start, end)), MAX_KEY_CHARS));
    start = end + 1;
  }
  return out;
}

/** `lines` + `0` → `lines[0]`; `lines[0]` + `qty` → `lines[0].qty`; a first name stands alone. */
function appendSegment(out: string, segment: string): string {
  return isIndex(segment) ? `${out}[${segment}]` : out === '' ? segment : `${out}.${segment}`;
}

/** Where the pointer's segment starting at `start` ends (the next `/`, or the pointer's end). */
function segmentEnd(pointer: string, start: number): number {
  const slash = pointer.indexOf('/', start);
  return slash === -1 ? pointer.length : slash;
}

/** A decimal array index (`0`, `12`): digits only. */
function isIndex(segment: string): boolean {
  if (segment === '') return false;
  for (let i = 0; i < segment.length; i++) {
    const code = segment.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function escapePointer(segment: string): string {
  return segment.includes('~') || segment.includes('/') ? segment.replace(/~/g, '~0').replace(/\//g, '~1') : segment;
}

function unescapePointer(segment: string): string {
  return segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;
}

/** The value at a JSON pointer (`/lines/0/qty`) in `data`; `undefined` where nothing is. */
export function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let value = data;
  for (let start = 1; start <= pointer.length; ) {
    if (typeof value !== 'object' || value === null) return undefined;
    const end = segmentEnd(pointer, start);
    value = (value as Record<string, unknown>)[unescapePointer(pointer.slice(start, end))];
    start = end + 1;
  }
  return value;
}

/** Characters JSON.stringify escapes in a string (quotes, backslashes, controls, lone surrogates: any surrogate here). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function renderValue(value: unknown): string {
  // The usual values without JSON.stringify's setup: the same text.
  if (typeof value === 'string' && value.length < MAX_VALUE_CHARS - 1 && !NEEDS_ESCAPE.test(value)) return `"${value}"`;
  if (typeof value === 'boolean' || value === null || (typeof value === 'number' && Number.isFinite(value))) return String(value);
  let text: string;
  try {
    text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return cut(text, MAX_VALUE_CHARS);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
