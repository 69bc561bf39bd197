import { ToolsmithError } from '../errors/toolsmith-error';
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
    throw new ToolsmithError('INVALID_DECORATOR', '@Inject() needs a token (a class, string or symbol); got nothing, often a circular import.');
  }
  return (target, propertyKey, index) => {
    if (propertyKey !== undefined) {
      throw new ToolsmithError('INVALID_DECORATOR', '@Inject() belongs on a constructor parameter.');
    }
    const tokens: Record<number, InjectionToken> = { ...(Reflect.getOwnMetadata(INJECT_METADATA, target) ?? {}) };
    tokens[index] = token;
    Reflect.defineMetadata(INJECT_METADATA, tokens, target);
  };
}
