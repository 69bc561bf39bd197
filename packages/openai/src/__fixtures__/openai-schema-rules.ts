// OpenAI's documented rules for function tools, written independently of the adapter so the dialect
// grid can check what it sends. Sources: API reference (`tools`: "A max of 128 functions"; function
// `name`: "a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64") and the
// Structured Outputs guide, "Supported schemas" (strict mode): supported keywords and formats, root
// must be an object and not anyOf, `additionalProperties: false` and every property required in each
// object, `$ref` alone, at most 10 levels of nesting, 5000 properties and 1000 enum values.

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
// prettier-ignore
const STRICT_KEYWORDS = new Set(['type', 'description', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', '$ref', '$defs', 'definitions', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems']);
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

type Schema = Record<string, unknown>;

/** Problems OpenAI would report for one function tool (name, parameters) in strict or non-strict mode. */
export function openAIToolProblems(tool: { name: string; parameters: unknown; strict?: boolean | null }): string[] {
  const problems: string[] = [];
  if (!NAME.test(tool.name)) problems.push(`name "${tool.name}" does not match ${NAME}`);
  const root = tool.parameters as Schema;
  if (typeof root !== 'object' || root === null || root.type !== 'object') problems.push('parameters must be an object schema');
  if (!tool.strict) return problems;
  if (root.anyOf !== undefined) problems.push('root must not be anyOf');
  let properties = 0;
  let enumValues = 0;
  let deepest = 0;
  const visit = (node: unknown, path: string, depth: number): void => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return void problems.push(`${path}: not a schema`);
    const schema = node as Schema;
    for (const keyword of Object.keys(schema)) if (!STRICT_KEYWORDS.has(keyword)) problems.push(`${path}: keyword "${keyword}" is not supported`);
    if (typeof schema.$ref === 'string' && Object.keys(schema).some((keyword) => keyword !== '$ref' && !(path === '' && keyword === '$defs'))) {
      problems.push(`${path}: $ref has sibling keywords`);
    }
    if (typeof schema.format === 'string' && !STRICT_FORMATS.has(schema.format)) problems.push(`${path}: format "${schema.format}" is not supported`);
    if (Array.isArray(schema.enum)) enumValues += schema.enum.length;
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const level = types.includes('object') ? depth + 1 : depth;
    deepest = Math.max(deepest, level);
    if (types.includes('object')) {
      const props = (schema.properties ?? {}) as Record<string, unknown>;
      properties += Object.keys(props).length;
      if (schema.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
      const required = Array.isArray(schema.required) ? schema.required : [];
      if (Object.keys(props).some((name) => !required.includes(name))) problems.push(`${path}: every property must be required`);
      for (const [name, child] of Object.entries(props)) visit(child, `${path}/properties/${name}`, level);
    }
    if (types.includes('array')) {
      if (typeof schema.items !== 'object' || schema.items === null) problems.push(`${path}: array needs items`);
      else visit(schema.items, `${path}/items`, level);
    }
    if (Array.isArray(schema.anyOf)) schema.anyOf.forEach((branch, i) => visit(branch, `${path}/anyOf/${i}`, depth));
    if (schema.$defs) for (const [name, def] of Object.entries(schema.$defs as object)) visit(def, `/$defs/${name}`, 0);
    if (schema.type === undefined && schema.anyOf === undefined && schema.$ref === undefined && schema.enum === undefined && schema.const === undefined) {
      problems.push(`${path}: no type`);
    }
  };
  visit(root, '', 0);
  if (deepest > 10) problems.push(`${deepest} levels of nesting exceed 10`);
  if (properties > 5000) problems.push(`${properties} properties exceed 5000`);
  if (enumValues > 1000) problems.push(`${enumValues} enum values exceed 1000`);
  return problems;
}
