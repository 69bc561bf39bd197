import type { JsonSchema } from '@toolsmith/core';
import type { TypeSchema } from './type-schemas';

const DEFINITION_REF = '#/definitions/';
// Keywords whose values are data, not schemas: a `$ref` string inside them is not a reference.
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

/**
 * Replaces typescript-json-schema's `$ref`s into `definitions` with the definitions themselves, so each
 * parameter schema stands alone (and providers with weak `$ref` support get plain schemas). Recursive
 * types cannot be inlined: they are returned in `defs` and referenced as `#/$defs/<name>`.
 */
export function inlineDefinitions(schema: JsonSchema, definitions: Record<string, JsonSchema>): TypeSchema {
  const recursive = findRecursive(definitions);
  const defs: Record<string, JsonSchema> = {};

  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== 'object' || node === null) return node;
    const { $ref, ...rest } = node as Record<string, unknown>;
    const siblings: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rest)) siblings[key] = DATA_KEYWORDS.has(key) ? value : visit(value);
    if (typeof $ref !== 'string' || !$ref.startsWith(DEFINITION_REF)) {
      return $ref === undefined ? siblings : { $ref, ...siblings };
    }
    const name = decodeURIComponent($ref.slice(DEFINITION_REF.length));
    if (recursive.has(name)) {
      const key = defsKey(name);
      if (!(key in defs)) {
        defs[key] = {}; // placeholder first: the definition refers to itself
        defs[key] = visit(definitions[name]) as JsonSchema;
      }
      return { $ref: `#/$defs/${key}`, ...siblings };
    }
    // Annotations written at the use site (a property's description) win over the type's own.
    return { ...(visit(definitions[name]) as Record<string, unknown>), ...siblings };
  };

  return { schema: visit(schema) as JsonSchema, defs };
}

/** `$defs` keys are kept to characters that need no escaping in a JSON pointer or URI. */
function defsKey(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_');
}

/** Names of definitions that can reach themselves through `$ref`s. */
function findRecursive(definitions: Record<string, JsonSchema>): Set<string> {
  const edges = new Map<string, Set<string>>();
  for (const [name, definition] of Object.entries(definitions)) edges.set(name, collectRefs(definition, new Set()));
  const recursive = new Set<string>();
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length > 0) {
      const name = stack.pop()!;
      if (name === start) {
        recursive.add(start);
        break;
      }
      if (seen.has(name)) continue;
      seen.add(name);
      stack.push(...(edges.get(name) ?? []));
    }
  }
  return recursive;
}

function collectRefs(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => collectRefs(item, into));
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(DEFINITION_REF)) {
        into.add(decodeURIComponent(value.slice(DEFINITION_REF.length)));
      } else if (!DATA_KEYWORDS.has(key)) collectRefs(value, into);
    }
  }
  return into;
}
