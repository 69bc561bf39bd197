import type { JsonSchema } from '@toolsmith/core';

// Keywords whose value is one schema, or a list or a map of schemas, that may hold objects to close.
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'];
const LIST = ['prefixItems', 'anyOf', 'oneOf', 'allOf'];
const MAP = ['properties', 'patternProperties', '$defs'];

/**
 * The schema with every object it describes closed: `additionalProperties: false` on each object schema
 * with `properties` and no `additionalProperties` of its own (interfaces, type aliases, recursive types'
 * definitions, `Record<'a' | 'b', T>`), as the tool's own arguments object is; an index signature or
 * `Record<string, T>` keeps `additionalProperties: T`. An intersection of inline objects (`A & B`) is
 * merged into one object first, since closing each part would refuse the other's properties (a part that names a
 * definition, `Tree & B`, as that definition); one that cannot be merged (a part with more than properties, a `$ref`
 * to what is not a definition) is closed as a whole with `unevaluatedProperties: false`.
 */
export function closeObjects(schema: JsonSchema, defs: Readonly<Record<string, JsonSchema>> = {}): JsonSchema {
  const merged = mergeIntersection(schema, defs);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(merged)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') out[key] = value;
    else if (ONE.includes(key) && isSchema(value)) out[key] = closeObjects(value, defs);
    else if (LIST.includes(key) && Array.isArray(value)) out[key] = value.map((member) => (isSchema(member) ? closeObjects(member, defs) : member));
    else if (MAP.includes(key) && isSchema(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, isSchema(member) ? closeObjects(member, defs) : member]));
    else out[key] = value;
  }
  if (isSchema(out.properties) && out.additionalProperties === undefined && out.patternProperties === undefined && out.allOf === undefined) {
    out.additionalProperties = false;
  }
  if (Array.isArray(out.allOf)) {
    // The parts stay open (each would refuse the other's properties); the whole is closed.
    out.allOf = (out.allOf as unknown[]).map((part) => (isSchema(part) && part.additionalProperties === false ? withoutKey(part, 'additionalProperties') : part));
    if (out.unevaluatedProperties === undefined) out.unevaluatedProperties = false;
  }
  return out as JsonSchema;
}

/**
 * `{ allOf: [objects] }` of object schemas as one object: properties and `required` joined. A part that is only a
 * `$ref` to a definition (`Tree & { tag: string }`) is merged as the definition it names, as it was before closing: the
 * definition itself is closed, so an `allOf` holding it would refuse the other part's properties, and no value would fit.
 */
function mergeIntersection(schema: JsonSchema, defs: Readonly<Record<string, JsonSchema>>): JsonSchema {
  const allOf = schema.allOf;
  if (!Array.isArray(allOf)) return schema;
  const parts = allOf.map((part) => (isSchema(part) ? referenced(part, defs) ?? part : part));
  if (!parts.every((part) => isSchema(part) && part.type === 'object' && part.$ref === undefined && isMergeable(part))) return schema;
  const { allOf: _parts, ...rest } = schema;
  void _parts;
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  for (const part of parts as JsonSchema[]) {
    for (const [name, property] of Object.entries((part.properties ?? {}) as Record<string, JsonSchema>)) {
      properties[name] = name in properties ? { allOf: [properties[name], property] } : property;
    }
    for (const name of (part.required ?? []) as string[]) required.add(name);
  }
  const object: JsonSchema = { ...rest, type: 'object', properties };
  if (required.size > 0) object.required = [...required].sort();
  return object;
}

/** The definition a `{ $ref: '#/$defs/Name' }` part (nothing else beside it) names, as generated (not yet closed). */
function referenced(part: JsonSchema, defs: Readonly<Record<string, JsonSchema>>): JsonSchema | undefined {
  const ref = part.$ref;
  if (typeof ref !== 'string' || Object.keys(part).length !== 1 || !ref.startsWith('#/$defs/')) return undefined;
  const name = decodeURIComponent(ref.slice('#/$defs/'.length)).replace(/~1/g, '/').replace(/~0/g, '~');
  return Object.prototype.hasOwnProperty.call(defs, name) ? defs[name] : undefined;
}

// Only `type`, `properties`, `required` and `description`: anything else (an index signature, bounds) is kept as an intersection.
function isMergeable(part: JsonSchema): boolean {
  return Object.keys(part).every((key) => key === 'type' || key === 'properties' || key === 'required' || key === 'description');
}

function withoutKey(schema: JsonSchema, key: string): JsonSchema {
  const { [key]: removed, ...rest } = schema;
  void removed;
  return rest;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
