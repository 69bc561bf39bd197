import type { Schema } from '@google/genai' with { 'resolution-mode': 'import' };
import type { JsonSchema } from '@toolsmith/core';
import { SchemaRefError, constraintNote, inlineSchemaRefs, withNote } from '@toolsmith/core/adapter-kit';
import { GeminiSchemaError } from './gemini-schema-error';
import { GEMINI_PARAMETER_NAME } from './gemini-tool-limits';

/** Keywords of Gemini's OpenAPI `Schema` copied over as they are. */
const COPIED = ['title', 'description', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'default', 'example'] as const;
/** Formats Gemini accepts, per type; others are dropped (Toolsmith still validates them). */
const FORMATS: Record<string, string[]> = { STRING: ['enum', 'date-time'], NUMBER: ['float', 'double'], INTEGER: ['int32', 'int64'] };
/** Constraints the subset has no keyword for: stated in the description, enforced by Toolsmith's validation. */
// prettier-ignore
const DESCRIBED = ['exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'uniqueItems', 'contains', 'minContains', 'maxContains', 'dependentRequired', 'propertyNames', 'patternProperties', 'if', 'then', 'else'];
const TYPES: Record<string, string> = { string: 'STRING', number: 'NUMBER', integer: 'INTEGER', boolean: 'BOOLEAN', array: 'ARRAY', object: 'OBJECT' };

/**
 * Derives Gemini's classic OpenAPI-subset `parameters` from a tool's canonical JSON Schema, for models
 * that do not take `parametersJsonSchema`: `$ref`s are inlined, `$schema` / `additionalProperties` and
 * other unknown keywords are dropped, `const` becomes a one-value `enum`, `type: [X, "null"]` and
 * `anyOf: [X, {type: "null"}]` become `X` with `nullable: true`, and type names are upper-cased.
 * Constraints the subset has no keyword for (`exclusiveMinimum`, `multipleOf`, `uniqueItems`, formats
 * and enums it does not take, …) are stated in the description and still enforced, because Toolsmith
 * validates every call against the canonical schema. What the subset cannot express (other unions,
 * `not`, tuples, free-form objects, recursion, parameter names outside `[A-Za-z_][A-Za-z0-9_]{0,63}`)
 * throws {@link GeminiSchemaError}.
 */
export function toGeminiOpenApiSchema(schema: JsonSchema, toolName: string): Schema {
  let inlined: JsonSchema;
  try {
    inlined = inlineSchemaRefs(schema);
  } catch (error) {
    if (error instanceof SchemaRefError) throw new GeminiSchemaError(toolName, error.schemaPath, error.message, error);
    throw error;
  }
  return convert(inlined, { toolName, path: '' });
}

interface Location {
  toolName: string;
  path: string;
}

function convert(node: JsonSchema, at: Location): Schema {
  const fail = (reason: string, path = at.path): never => {
    throw new GeminiSchemaError(at.toolName, path, reason);
  };
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return fail('a schema must be an object');

  let source: JsonSchema = { ...node };
  let nullable = node.nullable === true;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const variants = source[keyword];
    if (variants === undefined) continue;
    if (!Array.isArray(variants)) return fail(`"${keyword}" must be an array`);
    const nonNull = variants.filter((variant) => !isNullSchema(variant));
    if (nonNull.length !== 1) {
      return fail(`"${keyword}" with ${nonNull.length} alternatives is a union; only "X or null" has an OpenAPI form`, `${at.path}/${keyword}`);
    }
    nullable ||= nonNull.length < variants.length;
    const { [keyword]: _dropped, ...rest } = source;
    source = { ...(nonNull[0] as JsonSchema), ...rest };
  }
  if (source.allOf !== undefined) {
    const parts = source.allOf;
    if (!Array.isArray(parts) || parts.length !== 1) return fail('"allOf" with several schemas cannot be merged', `${at.path}/allOf`);
    const { allOf: _dropped, ...rest } = source;
    source = { ...(parts[0] as JsonSchema), ...rest };
  }
  if (source.not !== undefined) return fail('"not" has no OpenAPI form', `${at.path}/not`);
  if (Array.isArray(source.items) || source.prefixItems !== undefined) return fail('tuples ("prefixItems" / array "items") have no OpenAPI form');

  const out: Schema = {};
  let enumValues: unknown[] | undefined = Array.isArray(source.enum) ? source.enum : source.const !== undefined ? [source.const] : undefined;
  if (enumValues?.includes(null)) {
    nullable = true;
    enumValues = enumValues.filter((value) => value !== null);
  }

  let types = (Array.isArray(source.type) ? source.type : source.type === undefined ? [] : [source.type]) as unknown[];
  if (types.includes('null')) {
    nullable = true;
    types = types.filter((type) => type !== 'null');
  }
  if (types.length > 1) return fail(`"type": ${JSON.stringify(source.type)} is a union; only "X or null" has an OpenAPI form`, `${at.path}/type`);
  let type = types.length === 1 ? TYPES[String(types[0])] : inferType(source, enumValues);
  if (type === undefined) {
    return fail(types.length ? `unknown type ${JSON.stringify(types[0])}` : 'the schema does not say what type the value has (add "type")');
  }
  out.type = type as Schema['type'];
  if (nullable) out.nullable = true;

  for (const keyword of COPIED) {
    if (source[keyword] !== undefined) (out as Record<string, unknown>)[keyword] = source[keyword];
  }
  const described: JsonSchema = {};
  for (const keyword of DESCRIBED) if (source[keyword] !== undefined) described[keyword] = source[keyword];
  if (typeof source.format === 'string') {
    if (FORMATS[type]?.includes(source.format)) out.format = source.format;
    else described.format = source.format;
  }
  // Gemini's `enum` lists strings; enums of other values are described and left to Toolsmith's validation.
  if (enumValues && enumValues.length > 0 && enumValues.every((value) => typeof value === 'string')) {
    if (type !== 'STRING') type = out.type = 'STRING' as Schema['type'];
    out.enum = enumValues as string[];
    out.format = 'enum';
  } else if (enumValues && enumValues.length > 0) {
    described.enum = enumValues;
  }
  if (Object.keys(described).length > 0) out.description = withNote(out.description, constraintNote(described));

  if (type === 'OBJECT') {
    const properties = (source.properties ?? {}) as Record<string, JsonSchema>;
    const names = Object.keys(properties);
    if (names.length === 0) {
      return fail('an object without declared properties (a free-form map) has no OpenAPI form');
    }
    const badName = names.find((name) => !GEMINI_PARAMETER_NAME.test(name));
    if (badName !== undefined) {
      return fail(`parameter name "${badName}" is refused (it must start with a letter or "_" and hold only letters, digits and "_", at most 64)`, `${at.path}/properties/${badName}`);
    }
    out.properties = Object.fromEntries(names.map((name) => [name, convert(properties[name], { ...at, path: `${at.path}/properties/${name}` })]));
    const required = Array.isArray(source.required) ? source.required.filter((name): name is string => typeof name === 'string' && name in properties) : [];
    if (required.length) out.required = required;
    out.propertyOrdering = names;
  }
  if (type === 'ARRAY') {
    if (source.items === undefined) return fail('an array without "items" has no OpenAPI form');
    out.items = convert(source.items as JsonSchema, { ...at, path: `${at.path}/items` });
  }
  return out;
}

function isNullSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as JsonSchema).type === 'null';
}

function inferType(schema: JsonSchema, enumValues: unknown[] | undefined): string | undefined {
  if (schema.properties !== undefined) return 'OBJECT';
  if (schema.items !== undefined) return 'ARRAY';
  if (enumValues && enumValues.length > 0) {
    const kinds = new Set(enumValues.map((value) => (Number.isInteger(value) ? 'integer' : typeof value)));
    return kinds.size === 1 ? TYPES[[...kinds][0]] : undefined;
  }
  return undefined;
}
