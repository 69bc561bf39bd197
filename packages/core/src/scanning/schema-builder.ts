import type { ParamMetadata } from '../decorators/param.decorator';
import type { DefinitionSite } from '../errors/messages';
import { UnknownParameterTypeError } from '../errors/tool-definition-errors';
import type { JsonSchema } from '../model/json-schema';
import { buildDtoSchema, isDtoClass } from './dto-schema';

/** What reflection makes of one `@Param` parameter. */
export interface ReflectedParameter {
  schema: JsonSchema;
  /** Set when the parameter's type is a class-validator DTO: the value is converted to it. */
  dto?: { type: Function; runClassValidator: boolean };
}

const PRIMITIVES = new Map<unknown, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

/**
 * The JSON Schema of a `@Param` parameter from its reflected TypeScript type and its options:
 * `string`/`number`/`boolean`, a string or numeric TS enum (with `enum`), a literal union (with
 * `enum`), or a class-validator DTO class (a nested object). Anything else cannot be known.
 */
export function reflectParameterSchema(type: unknown, param: ParamMetadata, site: DefinitionSite): ReflectedParameter {
  const { enum: values } = param.options;
  let reflected: ReflectedParameter;
  if (values) {
    reflected = { schema: enumSchema(values) };
  } else if (PRIMITIVES.has(type)) {
    reflected = { schema: { type: PRIMITIVES.get(type) } };
  } else if (isDtoClass(type)) {
    const dto = buildDtoSchema(type, site);
    reflected = { schema: { ...dto.schema }, dto: { type, runClassValidator: dto.runClassValidator } };
  } else {
    throw new UnknownParameterTypeError(site, typeName(type));
  }
  return { ...reflected, schema: annotate(reflected.schema, param) };
}

/** Adds the description and default of `@Param` options to a parameter schema (explicit or reflected). */
export function annotate(schema: JsonSchema, param: ParamMetadata): JsonSchema {
  const { description, default: defaultValue } = param.options;
  const out: JsonSchema = { ...schema };
  if (description !== undefined) out.description = description;
  if (defaultValue !== undefined) out.default = defaultValue;
  return out;
}

function enumSchema(values: readonly unknown[]): JsonSchema {
  const types = [...new Set(values.map((v) => (v === null ? 'null' : typeof v)))];
  return types.length === 1 ? { type: types[0], enum: [...values] } : { enum: [...values] };
}

/** How a reflected type reads in messages. */
export function typeName(type: unknown): string {
  if (type === undefined) return 'undefined';
  if (typeof type === 'function') return type.name || '<anonymous>';
  return String(type);
}
