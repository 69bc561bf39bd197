// Gemini's documented rules for function declarations, written independently of the adapter so the
// dialect grid can check what it sends. Sources: the @google/genai reference — `FunctionDeclaration.name`
// ("Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots,
// colons and dashes", 64 in the Gemini API reference), `parameters` (the OpenAPI `Schema` fields;
// "Parameter names must start with a letter or an underscore and must only contain chars a-z, A-Z, 0-9,
// or underscores with a maximum length of 64"; formats: NUMBER float/double, INTEGER int32/int64, STRING
// enum/date-time), and the JSON Schema Gemini supports ("only the following properties are supported:
// $id, $defs, $ref, $anchor, type, format, title, description, enum (for strings and numbers), items,
// prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf, properties, additionalProperties,
// required", plus `propertyOrdering`; "If $ref is set on a sub-schema, no other properties, except for
// those starting as a $, may be set"; "Cyclic references … may only be used within non-required properties").

const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
// prettier-ignore
const JSON_KEYWORDS = new Set(['$id', '$defs', '$ref', '$anchor', 'type', 'format', 'title', 'description', 'enum', 'items', 'prefixItems', 'minItems', 'maxItems', 'minimum', 'maximum', 'anyOf', 'oneOf', 'properties', 'additionalProperties', 'required', 'propertyOrdering']);
// prettier-ignore
const OPENAPI_FIELDS = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'items', 'properties', 'required', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'example', 'default', 'anyOf', 'propertyOrdering']);
const OPENAPI_FORMATS: Record<string, string[]> = { NUMBER: ['float', 'double'], INTEGER: ['int32', 'int64'], STRING: ['enum', 'date-time'] };
const OPENAPI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT']);

type Schema = Record<string, unknown>;
interface SentDeclaration {
  name: string;
  parameters?: Schema;
  parametersJsonSchema?: Schema;
}

/** Problems Gemini would report for one function declaration as sent. */
export function geminiDeclarationProblems(declaration: SentDeclaration): string[] {
  const problems: string[] = [];
  if (!NAME.test(declaration.name)) problems.push(`name "${declaration.name}" does not match ${NAME}`);
  if (declaration.parameters && declaration.parametersJsonSchema) problems.push('parameters and parametersJsonSchema are mutually exclusive');
  if (declaration.parametersJsonSchema) jsonSchemaProblems(declaration.parametersJsonSchema, problems);
  if (declaration.parameters) openApiProblems(declaration.parameters, '', problems);
  return problems;
}

function jsonSchemaProblems(root: Schema, problems: string[]): void {
  if (root.type !== 'object') problems.push('parametersJsonSchema must describe an object');
  const defs = (root.$defs ?? {}) as Record<string, Schema>;
  const refsOf = (node: unknown, out: string[] = []): string[] => {
    if (typeof node === 'object' && node !== null) {
      if (typeof (node as Schema).$ref === 'string') out.push(String((node as Schema).$ref).replace('#/$defs/', ''));
      Object.values(node).forEach((value) => refsOf(value, out));
    }
    return out;
  };
  const cyclic = (name: string): boolean => {
    const seen = new Set<string>();
    const stack = refsOf(defs[name]);
    while (stack.length) {
      const next = stack.pop()!;
      if (next === name) return true;
      if (!seen.has(next) && defs[next]) {
        seen.add(next);
        stack.push(...refsOf(defs[next]));
      }
    }
    return false;
  };
  const visit = (node: unknown, path: string, underRequired: boolean): void => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return void (typeof node === 'boolean' || problems.push(`${path}: not a schema`));
    const schema = node as Schema;
    for (const keyword of Object.keys(schema)) if (!JSON_KEYWORDS.has(keyword)) problems.push(`${path}: "${keyword}" is not supported`);
    if (typeof schema.$ref === 'string') {
      if (Object.keys(schema).some((keyword) => !keyword.startsWith('$'))) problems.push(`${path}: $ref has non-$ siblings`);
      // Cyclic references are the ones inside the definitions of the cycle.
      if (underRequired && path.startsWith('/$defs/') && cyclic(schema.$ref.replace('#/$defs/', ''))) problems.push(`${path}: cyclic reference under a required property`);
    }
    if (Array.isArray(schema.enum) && !schema.enum.every((value) => typeof value === 'string' || typeof value === 'number')) problems.push(`${path}: enum holds values other than strings and numbers`);
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const [name, child] of Object.entries((schema.properties ?? {}) as Schema)) visit(child, `${path}/properties/${name}`, required.includes(name));
    for (const keyword of ['items', 'additionalProperties']) if (schema[keyword] !== undefined) visit(schema[keyword], `${path}/${keyword}`, underRequired);
    for (const keyword of ['anyOf', 'oneOf', 'prefixItems']) if (Array.isArray(schema[keyword])) (schema[keyword] as unknown[]).forEach((item, i) => visit(item, `${path}/${keyword}/${i}`, underRequired));
    if (path === '') for (const [name, def] of Object.entries(defs)) visit(def, `/$defs/${name}`, false);
  };
  visit(root, '', false);
}

function openApiProblems(schema: Schema, path: string, problems: string[]): void {
  for (const field of Object.keys(schema)) if (!OPENAPI_FIELDS.has(field)) problems.push(`${path}: field "${field}" is not in Schema`);
  const type = String(schema.type);
  if (!OPENAPI_TYPES.has(type)) problems.push(`${path}: type ${JSON.stringify(schema.type)} is not a Schema type`);
  if (schema.format !== undefined && !OPENAPI_FORMATS[type]?.includes(String(schema.format))) problems.push(`${path}: format "${String(schema.format)}" is not supported for ${type}`);
  if (schema.enum !== undefined && (!Array.isArray(schema.enum) || !schema.enum.every((value) => typeof value === 'string'))) problems.push(`${path}: enum must list strings`);
  if (type === 'OBJECT') {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    if (Object.keys(properties).length === 0) problems.push(`${path}: an OBJECT must list its properties`);
    for (const [name, child] of Object.entries(properties)) {
      if (!PARAMETER_NAME.test(name)) problems.push(`${path}: parameter name "${name}" does not match ${PARAMETER_NAME}`);
      openApiProblems(child, `${path}/properties/${name}`, problems);
    }
  }
  if (type === 'ARRAY') {
    if (typeof schema.items !== 'object' || schema.items === null) problems.push(`${path}: an ARRAY needs items`);
    else openApiProblems(schema.items as Schema, `${path}/items`, problems);
  }
}
