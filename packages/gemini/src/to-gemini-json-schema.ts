import type { JsonSchema } from '@toolsmith/core';
import { moveToDescription, withNote } from '@toolsmith/core/adapter-kit';
import { GeminiSchemaError } from './gemini-schema-error';

// Gemini documents which JSON Schema it understands (`GenerationConfig.responseJsonSchema`, the JSON
// Schema counterpart of `parametersJsonSchema` in the @google/genai reference): "only the following
// properties are supported: $id, $defs, $ref, $anchor, type, format, title, description, enum (for
// strings and numbers), items, prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf
// (interpreted the same as anyOf), properties, additionalProperties, required", plus the non-standard
// `propertyOrdering`; "If $ref is set on a sub-schema, no other properties, except for those starting
// as a $, may be set"; "Cyclic references … may only be used within non-required properties".

/** The keywords Gemini documents for JSON Schema (see above). */
// prettier-ignore
const SUPPORTED = new Set([
  '$id', '$defs', '$ref', '$anchor', 'type', 'format', 'title', 'description', 'enum', 'items', 'prefixItems', 'minItems',
  'maxItems', 'minimum', 'maximum', 'anyOf', 'oneOf', 'properties', 'additionalProperties', 'required', 'propertyOrdering',
]);

/** Annotations that tell nothing about valid values: dropped rather than described. */
const ANNOTATIONS = new Set(['$schema', '$comment', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'default', 'definitions']);

/** Keywords whose value is one subschema, a list of them, or a map of them. */
const ONE = ['items', 'additionalProperties'];
const MANY = ['anyOf', 'oneOf', 'prefixItems'];
const MAPS = ['properties', '$defs'];

/**
 * Derives what Gemini gets as `parametersJsonSchema` from a tool's canonical JSON Schema, keeping to the
 * keywords Gemini documents: constraints outside them (`pattern`, `minLength`, `exclusiveMinimum`,
 * `uniqueItems`, `not`, enums of booleans, …) move into the description and stay enforced by
 * Toolsmith's validation of every call; `const` becomes a one-value `enum`; a one-schema `allOf`
 * becomes a one-branch `anyOf`, as does a `$ref` with a description beside it; `default` is stated in
 * the description. Throws {@link GeminiSchemaError} for a recursive reference under a required
 * property (Gemini unrolls recursion only through optional ones) and for `allOf` of several shapes.
 */
export function toGeminiJsonSchema(schema: JsonSchema, toolName: string): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  const converted = convert(rest, toolName, '');
  checkRecursion(converted, toolName);
  return converted;
}

function convert(node: unknown, toolName: string, path: string): JsonSchema {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) {
    throw new GeminiSchemaError(toolName, path, 'a schema must be an object', undefined, 'json-schema');
  }
  let source = { ...(node as JsonSchema) };
  if (source.definitions !== undefined && source.$defs === undefined) source.$defs = source.definitions;
  if (source.const !== undefined && (typeof source.const === 'string' || typeof source.const === 'number')) {
    const { const: value, ...others } = source;
    source = { ...others, enum: [value] };
  }
  if (source.allOf !== undefined) source = allOfAsAnyOf(source, toolName, path);
  if (source.default !== undefined) {
    const note = `Default: ${JSON.stringify(source.default)}.`;
    source.description = withNote(source.description, note);
  }
  const enumValues = source.enum;
  const unsupportedEnum = Array.isArray(enumValues) && !enumValues.every((value) => typeof value === 'string' || typeof value === 'number');
  const moved = Object.keys(source).filter((keyword) => (!SUPPORTED.has(keyword) && !ANNOTATIONS.has(keyword)) || (keyword === 'enum' && unsupportedEnum));
  source = moveToDescription(source, moved);

  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(source)) {
    if (!SUPPORTED.has(keyword)) continue;
    if (ONE.includes(keyword) && typeof value === 'object' && value !== null) out[keyword] = convert(value, toolName, `${path}/${keyword}`);
    else if (MANY.includes(keyword) && Array.isArray(value)) out[keyword] = value.map((item, index) => convert(item, toolName, `${path}/${keyword}/${index}`));
    else if (MAPS.includes(keyword) && typeof value === 'object' && value !== null) {
      out[keyword] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, convert(child, toolName, `${path}/${keyword}/${name}`)]));
    } else out[keyword] = value;
  }
  if (typeof out.$ref !== 'string') return out;
  // Nothing but `$…` keywords may stand beside a `$ref`: the reference goes into a one-branch anyOf.
  const siblings = Object.keys(out).filter((keyword) => !keyword.startsWith('$'));
  if (siblings.length === 0) return out;
  const wrapped: JsonSchema = { anyOf: [{ $ref: out.$ref }] };
  for (const [keyword, value] of Object.entries(out)) if (keyword !== '$ref') wrapped[keyword] = value;
  return wrapped;
}

/** `allOf` is not documented: one schema is sent as a one-branch `anyOf`, rules that only constrain move to the description. */
function allOfAsAnyOf(source: JsonSchema, toolName: string, path: string): JsonSchema {
  const parts = source.allOf;
  const { allOf: _allOf, ...rest } = source;
  if (Array.isArray(parts) && parts.length === 1 && rest.anyOf === undefined && rest.oneOf === undefined) return { ...rest, anyOf: parts };
  const shaping = ['type', 'properties', 'items', '$ref', 'enum', 'const', 'anyOf', 'oneOf', 'allOf'];
  if (Array.isArray(parts) && parts.every((part) => typeof part === 'object' && part !== null && !shaping.some((keyword) => keyword in part))) return source;
  throw new GeminiSchemaError(toolName, `${path}/allOf`, '"allOf" of several schemas is not in the JSON Schema Gemini documents (merge them into one)', undefined, 'json-schema');
}

/** Refuses a `$ref` that closes a cycle of definitions under a required property (Gemini cannot unroll it). */
function checkRecursion(root: JsonSchema, toolName: string): void {
  const defs = (root.$defs ?? {}) as Record<string, JsonSchema>;
  const recursive = new Set(Object.keys(defs).filter((name) => reaches(defs, name, name, new Set())));
  if (recursive.size === 0) return;
  const visit = (node: unknown, path: string, required: boolean): void => {
    if (typeof node !== 'object' || node === null) return;
    const schema = node as JsonSchema;
    const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
    if (ref && required && recursive.has(defName(ref))) {
      throw new GeminiSchemaError(
        toolName,
        path,
        `the recursive reference "${ref}" sits under a required property; Gemini unrolls recursion only through optional ones (make the property optional)`,
        undefined,
        'json-schema',
      );
    }
    const requiredNames = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) visit(child, `${path}/properties/${name}`, requiredNames.has(name));
    for (const keyword of ['items', 'additionalProperties']) visit(schema[keyword], `${path}/${keyword}`, required);
    for (const keyword of MANY) if (Array.isArray(schema[keyword])) (schema[keyword] as unknown[]).forEach((item, i) => visit(item, `${path}/${keyword}/${i}`, required));
  };
  // The back-references inside the recursive definitions are the cyclic ones; a reference into the
  // cycle from outside (`root: { $ref: '#/$defs/Node' }`) is not.
  for (const [name, def] of Object.entries(defs)) if (recursive.has(name)) visit(def, `/$defs/${name}`, false);
}

function defName(ref: string): string {
  return ref.startsWith('#/$defs/') ? decodeURIComponent(ref.slice('#/$defs/'.length)) : ref;
}

function reaches(defs: Record<string, JsonSchema>, from: string, target: string, seen: Set<string>): boolean {
  if (seen.has(from)) return false;
  seen.add(from);
  const refs: string[] = [];
  const collect = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (typeof (node as JsonSchema).$ref === 'string') refs.push(defName((node as JsonSchema).$ref as string));
    for (const value of Object.values(node)) collect(value);
  };
  collect(defs[from]);
  return refs.some((name) => name === target || (name in defs && reaches(defs, name, target, seen)));
}
