import { InvalidDecoratorError } from '../errors/invalid-decorator-error';
import { decoratorOnConstructorMessage, legacyOnlyDecoratorMessage, paramNameMissingMessage } from '../errors/messages';
import { PARAMS_METADATA } from '../metadata-keys';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from '../model/json-schema';
import { isDecoratorContext } from './standard-decorators';

/** Options of the {@link Param} parameter decorator. */
export interface ParamOptions {
  /** What the value means, for the model. */
  description?: string;
  /** The model may leave it out; the method then receives `default` (or `undefined`, so a JS default applies). */
  optional?: boolean;
  /** The allowed values. Also makes a union of literals (`'c' | 'f'`, reported as `Object`) usable. */
  enum?: readonly (string | number | boolean | null)[];
  /**
   * The parameter's schema, replacing what reflection would produce (needed for arrays and object types):
   * a JSON Schema, or a Standard Schema (zod, valibot, arktype) whose library then validates the value
   * and gives the method its output. A Standard Schema that accepts `undefined` makes the parameter optional.
   */
  schema?: JsonSchema | StandardSchemaV1;
  /** Value used when the model leaves the parameter out; also shown in the schema. Implies `optional`. */
  default?: unknown;
}

/** What `@Param` records for one parameter position. */
export interface ParamMetadata {
  name: string;
  options: ParamOptions;
}

/**
 * Declares a tool method parameter as a named argument the model fills in. Only records its options;
 * the scanner builds the schema at startup from them and the parameter's TypeScript type. A parameter
 * decorator: it needs legacy decorators (`"experimentalDecorators": true`); with standard decorators
 * TypeScript refuses it (TS1206) and a toolset takes its parameters from the build-time manifest.
 *
 * @example
 * ```ts
 * @Tool()
 * getWeather(
 *   @Param('city', { description: 'City name, e.g. Paris' }) city: string,
 *   @Param('unit', { enum: ['celsius', 'fahrenheit'], optional: true }) unit: Unit = 'celsius',
 * ) { ... }
 * ```
 */
export function Param(name: string, options: ParamOptions = {}): ParameterDecorator {
  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidDecoratorError(paramNameMissingMessage(name));
  }
  return (target, propertyKey, index) => {
    if (isDecoratorContext(propertyKey)) throw new InvalidDecoratorError(legacyOnlyDecoratorMessage(`@Param("${name}")`, 'param'));
    if (propertyKey === undefined) {
      throw new InvalidDecoratorError(decoratorOnConstructorMessage(`@Param("${name}")`));
    }
    const existing: (ParamMetadata | undefined)[] = Reflect.getOwnMetadata(PARAMS_METADATA, target, propertyKey) ?? [];
    const params = existing.slice();
    params[index] = { name, options: { ...options } };
    Reflect.defineMetadata(PARAMS_METADATA, params, target, propertyKey);
  };
}
