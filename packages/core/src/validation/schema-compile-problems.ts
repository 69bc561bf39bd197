import type { JsonSchema } from '../model/json-schema';
import { closestName } from './closest-name';
import { AJV_FORMATS, KEYWORDS, NOT_READ_BY_AJV } from './schema-keywords';

/** What a `$ref` is resolved against when the schema has no `$id` (ajv's is `''`; any base resolves the same). */
const NO_ID_BASE = 'https://toolsmith.invalid/schema.json';
/** ajv (draft 2020-12) knows the draft's meta-schemas: a `$ref` to one resolves. */
const META_SCHEMAS = 'https://json-schema.org/draft/2020-12/';

/** A schema resource: the schema at the root or at an `$id`, with the `$anchor`s it defines. */
interface Resource {
  readonly node: object;
  /** Made when the resource defines its first anchor. */
  anchors?: Set<string>;
}

/**
 * What the meta-schema cannot see but ajv's compile fails on, or would silently not check, one problem
 * each: a `pattern` (or a `patternProperties` key) that is not a regular expression (compiled as ajv does,
 * with the `u` flag); a `$ref` that resolves to nothing in the schema (a `#/…` pointer to nothing, an
 * `#anchor` no `$anchor` defines, another document, `other.json#/x` or `https://…`, unless an `$id` in the
 * schema is that document: ajv loads nothing). With `strict` (a schema ajv judges the values by), also a
 * keyword ajv does not know (`minLenght`: the constraint would not be checked), with the keyword it is
 * closest to, and a `format` ajv-formats does not know. Keywords of the providers' dialects (`nullable`,
 * `example`, `discriminator`, `propertyOrdering`) and `x-…` extensions are allowed. A walk of the schema,
 * no compile: startup checks every schema without paying for its validator.
 */
export function schemaCompileProblems(schema: JsonSchema, strict = true): string[] {
  const problems: string[] = [];
  const rootBase = typeof schema.$id === 'string' ? withoutFragment(resolveUri(schema.$id, NO_ID_BASE)) : NO_ID_BASE;
  const root: Resource = { node: schema };
  // Resources by their URI; with no `$id` below the root (the usual schema), none but the root is made.
  const resources = new Map<string, Resource>([[rootBase, root]]);
  // References other than `#/…` pointers, resolved once every `$id` and `$anchor` is known.
  let deferred: Array<{ ref: string; base: string; where: string }> | undefined;
  const walk = (node: unknown, path: string, resource: Resource, base: string): void => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    const here = node as Record<string, unknown>;
    // An `$id` below the root starts a resource of its own: its `#…` references resolve inside it.
    if (path !== '' && typeof here.$id === 'string') {
      base = withoutFragment(resolveUri(here.$id, base));
      resource = { node: here };
      resources.set(base, resource);
    }
    if (typeof here.$anchor === 'string') (resource.anchors ??= new Set()).add(here.$anchor);
    if (typeof here.$dynamicAnchor === 'string') (resource.anchors ??= new Set()).add(here.$dynamicAnchor);
    const ref = here.$ref;
    if (typeof ref === 'string') {
      if (ref.startsWith('#/')) {
        if (!resolvesPointer(resource.node, ref.slice(1))) problems.push(`schema${path}/$ref ${JSON.stringify(ref)} points to nothing in the schema`);
      } else (deferred ??= []).push({ ref, base, where: `schema${path}/$ref` });
    }
    if (typeof here.pattern === 'string') checkPattern(here.pattern, `schema${path}/pattern`, problems);
    if (typeof here.patternProperties === 'object' && here.patternProperties !== null) {
      for (const key of Object.keys(here.patternProperties)) checkPattern(key, `schema${path}/patternProperties`, problems);
    }
    if (strict && typeof here.format === 'string' && AJV_FORMATS[here.format] !== true) {
      problems.push(`schema${path}/format ${JSON.stringify(here.format)} is not a format ajv checks, so it would not be checked${didYouMean(here.format, Object.keys(AJV_FORMATS))}`);
    }
    // Only the keys the node has (a handful), each looked up once: cheap for the 500-tool startup.
    for (const key in here) {
      const kind = KEYWORDS[key];
      if (kind === undefined) {
        if (strict && !key.startsWith('x-')) problems.push(unknownKeyword(key, `schema${path}/${key}`));
        continue;
      }
      if (kind === 0) continue;
      const value = here[key];
      if (kind === 1) walk(value, `${path}/${key}`, resource, base);
      else if (kind === 2) {
        if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}/${key}/${i}`, resource, base));
      } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const name in value) walk((value as Record<string, unknown>)[name], `${path}/${key}/${name}`, resource, base);
      }
    }
  };
  walk(schema, '', root, rootBase);
  for (const { ref, base, where } of deferred ?? []) {
    const problem = refProblem(ref, base, resources);
    if (problem) problems.push(`${where} ${JSON.stringify(ref)} ${problem}`);
  }
  return problems;
}

/** Why `ref` (resolved against `base`) names nothing in the schema's resources, or `undefined`. */
function refProblem(ref: string, base: string, resources: ReadonlyMap<string, Resource>): string | undefined {
  const absolute = resolveUri(ref, base);
  const hash = absolute.indexOf('#');
  const document = hash === -1 ? absolute : absolute.slice(0, hash);
  const fragment = hash === -1 ? '' : absolute.slice(hash + 1);
  const resource = resources.get(document);
  if (!resource) {
    if (document.startsWith(META_SCHEMAS)) return undefined;
    return (
      'is not in the schema: ajv loads no other document (file or URL), so every call would fail; point inside the ' +
      'schema (#/$defs/Name), or give the referenced schema an $id the reference names'
    );
  }
  if (fragment === '') return undefined;
  if (fragment.startsWith('/')) return resolvesPointer(resource.node, fragment) ? undefined : 'points to nothing in the schema';
  let anchor: string;
  try {
    anchor = decodeURIComponent(fragment);
  } catch {
    anchor = fragment;
  }
  return resource.anchors?.has(anchor) ? undefined : `names an anchor no $anchor of the schema defines${didYouMean(anchor, [...(resource.anchors ?? [])])}`;
}

/** `ref` resolved against `base` as a URI reference; as it is when either cannot be read as a URL. */
function resolveUri(ref: string, base: string): string {
  if (ref.startsWith('#')) return withoutFragment(base) + ref;
  try {
    return new URL(ref, base).href;
  } catch {
    return ref;
  }
}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash === -1 ? uri : uri.slice(0, hash);
}

function unknownKeyword(key: string, where: string): string {
  const reason = NOT_READ_BY_AJV[key];
  if (reason !== undefined) return `${where}: ${reason}`;
  return (
    `${where} is not a JSON Schema keyword ajv knows, so the constraint would not be checked${didYouMean(key, Object.keys(KEYWORDS))}; ` +
    'annotations of your own go under a name starting with x-'
  );
}

function didYouMean(name: string, known: readonly string[]): string {
  const closest = closestName(name, known);
  return closest === undefined ? '' : ` (did you mean ${JSON.stringify(closest)}?)`;
}

function checkPattern(pattern: string, where: string, problems: string[]): void {
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    problems.push(`${where} ${JSON.stringify(pattern)} is not a regular expression (${(error as Error).message})`);
  }
}

/** Whether a `/a/b` JSON pointer (a URI fragment) names a value inside `root`. */
function resolvesPointer(root: object, pointer: string): boolean {
  let current: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
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
