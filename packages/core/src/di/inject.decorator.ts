import { InvalidDecoratorError } from '../errors/invalid-decorator-error';
import { isDecoratorContext } from '../decorators/standard-decorators';
import { injectOnMethodMessage, injectTokenMissingMessage, legacyOnlyDecoratorMessage } from '../errors/messages';
import { INJECT_METADATA } from '../metadata-keys';
import type { InjectionToken } from './container-adapter';

/**
 * Injects a constructor parameter by token instead of by type: needed for interfaces, strings and
 * symbols, whose types do not exist at runtime.
 *
 * @example
 * ```ts
 * @Toolset()
 * class WeatherTools { constructor(@Inject('WEATHER_API_KEY') private readonly apiKey: string) {} }
 * ```
 */
export function Inject(token: InjectionToken): ParameterDecorator {
  if (token === undefined || token === null) {
    throw new InvalidDecoratorError(injectTokenMissingMessage());
  }
  return (target, propertyKey, index) => {
    if (isDecoratorContext(propertyKey)) {
      throw new InvalidDecoratorError(legacyOnlyDecoratorMessage('@Inject()', 'inject'));
    }
    if (propertyKey !== undefined) {
      throw new InvalidDecoratorError(injectOnMethodMessage());
    }
    const tokens: Record<number, InjectionToken> = { ...(Reflect.getOwnMetadata(INJECT_METADATA, target) ?? {}) };
    tokens[index] = token;
    Reflect.defineMetadata(INJECT_METADATA, tokens, target);
  };
}
