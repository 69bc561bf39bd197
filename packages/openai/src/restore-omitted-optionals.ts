import type { JsonSchema } from '@toolsmith/core';

/**
 * Undoes the strict-mode encoding of optional properties in arguments the model sent. Strict mode makes
 * the model send every property, so `null` is its only way to say "left out": a `null` for a property the
 * canonical schema does not require is removed, and the tool sees `undefined` (and its default), exactly
 * as when Anthropic or Gemini leave the property out. That holds also when the property accepts `null`
 * itself (a class-validator `@IsOptional()` field does): in strict mode "null" and "absent" cannot be told
 * apart, and "absent" is what an optional property's `null` nearly always means. Works through nested
 * objects, arrays, `anyOf` and local `$ref`s. Returns a new value; the input is not modified.
 */
export function restoreOmittedOptionals(value: unknown, schema: JsonSchema): unknown {
  return restore(value, schema, schema, 0);
}

/** Guards against `$ref` cycles in a malformed schema. */
const MAX_DEPTH = 64;

function restore(value: unknown, node: unknown, root: JsonSchema, depth: number): unknown {
  const schema = resolve(node, root);
  if (!schema || depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    return schema.items === undefined ? value : value.map((item) => restore(item, schema.items, root, depth + 1));
  }
  const objectSchema = schema.properties ? schema : objectBranch(schema, root);
  if (!objectSchema) return value;
  const properties = (objectSchema.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(objectSchema.required) ? (objectSchema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const childSchema = properties[key];
    if (child === null && childSchema !== undefined && !required.has(key)) continue;
    out[key] = childSchema === undefined ? child : restore(child, childSchema, root, depth + 1);
  }
  return out;
}

function objectBranch(schema: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  if (!Array.isArray(schema.anyOf)) return undefined;
  for (const branch of schema.anyOf) {
    const resolved = resolve(branch, root);
    if (resolved?.properties) return resolved;
  }
  return undefined;
}

/** Follows local `$ref`s (`#`, `#/$defs/X`, `#/definitions/X`) to the schema they name. */
function resolve(node: unknown, root: JsonSchema): JsonSchema | undefined {
  let current = node;
  for (let hops = 0; hops < MAX_DEPTH; hops++) {
    if (typeof current !== 'object' || current === null) return undefined;
    const ref = (current as JsonSchema).$ref;
    if (typeof ref !== 'string') return current as JsonSchema;
    if (!ref.startsWith('#')) return undefined;
    current = ref
      .slice(1)
      .split('/')
      .filter(Boolean)
      .reduce<unknown>((at, segment) => (at as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')], root);
  }
  return undefined;
}
