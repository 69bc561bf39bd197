import { ToolsmithError } from '../errors/toolsmith-error';
import type { JsonSchema } from '../model/json-schema';

/**
 * A `$ref` could not be inlined: it points outside the schema, at nothing, or (directly or not) at
 * itself, which no finite schema can spell out. Code: `SCHEMA_REF_UNRESOLVABLE`.
 */
export class SchemaRefError extends ToolsmithError {
  constructor(
    /** The `$ref` value that could not be inlined, e.g. `#/$defs/Node`. */
    readonly ref: string,
    /** JSON Pointer of the `$ref` in the schema. */
    readonly schemaPath: string,
    reason: string,
  ) {
    super('SCHEMA_REF_UNRESOLVABLE', `Cannot inline "$ref": "${ref}" at ${schemaPath || '/'}: ${reason}.`, { details: { ref, schemaPath } });
  }
}

/**
 * Returns a copy of `schema` with every local `$ref` (`#`, `#/$defs/…`, `#/definitions/…`, any JSON
 * Pointer into the schema) replaced by the schema it points to, and without the then unused `$defs` /
 * `definitions`. Keywords beside a `$ref` are kept and win over the target's. For providers whose schema
 * dialect has no references (Gemini's OpenAPI subset). Throws {@link SchemaRefError} for remote,
 * dangling and recursive references.
 *
 * @example
 * ```ts
 * inlineSchemaRefs({ type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string' } } });
 * // → { type: 'object', properties: { a: { type: 'string' } } }
 * ```
 */
export function inlineSchemaRefs(schema: JsonSchema): JsonSchema {
  // The root is being inlined from the start, so a '#' reference anywhere is recursive.
  return inline(schema, schema, '', ['#']) as JsonSchema;
}

function inline(node: unknown, root: JsonSchema, path: string, resolving: string[]): unknown {
  if (Array.isArray(node)) return node.map((item, index) => inline(item, root, `${path}/${index}`, resolving));
  if (typeof node !== 'object' || node === null) return node;

  const record = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === '$ref' || ((key === '$defs' || key === 'definitions') && node === root)) continue;
    // `properties` maps names to schemas: a property named `$ref` is a name, not a reference.
    out[key] = key === 'properties' || key === 'patternProperties' ? inlineMap(value, root, `${path}/${key}`, resolving) : inline(value, root, `${path}/${key}`, resolving);
  }
  const ref = record.$ref;
  if (ref === undefined) return out;
  if (typeof ref !== 'string' || !ref.startsWith('#')) throw new SchemaRefError(String(ref), `${path}/$ref`, 'only references inside the schema can be inlined');
  if (resolving.includes(ref)) throw new SchemaRefError(ref, `${path}/$ref`, 'the schema is recursive, so it has no finite inline form');
  const target = resolvePointer(root, ref);
  if (target === undefined) throw new SchemaRefError(ref, `${path}/$ref`, 'nothing in the schema is at that location');
  const resolved = inline(target, root, `${path}/$ref`, [...resolving, ref]);
  return typeof resolved === 'object' && resolved !== null ? { ...(resolved as object), ...out } : resolved;
}

function inlineMap(value: unknown, root: JsonSchema, path: string, resolving: string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return inline(value, root, path, resolving);
  return Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, inline(schema, root, `${path}/${name}`, resolving)]));
}

function resolvePointer(root: JsonSchema, ref: string): unknown {
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let current: unknown = root;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null || !(key in current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
