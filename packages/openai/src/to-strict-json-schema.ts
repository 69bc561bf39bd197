import type { JsonSchema } from '@toolsmith/core';
import { constraintNote, moveToDescription, withNote } from '@toolsmith/core/adapter-kit';
import { StrictSchemaError } from './strict-schema-error';

// What strict mode takes is documented in OpenAI's Structured Outputs guide, "Supported schemas"
// (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas): types string, number,
// integer, boolean, object, array, enum, anyOf; string `pattern` and `format` (the formats listed in
// SUPPORTED_FORMATS); number `multipleOf`, `minimum`/`maximum` and their exclusive forms; array
// `minItems`/`maxItems`; `$defs` and `$ref` (recursion included); the root must be an object, not
// anyOf; every object needs `additionalProperties: false` and every property listed in `required`.
// Its limits (nesting, property and enum counts) are in openai-tool-limits.ts.

/** Keywords strict mode rejects and nothing can stand in for: the tool is refused, with the reason shown to users. */
const UNSUPPORTED_KEYWORDS: Record<string, string> = {
  patternProperties: 'patternProperties (a map keyed by pattern) is not supported',
  prefixItems: 'tuples (prefixItems) are not supported',
  additionalItems: 'tuples (additionalItems) are not supported',
};

/**
 * Keywords strict mode rejects that only narrow what is valid: they move into the description (the
 * model still reads them) and Toolsmith's validation of every call against the canonical schema
 * still enforces them.
 */
// prettier-ignore
const MOVED_KEYWORDS = [
  'minLength', 'maxLength', 'minProperties', 'maxProperties', 'uniqueItems', 'contains', 'minContains', 'maxContains',
  'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'dependencies', 'propertyNames',
  'unevaluatedProperties', 'unevaluatedItems', 'contentEncoding', 'contentMediaType',
];

/**
 * The keywords strict mode accepts. Anything else that is not refused above (annotations such as
 * `title`, `examples`, `$comment`, vendor extensions) is dropped: OpenAI rejects unknown keywords, and
 * Toolsmith still validates every call against the canonical schema. `default` is moved into the
 * description, so the model learns what leaving the property out means.
 */
// prettier-ignore
const SUPPORTED_KEYWORDS = new Set([
  'type', 'description', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf',
  '$ref', '$defs', 'definitions', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minItems', 'maxItems',
]);

/** The string formats strict mode supports. */
const SUPPORTED_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/**
 * Derives OpenAI's strict-mode dialect from a tool's canonical JSON Schema: `additionalProperties: false`
 * on every object, every property listed in `required`, optional properties made nullable (the model
 * sends `null` for "absent"; `restoreOmittedOptionals` maps those back), annotations strict mode does
 * not know dropped, constraints it cannot carry (`minLength`, `uniqueItems`, an unknown `format`, …)
 * moved into the description, `oneOf` and a one-schema `allOf` sent as `anyOf`. Throws
 * {@link StrictSchemaError}, naming the tool and keyword, for what strict mode cannot express (maps,
 * tuples, several `allOf` schemas, schemas without a type). Limits (nesting depth, property and enum
 * counts) are checked separately, by `OpenAIModel.checkTools`. The input is not modified.
 */
export function toStrictJsonSchema(toolName: string, schema: JsonSchema): JsonSchema {
  const root = new StrictTransform(toolName).node(schema, '', 0, true);
  return root;
}

const strictCache = new WeakMap<JsonSchema, Map<string, JsonSchema>>();

/**
 * {@link toStrictJsonSchema} of a declaration, built once per schema object and tool name: the runner
 * checks declarations when it is built and every request reuses the same objects.
 */
export function strictSchemaFor(declaration: { name: string; parameters: JsonSchema }): JsonSchema {
  let byName = strictCache.get(declaration.parameters);
  if (!byName) strictCache.set(declaration.parameters, (byName = new Map()));
  let schema = byName.get(declaration.name);
  if (!schema) byName.set(declaration.name, (schema = toStrictJsonSchema(declaration.name, declaration.parameters)));
  return schema;
}

class StrictTransform {
  constructor(private readonly toolName: string) {}

  node(input: unknown, path: string, depth: number, isRoot = false): JsonSchema {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw this.refuse('schema', path, `a schema must be an object, got ${JSON.stringify(input)}`);
    }
    let source = input as JsonSchema;
    for (const keyword of Object.keys(source)) {
      if (keyword in UNSUPPORTED_KEYWORDS) throw this.refuse(keyword, path, UNSUPPORTED_KEYWORDS[keyword]);
    }
    source = this.combinators(source, path);
    if (typeof source.format === 'string' && !SUPPORTED_FORMATS.has(source.format)) source = moveToDescription(source, ['format']);
    source = moveToDescription(source, MOVED_KEYWORDS);
    const out: JsonSchema = {};
    for (const [keyword, value] of Object.entries(source)) {
      if (SUPPORTED_KEYWORDS.has(keyword)) out[keyword] = value;
    }
    if (source.default !== undefined) {
      const note = `Default: ${JSON.stringify(source.default)}.`;
      out.description = withNote(source.description, note);
    }

    for (const defsKey of ['$defs', 'definitions']) {
      const defs = source[defsKey];
      if (defs === undefined) continue;
      if (!isRoot) throw this.refuse(defsKey, path, `${defsKey} is only supported at the root of the schema`);
      out[defsKey] = Object.fromEntries(
        Object.entries(defs as Record<string, unknown>).map(([name, def]) => [name, this.node(def, `${path}/${defsKey}/${name}`, 0)]),
      );
    }

    if (typeof source.$ref === 'string') {
      if (!source.$ref.startsWith('#')) throw this.refuse('$ref', path, `only local references are supported, got "${source.$ref}"`);
      // Strict mode rejects any keyword beside $ref ("$ref cannot have keywords {'description'}"): the
      // reference goes alone into a one-branch anyOf, and the description stays around it. Other
      // siblings are dropped from the dialect; Toolsmith still validates against the canonical schema.
      if (Object.keys(out).every((keyword) => keyword === '$ref' || keyword === '$defs' || keyword === 'definitions')) return out;
      const wrapped: JsonSchema = { anyOf: [{ $ref: source.$ref }] };
      if (typeof out.description === 'string') wrapped.description = out.description;
      for (const defsKey of ['$defs', 'definitions']) if (out[defsKey] !== undefined) wrapped[defsKey] = out[defsKey];
      return wrapped;
    }

    if (Array.isArray(source.anyOf)) {
      if (isRoot) throw this.refuse('anyOf', path, 'the root schema must be an object, not anyOf');
      out.anyOf = source.anyOf.map((branch, i) => this.node(branch, `${path}/anyOf/${i}`, depth));
      return out;
    }

    const types = this.typesOf(source, path, isRoot);
    out.type = types.length === 1 ? types[0] : types;

    if (types.includes('object')) this.object(source, out, path, depth, isRoot);
    if (types.includes('array')) {
      if (source.items === undefined) throw this.refuse('items', path, 'an array needs an "items" schema');
      if (Array.isArray(source.items)) throw this.refuse('items', path, 'tuples (items as a list) are not supported');
      out.items = this.node(source.items, `${path}/items`, depth);
    }
    return out;
  }

  /**
   * `oneOf` becomes `anyOf` (strict mode's only union), its "exactly one" stated in the description;
   * a one-schema `allOf` (`allOf: [{ $ref }]` beside a description, as generators write it) becomes a
   * one-branch `anyOf`. Several `allOf` schemas would have to be merged, which is the author's call.
   */
  private combinators(source: JsonSchema, path: string): JsonSchema {
    // "email or phone is required": branches that only constrain an object whose properties are
    // declared beside them are rules about that object, not alternatives of its shape.
    if (source.properties !== undefined && COMBINATORS.some((keyword) => onlyConstrains(source[keyword]))) {
      return moveToDescription(source, COMBINATORS.filter((keyword) => onlyConstrains(source[keyword])));
    }
    let out = source;
    if (out.allOf !== undefined) {
      if (!Array.isArray(out.allOf) || out.allOf.length !== 1 || out.anyOf !== undefined || out.oneOf !== undefined) {
        throw this.refuse('allOf', path, 'composition with allOf is not supported (merge the schemas into one)');
      }
      const { allOf, ...rest } = out;
      out = { ...rest, anyOf: allOf };
    }
    if (out.oneOf !== undefined) {
      if (!Array.isArray(out.oneOf) || out.anyOf !== undefined) throw this.refuse('oneOf', path, 'oneOf beside anyOf is not supported (use one anyOf)');
      const { oneOf, ...rest } = out;
      const note = constraintNote({ oneOf: 'exactly one of the anyOf alternatives matches' });
      out = { ...rest, anyOf: oneOf, description: withNote(rest.description, note) };
    }
    return out;
  }

  private object(source: JsonSchema, out: JsonSchema, path: string, depth: number, isRoot: boolean): void {
    const properties = (source.properties ?? {}) as Record<string, unknown>;
    const additional = source.additionalProperties;
    if (additional !== undefined && additional !== false) {
      throw this.refuse('additionalProperties', path, 'open objects (additionalProperties other than false, e.g. a map) are not supported');
    }
    if (!isRoot && source.properties === undefined) {
      throw this.refuse('properties', path, 'an object without "properties" (an open map) is not supported');
    }
    const required = new Set(Array.isArray(source.required) ? (source.required as string[]) : []);
    const strictProperties: Record<string, JsonSchema> = {};
    for (const [name, child] of Object.entries(properties)) {
      const strictChild = this.node(child, `${path}/properties/${name}`, depth + 1);
      strictProperties[name] = required.has(name) ? strictChild : makeNullable(strictChild);
    }
    out.properties = strictProperties;
    out.required = Object.keys(strictProperties);
    out.additionalProperties = false;
  }

  /** The schema's `type` as a list; inferred from `enum`/`const` when absent, since strict mode needs one. */
  private typesOf(source: JsonSchema, path: string, isRoot: boolean): string[] {
    let types: string[];
    if (typeof source.type === 'string') types = [source.type];
    else if (Array.isArray(source.type)) types = source.type as string[];
    else {
      const values = Array.isArray(source.enum) ? source.enum : 'const' in source ? [source.const] : undefined;
      const inferred = values ? [...new Set(values.map(jsonType))] : [];
      if (!inferred.length && isRoot && source.properties === undefined) inferred.push('object');
      if (!inferred.length && source.properties !== undefined) inferred.push('object');
      if (!inferred.length) throw this.refuse('type', path, 'every schema needs a "type" (a schema that accepts anything is not supported)');
      types = inferred;
    }
    if (isRoot && (types.length !== 1 || types[0] !== 'object')) {
      throw this.refuse('type', path, 'the root schema must be of type "object"');
    }
    return types;
  }

  private refuse(keyword: string, path: string, reason: string): StrictSchemaError {
    return new StrictSchemaError(this.toolName, keyword, path, reason);
  }
}

const COMBINATORS = ['anyOf', 'oneOf', 'allOf'];

/** True for a list of schemas that say nothing about shape (no type, properties, items or reference). */
function onlyConstrains(branches: unknown): boolean {
  if (!Array.isArray(branches) || branches.length === 0) return false;
  const shaping = ['type', 'properties', 'items', '$ref', 'enum', 'const', 'anyOf', 'oneOf', 'allOf'];
  return branches.every((branch) => typeof branch === 'object' && branch !== null && !shaping.some((keyword) => keyword in branch));
}

/** Lets a strict-mode schema also accept `null`, which then stands for "absent". */
function makeNullable(schema: JsonSchema): JsonSchema {
  if (allowsNullDirectly(schema)) return schema;
  if (typeof schema.$ref === 'string' || 'const' in schema || Array.isArray(schema.anyOf)) {
    if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
    const { description, ...rest } = schema;
    return description === undefined ? { anyOf: [rest, { type: 'null' }] } : { description, anyOf: [rest, { type: 'null' }] };
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  const out: JsonSchema = { ...schema, type: [...types, 'null'] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}

function allowsNullDirectly(schema: JsonSchema): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) {
    return !Array.isArray(schema.enum) || schema.enum.includes(null);
  }
  return Array.isArray(schema.anyOf) && schema.anyOf.some((branch) => allowsNullDirectly(branch as JsonSchema));
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
