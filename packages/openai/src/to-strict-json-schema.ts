import type { JsonSchema } from '@toolsmith/core';
import { StrictSchemaError } from './strict-schema-error';

/** Keywords OpenAI's strict mode rejects (Structured Outputs, "supported schemas"), with the reason shown to users. */
const UNSUPPORTED_KEYWORDS: Record<string, string> = {
  allOf: 'composition with allOf is not supported (merge the schemas)',
  oneOf: 'oneOf is not supported (use anyOf)',
  not: '"not" is not supported',
  if: 'conditional schemas are not supported',
  then: 'conditional schemas are not supported',
  else: 'conditional schemas are not supported',
  dependentRequired: 'dependentRequired is not supported',
  dependentSchemas: 'dependentSchemas is not supported',
  dependencies: 'dependencies is not supported',
  patternProperties: 'patternProperties (a map keyed by pattern) is not supported',
  propertyNames: 'propertyNames is not supported',
  unevaluatedProperties: 'unevaluatedProperties is not supported',
  minProperties: 'minProperties is not supported',
  maxProperties: 'maxProperties is not supported',
  minLength: 'string length limits (minLength) are not supported',
  maxLength: 'string length limits (maxLength) are not supported',
  unevaluatedItems: 'unevaluatedItems is not supported',
  contains: 'contains is not supported',
  minContains: 'minContains is not supported',
  maxContains: 'maxContains is not supported',
  uniqueItems: 'uniqueItems is not supported',
  prefixItems: 'tuples (prefixItems) are not supported',
  additionalItems: 'tuples (additionalItems) are not supported',
  contentEncoding: 'contentEncoding is not supported',
  contentMediaType: 'contentMediaType is not supported',
};

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

/** Strict mode allows at most this many levels of object nesting. */
const MAX_NESTING = 10;

/**
 * Derives OpenAI's strict-mode dialect from a tool's canonical JSON Schema: `additionalProperties: false`
 * on every object, every property listed in `required`, optional properties made nullable (the model
 * sends `null` for "absent"; `restoreOmittedOptionals` maps those back), keywords strict mode does not
 * know dropped. Throws {@link StrictSchemaError}, naming the tool and keyword, for anything strict
 * mode cannot express. The input is not modified.
 */
export function toStrictJsonSchema(toolName: string, schema: JsonSchema): JsonSchema {
  const root = new StrictTransform(toolName).node(schema, '', 0, true);
  return root;
}

class StrictTransform {
  constructor(private readonly toolName: string) {}

  node(input: unknown, path: string, depth: number, isRoot = false): JsonSchema {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw this.refuse('schema', path, `a schema must be an object, got ${JSON.stringify(input)}`);
    }
    const source = input as JsonSchema;
    for (const keyword of Object.keys(source)) {
      if (keyword in UNSUPPORTED_KEYWORDS) throw this.refuse(keyword, path, UNSUPPORTED_KEYWORDS[keyword]);
    }
    const out: JsonSchema = {};
    for (const [keyword, value] of Object.entries(source)) {
      if (SUPPORTED_KEYWORDS.has(keyword)) out[keyword] = value;
    }
    if (source.default !== undefined) {
      const note = `Default: ${JSON.stringify(source.default)}.`;
      out.description = typeof source.description === 'string' && source.description ? `${source.description} ${note}` : note;
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

    if (typeof source.format === 'string' && !SUPPORTED_FORMATS.has(source.format)) {
      throw this.refuse('format', path, `format "${source.format}" is not supported (supported: ${[...SUPPORTED_FORMATS].join(', ')})`);
    }
    if (types.includes('object')) this.object(source, out, path, depth, isRoot);
    if (types.includes('array')) {
      if (source.items === undefined) throw this.refuse('items', path, 'an array needs an "items" schema');
      if (Array.isArray(source.items)) throw this.refuse('items', path, 'tuples (items as a list) are not supported');
      out.items = this.node(source.items, `${path}/items`, depth);
    }
    return out;
  }

  private object(source: JsonSchema, out: JsonSchema, path: string, depth: number, isRoot: boolean): void {
    if (depth >= MAX_NESTING) throw this.refuse('properties', path, `objects may be nested at most ${MAX_NESTING} levels deep`);
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
