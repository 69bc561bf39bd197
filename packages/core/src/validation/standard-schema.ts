import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { ArgumentProblem } from '../errors/tool-call-errors';
import type { JsonSchema } from '../model/json-schema';
import { standardSchemaConversionFailedReason, standardSchemaWithoutJsonSchemaReason } from '../errors/messages';
import { readablePath } from './problem-text';
import { thrownMessage } from '../errors/thrown-message';
import { isPromiseLike } from '../tools/promise-like';

/** Which side of a Standard Schema's types a JSON Schema describes: what it takes, or what it gives. */
export type StandardSchemaDirection = 'input' | 'output';

/** True when `value` is a Standard Schema (https://standardschema.dev): zod 4, valibot, arktype and others. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as Partial<StandardSchemaV1>)['~standard'];
  return typeof props === 'object' && props !== null && props.version === 1 && typeof props.validate === 'function';
}

/**
 * The JSON Schema (draft 2020-12) of a Standard Schema, from its library's own converter (the Standard
 * JSON Schema interface, `~standard.jsonSchema`). Called once per schema at startup; the `$schema`
 * keyword is left out, as in every other tool schema, and so is what zod only says twice (see
 * {@link withoutZodRepeats}). When the library cannot convert it, `problem` says why and what to do (for
 * the caller's typed error).
 */
export function standardJsonSchema(schema: StandardSchemaV1, direction: StandardSchemaDirection): { schema: JsonSchema } | { problem: string } {
  const props = schema['~standard'] as StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props>;
  const vendor = String(props.vendor);
  const converter = props.jsonSchema;
  if (typeof converter !== 'object' || converter === null || typeof converter[direction] !== 'function') {
    return { problem: standardSchemaWithoutJsonSchemaReason(vendor) };
  }
  let converted: unknown;
  try {
    converted = converter[direction]({ target: 'draft-2020-12' });
  } catch (thrown) {
    return { problem: standardSchemaConversionFailedReason(vendor, thrownMessage(thrown)) };
  }
  if (typeof converted !== 'object' || converted === null || Array.isArray(converted)) {
    return { problem: standardSchemaConversionFailedReason(vendor, 'its converter returned no JSON Schema object') };
  }
  const { $schema: _dialect, ...jsonSchema } = converted as JsonSchema;
  return { schema: vendor === 'zod' ? withoutZodRepeats(jsonSchema) : jsonSchema };
}

/** Keywords whose value is one subschema, and those whose value is a list or a map of subschemas. */
const ONE_SUBSCHEMA = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/**
 * zod 4's JSON Schema without what it says twice, which the model would read (and pay for) on every
 * request: a string format it knows comes as `format` and again as `pattern`, its own regex for that
 * format (`z.iso.date()`: `format: "date"` and a 200-character leap-year regex; a regex of the author's
 * own goes to `allOf` instead, never beside a `format`), and `.int()` comes as `type: "integer"` with the
 * safe-integer range as `minimum`/`maximum`. The `format` and the `integer` stay; zod still judges every
 * call by its own rules, so nothing is checked less.
 */
function withoutZodRepeats(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'pattern' && typeof schema.format === 'string') continue;
    if (schema.type === 'integer' && ((keyword === 'minimum' && value === Number.MIN_SAFE_INTEGER) || (keyword === 'maximum' && value === Number.MAX_SAFE_INTEGER))) continue;
    if (isSchemaObject(value) && ONE_SUBSCHEMA.includes(keyword)) out[keyword] = withoutZodRepeats(value);
    else if (Array.isArray(value) && SUBSCHEMA_LISTS.includes(keyword)) out[keyword] = value.map((item) => (isSchemaObject(item) ? withoutZodRepeats(item) : item));
    else if (isSchemaObject(value) && SUBSCHEMA_MAPS.includes(keyword)) {
      out[keyword] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, isSchemaObject(item) ? withoutZodRepeats(item) : item]));
    } else out[keyword] = value;
  }
  return out;
}

function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when the schema accepts a missing value (zod's `.optional()`, valibot's `optional()`, arktype's
 * `'string | undefined'`): asked once at startup, with a synchronous answer only (an async schema is
 * taken as required).
 */
export function acceptsUndefined(schema: StandardSchemaV1): boolean {
  try {
    const result = nativeAnswer(schema['~standard'].validate(undefined));
    if (result instanceof Promise) {
      result.catch(() => undefined);
      return false;
    }
    return !result.issues;
  } catch {
    return false;
  }
}

/**
 * A library's validation issues as {@link ArgumentProblem}s, in the library's own words: `path: message`
 * (paths dotted like ajv's problems, `lines[0].qty`; `root` for the value itself). `prefix` is the
 * JSON pointer the schema's value sits at (a `@Param`'s property). A message that already starts with
 * its path (arktype's `city must be…`) is not given the path twice; each distinct message appears once.
 */
export function standardProblems(issues: readonly StandardSchemaV1.Issue[], prefix = '', root = 'arguments'): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const path = prefix + (issue.path ?? []).map((segment) => `/${escapePointer(String(typeof segment === 'object' ? segment.key : segment))}`).join('');
    const where = readablePath(path, root);
    const text = String(issue.message);
    const message = text.startsWith(`${where} `) ? `${where}: ${text.slice(where.length + 1)}` : `${where}: ${text}`;
    if (seen.has(message)) continue;
    seen.add(message);
    const vendorCode = (issue as { code?: unknown; type?: unknown }).code ?? (issue as { type?: unknown }).type;
    problems.push({ path, message, keyword: typeof vendorCode === 'string' ? vendorCode : 'standardSchema' });
  }
  // A failure with an empty `issues` list refuses without saying why: said so, rather than no problem at all.
  if (problems.length === 0) problems.push({ path: prefix, keyword: 'standardSchema', message: `${readablePath(prefix, root)}: refused by the schema's library, which named no problem` });
  return problems;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * A library's `validate` answer, where a promise of another realm (a `vm` context's, a test runner's sandbox) or another
 * thenable (Bluebird) is made a native Promise: the code after it tells an async answer by `instanceof Promise`, and
 * would otherwise read such a promise as a synchronous answer with no issues, so an async refusal would pass.
 */
export function nativeAnswer<T>(result: T | PromiseLike<T>): T | Promise<T> {
  if (result instanceof Promise || typeof result !== 'object') return result as T | Promise<T>;
  return isPromiseLike(result) ? Promise.resolve(result) : (result as T);
}
