import type { JsonSchema } from '@toolsmith/core';
import type { ManifestDocument } from '@toolsmith/core/internal';
import type { FoundToolset } from './find-toolsets';

/**
 * The manifest as a person reads it: each toolset, each tool under its final name with its
 * description, each parameter as `name?: type = default — description`, and the return type.
 * Schemas are written in TypeScript-like notation.
 */
export function printManifest(document: ManifestDocument, toolsets: FoundToolset[]): string {
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
  return lines.join('\n');
}

/** A schema in TypeScript-like notation, e.g. `{ lat: number; lon: number }[]`. */
export function typeText(schema: JsonSchema | boolean): string {
  if (typeof schema === 'boolean') return schema ? 'any' : 'never';
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  if (typeof schema.$ref === 'string') return schema.$ref.replace(/^#\/\$defs\//, '');
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return union.map((member) => typeText(member)).join(' | ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length === 0) return 'unknown';
  return types.map((type) => singleTypeText(type, schema)).join(' | ');
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
