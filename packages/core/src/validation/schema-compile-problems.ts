import type { JsonSchema } from '../model/json-schema';

// Keywords whose value is a schema (1), an array of schemas (2), or an object of schemas (3) (draft
// 2020-12, and draft-07's `definitions`/`additionalItems`, which ajv still reads): only these are walked,
// so a `pattern` or `$ref` key inside `enum`, `const`, `default` or `examples` data is left alone.
const KINDS: Record<string, 1 | 2 | 3 | undefined> = Object.assign(Object.create(null) as Record<string, 1 | 2 | 3 | undefined>, {
  items: 1, additionalItems: 1, additionalProperties: 1, not: 1, if: 1, then: 1, else: 1, contains: 1, propertyNames: 1,
  unevaluatedItems: 1, unevaluatedProperties: 1, contentSchema: 1,
  allOf: 2, anyOf: 2, oneOf: 2, prefixItems: 2,
  properties: 3, patternProperties: 3, $defs: 3, definitions: 3, dependentSchemas: 3,
});

/**
 * What the meta-schema cannot see but ajv's compile fails on, one problem each: a `pattern` (or a
 * `patternProperties` key) that is not a regular expression (compiled as ajv does, with the `u` flag),
 * and a `$ref` JSON pointer (`#/$defs/Name`) that points to nothing in its schema resource. A walk of
 * the schema, no compile: startup checks every schema without paying for its validator.
 */
export function schemaCompileProblems(schema: JsonSchema): string[] {
  const problems: string[] = [];
  const walk = (node: unknown, path: string, resource: object): void => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    const here = node as Record<string, unknown>;
    // A `$id` below the root starts a resource of its own: its `#/…` pointers resolve inside it.
    const root = path !== '' && typeof here.$id === 'string' ? here : resource;
    if (typeof here.pattern === 'string') checkPattern(here.pattern, `schema${path}/pattern`, problems);
    if (typeof here.patternProperties === 'object' && here.patternProperties !== null) {
      for (const key of Object.keys(here.patternProperties)) checkPattern(key, `schema${path}/patternProperties`, problems);
    }
    if (typeof here.$ref === 'string' && here.$ref.startsWith('#/') && !resolves(root, here.$ref)) {
      problems.push(`schema${path}/$ref ${JSON.stringify(here.$ref)} points to nothing in the schema`);
    }
    // Only the keys the node has (a handful), each looked up once: cheap for the 500-tool startup.
    for (const key in here) {
      const kind = KINDS[key];
      if (kind === undefined) continue;
      const value = here[key];
      if (kind === 1) walk(value, `${path}/${key}`, root);
      else if (kind === 2) {
        if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}/${key}/${i}`, root));
      } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const name in value) walk((value as Record<string, unknown>)[name], `${path}/${key}/${name}`, root);
      }
    }
  };
  walk(schema, '', schema);
  return problems;
}

function checkPattern(pattern: string, where: string, problems: string[]): void {
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    problems.push(`${where} ${JSON.stringify(pattern)} is not a regular expression (${(error as Error).message})`);
  }
}

/** Whether a `#/a/b` JSON pointer names a value inside `root`. */
function resolves(root: object, ref: string): boolean {
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return false;
    }
    if (typeof current !== 'object' || current === null || !Object.prototype.hasOwnProperty.call(current, token)) return false;
    current = (current as Record<string, unknown>)[token];
  }
  return true;
}
