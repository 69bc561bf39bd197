import type { JsonSchema } from '@toolsmith/core';
import type { ManifestDocument } from '@toolsmith/core/internal';
import type { DtoToolSchema } from './compiled-dto-schemas';
import type { FoundToolset } from './find-toolsets';

/**
 * The manifest as a person reads it: each toolset, each tool under its final name with its
 * description, each parameter as `name?: type = default — description`, and the return type.
 * Schemas are written in TypeScript-like notation, with their constraints. A DTO tool shows the
 * properties of the schema its class-validator rules make (`dtoSchemas`, keyed `Class.method`), which
 * is what the model gets: the DTO's properties are the tool's arguments. Then each `manifestType`.
 */
export function printManifest(document: ManifestDocument, toolsets: FoundToolset[], dtoSchemas: ReadonlyMap<string, DtoToolSchema> = new Map()): string {
  const lines: string[] = [];
  for (const toolset of toolsets) {
    const entry = document.toolsets[toolset.className];
    if (!entry) continue;
    lines.push(`${toolset.className}  (${entry.source})`);
    if (toolset.tools.length === 0) lines.push('  (no @Tool methods)');
    for (const tool of toolset.tools) {
      const method = entry.methods[tool.methodName];
      const name = `${toolset.prefix ?? ''}${tool.explicitName ?? tool.methodName}`;
      const description = tool.explicitDescription ?? method.description ?? '(no description: add a JSDoc comment)';
      lines.push(`  ${name} — ${description}`);
      const dto = dtoSchemas.get(`${toolset.className}.${tool.methodName}`);
      if (dto) lines.push(...dtoLines(dto));
      for (const parameter of method.parameters) {
        const { default: defaultValue } = parameter.schema;
        const suffix = defaultValue === undefined ? '' : ` = ${JSON.stringify(defaultValue)}`;
        const about = parameter.description ? ` — ${parameter.description}` : '';
        lines.push(`    ${parameter.name}${parameter.optional ? '?' : ''}: ${typeText(parameter.schema)}${suffix}${about}`);
      }
      if (method.contextIndex !== undefined) lines.push(`    (ToolContext injected as argument ${method.contextIndex + 1})`);
      if (method.outputSchema) lines.push(`    returns ${typeText(method.outputSchema)}`);
    }
    lines.push('');
  }
  const types = Object.entries(document.types ?? {});
  if (types.length > 0) lines.push('Types (manifestType)');
  for (const [name, type] of types) lines.push(`  ${name}  (${type.source})`, `    ${typeText(type.schema)}`);
  if (types.length > 0) lines.push('');
  return lines.join('\n');
}

/** The arguments of a DTO tool, one property a line: `name?: type (constraints) — description`. */
function dtoLines(dto: DtoToolSchema): string[] {
  if ('reason' in dto) return [`    (arguments: the properties of ${dto.dtoClass}; not shown: ${dto.reason})`];
  const properties = (dto.parameters.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((dto.parameters.required as string[] | undefined) ?? []);
  const lines = [`    (arguments: the properties of ${dto.dtoClass}${dto.parameters.additionalProperties === false ? ', no others' : ''})`];
  for (const [name, schema] of Object.entries(properties)) {
    const limits = constraintText(schema);
    const about = typeof schema.description === 'string' ? ` — ${schema.description}` : '';
    lines.push(`    ${name}${required.has(name) ? '' : '?'}: ${typeText(schema)}${limits ? ` (${limits})` : ''}${about}`);
  }
  return lines;
}

const CONSTRAINTS = ['minLength', 'maxLength', 'pattern', 'format', 'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'not'];

/** The keywords of a schema that restrict values beyond their type, e.g. `minLength 1, maxLength 80`. */
export function constraintText(schema: JsonSchema): string {
  return CONSTRAINTS.filter((key) => schema[key] !== undefined)
    .map((key) => `${key} ${typeof schema[key] === 'object' ? JSON.stringify(schema[key]) : String(schema[key])}`)
    .join(', ');
}

/** A schema in TypeScript-like notation, e.g. `{ lat: number; lon: number }[]`. */
export function typeText(schema: JsonSchema | boolean): string {
  if (typeof schema === 'boolean') return schema ? 'any' : 'never';
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  if (typeof schema.$ref === 'string') return schema.$ref.replace(/^#\/\$defs\//, '');
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return nullLast(union.map((member) => typeText(member))).join(' | ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length === 0) return 'unknown';
  return nullLast(types.map((type) => singleTypeText(type, schema))).join(' | ');
}

/** `null` after the other members, as TypeScript code writes it (`string | null`), whichever order the compiler emitted. */
function nullLast(members: string[]): string[] {
  const others = members.filter((member) => member !== 'null');
  return others.length === members.length ? members : [...others, 'null'];
}

function singleTypeText(type: string, schema: JsonSchema): string {
  switch (type) {
    case 'string':
      return schema.format === 'date-time' ? 'Date (date-time string)' : 'string';
    case 'integer':
    case 'number':
    case 'boolean':
    case 'null':
      return type;
    case 'array': {
      const items = schema.items as JsonSchema | undefined;
      const element = items ? typeText(items) : 'unknown';
      return /[ |]/.test(element) && !element.startsWith('{') ? `(${element})[]` : `${element}[]`;
    }
    case 'object': {
      const properties = schema.properties as Record<string, JsonSchema> | undefined;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      if (properties && Object.keys(properties).length > 0) {
        const members = Object.entries(properties).map(([key, value]) => `${key}${required.has(key) ? '' : '?'}: ${typeText(value)}`);
        return `{ ${members.join('; ')} }`;
      }
      const additional = schema.additionalProperties as JsonSchema | boolean | undefined;
      if (additional !== undefined && additional !== false) return `Record<string, ${typeText(additional)}>`;
      return 'object';
    }
    default:
      return type;
  }
}
