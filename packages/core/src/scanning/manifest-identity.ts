import { CTX_PARAM_METADATA, DESIGN_PARAMTYPES, PARAMS_METADATA } from '../metadata-keys';
import type { ParamMetadata } from '../decorators/param.decorator';
import type { JsonSchema } from '../model/json-schema';
import type { ManifestMethod, ManifestToolset } from './manifest-document';
import { toolMethodsOf } from './method-walker';

/**
 * Why `cls` is not the class the manifest entry describes (one sentence), or `undefined` when it is.
 * The manifest is keyed by class name, and another class may share it (a library's toolset): the
 * entry is only used for a class that has every `@Tool` method the manifest lists, each with the
 * `Function.length` and parameter count the compiled method has, and its `@Param` names and `@Ctx`
 * position where the manifest has them, and, where decorator metadata gives them, parameter types that
 * the entry's schemas can hold (see {@link reflectedTypeMismatch}). All of it is read from the class
 * once, at startup.
 */
export function manifestMismatch(cls: Function, toolset: ManifestToolset): string | undefined {
  const methods = new Map(toolMethodsOf(cls.prototype).map((method) => [method.methodName, method]));
  for (const [methodName, entry] of Object.entries(toolset.methods)) {
    const method = methods.get(methodName);
    if (!method) return `it has no @Tool method ${methodName}`;
    const declared = (method.prototype as Record<string, Function>)[methodName];
    if (entry.length !== undefined && declared.length !== entry.length) {
      return `${methodName} has ${declared.length} parameters before the first one with a default (Function.length), the manifest ${entry.length}`;
    }
    const types: unknown[] | undefined = Reflect.getMetadata(DESIGN_PARAMTYPES, method.prototype, methodName);
    if (entry.parameterCount !== undefined && types && types.length !== entry.parameterCount) {
      return `${methodName} has ${types.length} parameters, the manifest ${entry.parameterCount}`;
    }
    const typeMismatch = types && reflectedTypeMismatch(methodName, types, entry);
    if (typeMismatch) return typeMismatch;
    const params: (ParamMetadata | undefined)[] = Reflect.getOwnMetadata(PARAMS_METADATA, method.prototype, methodName) ?? [];
    for (const [index, param] of params.entries()) {
      if (!param) continue;
      const recorded = entry.parameters.find((parameter) => parameter.index === index);
      if (entry.contextIndex === index) return `${methodName}'s parameter ${index + 1} is @Param('${param.name}'), the manifest's is the context`;
      if (recorded && recorded.name !== param.name) return `${methodName}'s parameter ${index + 1} is @Param('${param.name}'), the manifest's is ${recorded.name}`;
    }
    const contextIndexes: number[] = Reflect.getOwnMetadata(CTX_PARAM_METADATA, method.prototype, methodName) ?? [];
    for (const index of contextIndexes) {
      const recorded = entry.parameters.find((parameter) => parameter.index === index);
      if (recorded) return `${methodName}'s parameter ${index + 1} is @Ctx(), the manifest's is ${recorded.name}`;
    }
  }
  return undefined;
}

// The JSON type a value of each reflected primitive is; a class of the project's is an object.
const PRIMITIVE_JSON_TYPES = new Map<unknown, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
  [Array, 'array'],
]);

/**
 * Why the reflected parameter types (`design:paramtypes`) cannot be the ones the entry's schemas were
 * written for, or `undefined`: a `String` parameter needs a schema that takes strings (a string, an
 * enum of strings), `Number` numbers (number or integer), `Boolean` booleans, `Array` arrays, a class
 * of the project objects. `Object` (interfaces, unions of several types, `unknown`) and built-in
 * classes (`Date`, `Map`) say nothing and are not compared; nor is a schema whose types cannot be read
 * (no `type`, `enum` or `const`).
 */
function reflectedTypeMismatch(methodName: string, types: readonly unknown[], entry: ManifestMethod): string | undefined {
  for (const parameter of entry.parameters) {
    const reflected = types[parameter.index];
    const needed = reflectedJsonType(reflected);
    if (!needed) continue;
    const admitted = schemaJsonTypes(parameter.schema, entry.$defs, 0);
    if (!admitted || admitted.has(needed) || (needed === 'number' && admitted.has('integer'))) continue;
    return (
      `${methodName}'s parameter ${parameter.index + 1} (${parameter.name}) is declared ${(reflected as Function).name}, ` +
      `the manifest's schema takes ${[...admitted].sort().join(' or ') || 'no value'}`
    );
  }
  return undefined;
}

function reflectedJsonType(reflected: unknown): string | undefined {
  if (typeof reflected !== 'function') return undefined;
  const primitive = PRIMITIVE_JSON_TYPES.get(reflected);
  if (primitive) return primitive;
  // Object, Function and the built-in classes (Date, Map, Promise…) are what TypeScript writes for types it cannot name.
  if ((globalThis as Record<string, unknown>)[reflected.name] === reflected) return undefined;
  return 'object';
}

/** The JSON types a schema admits (`integer` kept apart), or `undefined` when it cannot be told. */
function schemaJsonTypes(schema: JsonSchema | boolean | undefined, defs: Record<string, JsonSchema> | undefined, depth: number): Set<string> | undefined {
  if (!schema || typeof schema !== 'object' || depth > 20) return undefined;
  const record = schema as Record<string, unknown>;
  if (typeof record.type === 'string') return new Set([record.type]);
  if (Array.isArray(record.type)) return new Set(record.type.filter((type): type is string => typeof type === 'string'));
  if (typeof record.$ref === 'string') {
    const name = /^#\/\$defs\/(.+)$/.exec(record.$ref)?.[1];
    return name !== undefined && defs && Object.prototype.hasOwnProperty.call(defs, name) ? schemaJsonTypes(defs[name], defs, depth + 1) : undefined;
  }
  const values = 'const' in record ? [record.const] : Array.isArray(record.enum) ? record.enum : undefined;
  if (values) return new Set(values.map(jsonTypeOf));
  const branches = Array.isArray(record.anyOf) ? record.anyOf : Array.isArray(record.oneOf) ? record.oneOf : undefined;
  if (!branches) return undefined;
  const union = new Set<string>();
  for (const branch of branches) {
    const types = schemaJsonTypes(branch as JsonSchema, defs, depth + 1);
    if (!types) return undefined;
    types.forEach((type) => union.add(type));
  }
  return union;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : typeof value === 'string' ? 'string' : 'object';
}
