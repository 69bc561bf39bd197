import { toolLimitMessage } from '../errors/messages';
import { ToolsmithError } from '../errors/toolsmith-error';
import type { FunctionDeclaration } from '../model/function-declaration';
import type { JsonSchema } from '../model/json-schema';

/**
 * A provider's documented limits on the tools of one request. Each adapter keeps its numbers in one
 * table, with the documentation they come from; a limit left out is not checked.
 */
export interface ToolLimits {
  /** Function declarations in one request. */
  maxTools?: number;
  /** Characters in a function name. */
  maxNameLength?: number;
  /** Objects along any path of one schema, the root object included (`$ref`s are not followed). */
  maxNestingDepth?: number;
  /** Object properties in one schema, all levels and `$defs` included. */
  maxProperties?: number;
  /** `enum` values in one schema, all enums together. */
  maxEnumValues?: number;
}

/** Which limit a {@link ToolLimitViolation} breaks. */
export type ToolLimitName = keyof ToolLimits;

/** One limit a set of declarations breaks, as {@link findToolLimitViolation} reports it. */
export interface ToolLimitViolation {
  /** Which limit is broken; the key of {@link ToolLimits} it comes from. */
  limit: ToolLimitName;
  /** The provider's limit, as given in {@link ToolLimits}. */
  max: number;
  /** What the declarations have: the count (tools, characters, levels, properties or enum values) over `max`. */
  actual: number;
  /** The tool whose name or schema breaks the limit; absent for `maxTools`. */
  toolName?: string;
  /** JSON Pointer into the tool's canonical schema where the limit is passed (`''` for the whole schema). */
  schemaPath: string;
}

/** What each limit counts, for messages. */
const UNITS: Record<ToolLimitName, string> = {
  maxTools: 'tools',
  maxNameLength: 'characters in its name',
  maxNestingDepth: 'levels of nested objects',
  maxProperties: 'object properties',
  maxEnumValues: 'enum values',
};

/** How to get under each limit. */
const FIXES: Record<ToolLimitName, string> = {
  maxTools: 'offer fewer tools per agent (split the work across sub-agents, or filter toolsets with filterToolset/allowTools).',
  maxNameLength: 'give the tool a shorter name (@Tool({ name }), or a shorter toolset prefix).',
  maxNestingDepth: 'flatten the parameters (fewer nested objects), or refer to a shared part with $ref/$defs.',
  maxProperties: 'split the tool, or move rarely used fields into fewer, broader parameters.',
  maxEnumValues: 'use a plain string and check the value in the tool, or split the enum across tools.',
};

/**
 * Returns the first limit of `limits` that `declarations` break, or `undefined`: the number of tools,
 * then for each tool its name's length, its deepest object nesting, its property count and its enum
 * values. Pure and cheap; schema measurements are cached per schema object.
 *
 * @example
 * ```ts
 * const violation = findToolLimitViolation(declarations, { maxTools: 128, maxNestingDepth: 10 });
 * if (violation) throw new ToolLimitError('OpenAI', violation);
 * ```
 */
export function findToolLimitViolation(declarations: readonly FunctionDeclaration[], limits: ToolLimits): ToolLimitViolation | undefined {
  if (limits.maxTools !== undefined && declarations.length > limits.maxTools) {
    return { limit: 'maxTools', max: limits.maxTools, actual: declarations.length, schemaPath: '' };
  }
  for (const { name, parameters } of declarations) {
    if (limits.maxNameLength !== undefined && name.length > limits.maxNameLength) {
      return { limit: 'maxNameLength', max: limits.maxNameLength, actual: name.length, toolName: name, schemaPath: '' };
    }
    const measured = measure(parameters);
    for (const limit of ['maxNestingDepth', 'maxProperties', 'maxEnumValues'] as const) {
      const max = limits[limit];
      const { actual, path } = measured[limit];
      if (max !== undefined && actual > max) return { limit, max, actual, toolName: name, schemaPath: path };
    }
  }
  return undefined;
}

/**
 * One of a provider's documented limits is exceeded by an agent's tools (too many tools, too deep a
 * schema, too many enum values, …). Thrown by adapters from `Model.checkTools`, when the runner is built.
 * Code: `TOOL_LIMIT_EXCEEDED`.
 */
export class ToolLimitError extends ToolsmithError {
  constructor(
    /** The provider's display name, e.g. `OpenAI (strict mode)`. */
    readonly provider: string,
    /** The broken limit, with the numbers, tool and schema path the message names (also in `details`). */
    readonly violation: ToolLimitViolation,
  ) {
    const { limit, max, actual, toolName, schemaPath } = violation;
    super('TOOL_LIMIT_EXCEEDED', toolLimitMessage(provider, UNITS[limit], max, actual, toolName, schemaPath, FIXES[limit]), {
      details: { provider, ...violation },
    });
  }
}

interface Measurement {
  actual: number;
  path: string;
}
type SchemaMeasurements = Record<'maxNestingDepth' | 'maxProperties' | 'maxEnumValues', Measurement>;

const measured = new WeakMap<JsonSchema, SchemaMeasurements>();

function measure(schema: JsonSchema): SchemaMeasurements {
  let result = measured.get(schema);
  if (!result) {
    result = { maxNestingDepth: { actual: 0, path: '' }, maxProperties: { actual: 0, path: '' }, maxEnumValues: { actual: 0, path: '' } };
    walk(schema, '', 0, result);
    measured.set(schema, result);
  }
  return result;
}

/** Keywords whose value is one subschema, and those whose value is a list or a map of them. */
const ONE = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'];
const MANY = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

function walk(node: unknown, path: string, depth: number, out: SchemaMeasurements): void {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
  const schema = node as JsonSchema;
  const isObject = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || schema.properties !== undefined;
  const level = isObject ? depth + 1 : depth;
  if (level > out.maxNestingDepth.actual) out.maxNestingDepth = { actual: level, path };
  if (schema.properties && typeof schema.properties === 'object') {
    out.maxProperties.actual += Object.keys(schema.properties).length;
    if (!out.maxProperties.path) out.maxProperties.path = path;
  }
  if (Array.isArray(schema.enum)) {
    out.maxEnumValues.actual += schema.enum.length;
    out.maxEnumValues.path = path;
  }
  for (const keyword of ONE) walk(schema[keyword], `${path}/${keyword}`, level, out);
  for (const keyword of MANY) {
    const list = schema[keyword];
    if (Array.isArray(list)) list.forEach((item, index) => walk(item, `${path}/${keyword}/${index}`, level, out));
  }
  for (const keyword of MAPS) {
    const map = schema[keyword];
    if (typeof map !== 'object' || map === null) continue;
    // Definitions are reached through `$ref`s from anywhere: each is measured as if it stood at the top.
    const base = keyword === '$defs' || keyword === 'definitions' ? 0 : level;
    for (const [name, child] of Object.entries(map)) walk(child, `${path}/${keyword}/${name}`, base, out);
  }
}
